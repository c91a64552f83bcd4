import { z } from 'zod';
import { CONTROLLER_COMMAND_STATUSES } from '../../../../shared/common/enums';
import { ZJsonObject } from '../../../../shared/common/zod-fields';
import { ZCommandId, COMMAND_NAME_PATTERN } from '../../../../shared/controllers/command-wire';

/**
 * controllerCommand.send: an installer (controllers.configure) asks a controller to do something.
 * `payload` is checked against the kind (apply_config, set_parameter, restart, or a command the
 * controller type declares); field errors name `payload.<field>`. `id` is the idempotency key: the
 * same id again answers the stored command (a different request under a used id: CONFLICT).
 * `password`: the step-up for dangerous commands (required when the session has not given it in
 * the last STEP_UP_MAX_AGE_SECONDS; without it the answer is PRECONDITION_FAILED with
 * `data.stepUp = true`, a wrong one UNAUTHORIZED-free BAD_REQUEST on `password`).
 */
export const ZSendCommandInput = z
  .object({
    controller_id: z.string().trim().min(1).max(64),
    kind: z.string().regex(COMMAND_NAME_PATTERN, 'Lower-case letters, digits and "_"'),
    payload: ZJsonObject.default({}),
    not_after: z.date().optional(),
    id: ZCommandId.optional(),
    password: z.string().min(1).max(1024).optional(),
  })
  .strict();
export type TSendCommandInput = z.infer<typeof ZSendCommandInput>;

/** A command as the back office reads it (controllerCommand.getList / getOne / send). */
export const ZCommandRecord = z.object({
  id: z.string(),
  command_id: z.string(),
  controller_id: z.string(),
  controller_name: z.string().nullable(),
  company_cuid: z.string(),
  system_cuid: z.string().nullable(),
  kind: z.string(),
  payload: z.record(z.string(), z.unknown()),
  dangerous: z.boolean(),
  status: z.enum(CONTROLLER_COMMAND_STATUSES),
  requested_by: z.string().nullable(),
  requester_name: z.string().nullable(),
  requested_at: z.date(),
  not_after: z.date(),
  sent_at: z.date().nullable(),
  attempts: z.number(),
  finished_at: z.date().nullable(),
  acked_at: z.date().nullable(),
  message: z.string().nullable(),
  applied_config: z.record(z.string(), z.unknown()).nullable(),
});
export type TCommandRecord = z.infer<typeof ZCommandRecord>;

/** The desired and reported configuration of one target (the controller, or one device / data processor). */
export const ZConfigTarget = z.object({
  /** 'controller' or 'device' (data processors are devices here, with `processor` true). */
  target: z.enum(['controller', 'device']),
  /** controller_id or entity_cuid. */
  key: z.string(),
  name: z.string(),
  entitytype_id: z.string().nullable(),
  processor: z.boolean(),
  desired: z.record(z.string(), z.unknown()),
  reported: z.record(z.string(), z.unknown()).nullable(),
  reported_at: z.date().nullable(),
  /** The merge patch from reported to desired (null when equal, or everything when nothing was reported). */
  difference: z.record(z.string(), z.unknown()).nullable(),
  /** Whether the caller may apply it (a CalculatedValue processor needs level 0). */
  may_apply: z.boolean(),
});

/** controllerConfig.get: the controller and its devices, desired against reported; the latest apply_config. */
export const ZControllerConfig = z.object({
  controller_id: z.string(),
  targets: z.array(ZConfigTarget),
  in_sync: z.boolean(),
  last_apply: ZCommandRecord.nullable(),
});
export type TControllerConfig = z.infer<typeof ZControllerConfig>;

/** controllerConfig.applyDifference (not `apply`: tRPC reserves it): send the difference (all targets, or the named ones) as one apply_config command. */
export const ZApplyConfigInput = z
  .object({
    controller_id: z.string().trim().min(1).max(64),
    /** entity_cuids and/or the controller_id; absent = every target with a difference. */
    only: z.array(z.string().min(1).max(64)).max(500).optional(),
    id: ZCommandId.optional(),
    not_after: z.date().optional(),
  })
  .strict();
