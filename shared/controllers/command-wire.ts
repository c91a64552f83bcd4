import { z } from 'zod';
import { isPlainObject, sameJson } from '../common/json';
import { hasOwnEntry, ownEntry, ownTable } from '../common/own-entry';
import { storableText } from '../common/storable';
import { ZJsonObject } from '../common/zod-fields';
import {
  BUILT_IN_COMMANDS,
  COMMAND_NAME_PATTERN,
  type TDeclaredCommand,
  ZDeclaredArg,
  ZDeclaredCommand,
  ZDeclaredCommands,
} from '../catalogue/declared-commands';

export { BUILT_IN_COMMANDS, COMMAND_NAME_PATTERN, type TDeclaredCommand, ZDeclaredArg, ZDeclaredCommand, ZDeclaredCommands };

/**
 * What travels between the portal and a controller for commands (docs/controller-protocol.md,
 * *Commands*), the same over MQTT and HTTP. Pure zod: the portal's command service, its transports
 * and the simulator (the controller side) all read these.
 *
 * Down (`<prefix>/<controller_id>/command`, QoS 1, or GET /api/ingest/<controller_id>/commands):
 *   { id, kind, payload, not_after, requested_at }
 * Up (`<prefix>/<controller_id>/command/ack`, QoS 1, or POST /api/ingest/<controller_id>/commands/ack):
 *   { id, status: SUCCESS | FAILURE, message?, applied_config? }
 */

/** Built-in commands that need a recent password (step-up). Declared ones say so themselves (`dangerous`). */
export const DANGEROUS_BUILT_INS: readonly string[] = ['restart'];

/** A command id (the idempotency key): the portal's cuid, or any caller-chosen 8–64 characters of [A-Za-z0-9_-]. */
export const COMMAND_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
export const ZCommandId = z.string().regex(COMMAND_ID_PATTERN, '8 to 64 letters, digits, "_" or "-"');

/**
 * A configuration change for one target as a JSON Merge Patch (RFC 7386): a key with a value sets
 * it (objects merge recursively), a key with `null` removes it.
 */
export const ZConfigPatch = ZJsonObject;

/** apply_config: merge patches of the controller's own config and of its devices' (by entity_cuid). */
export const ZApplyConfigPayload = z
  .object({
    controller: ZConfigPatch.optional(),
    devices: z.record(z.string().min(1).max(32), ZConfigPatch).optional(),
  })
  .strict()
  .refine((p) => p.controller !== undefined || (p.devices !== undefined && Object.keys(p.devices).length > 0), {
    message: 'Nothing to apply: give the controller’s or a device’s configuration',
  });
export type TApplyConfigPayload = z.infer<typeof ZApplyConfigPayload>;

/** set_parameter: one setpoint of one device of this controller. */
export const ZSetParameterPayload = z
  .object({
    entity_cuid: z.string().min(1).max(32),
    parameter_id: z.string().min(1).max(64),
    value: z.union([z.number().finite().min(-1e15).max(1e15), z.boolean()]),
  })
  .strict();
export type TSetParameterPayload = z.infer<typeof ZSetParameterPayload>;

/** restart: nothing to say (`reason` is shown in the changelog). */
export const ZRestartPayload = z.object({ reason: z.string().trim().max(500).optional() }).strict();

/** Down: a command as the controller receives it. */
export const ZCommandMessage = z.object({
  id: ZCommandId,
  kind: z.string(),
  payload: z.record(z.string(), z.unknown()),
  /** ISO 8601: do not run it after this (answer FAILURE "expired"). */
  not_after: z.string(),
  requested_at: z.string(),
});
export type TCommandMessage = z.infer<typeof ZCommandMessage>;

/** Up: the controller's answer. A repeated id is answered again with the same result, never run twice. */
export const ZCommandAck = z
  .object({
    id: ZCommandId,
    status: z.enum(['SUCCESS', 'FAILURE']),
    message: storableText(z.string().max(2000)).optional(),
    /** After apply_config: what now runs, in full, per target (becomes the reported configuration). */
    applied_config: z
      .object({
        controller: ZJsonObject.optional(),
        devices: z.record(z.string().min(1).max(32), ZJsonObject).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type TCommandAck = z.infer<typeof ZCommandAck>;

/** Applies a JSON Merge Patch (RFC 7386) to a configuration; returns a new object. */
export function applyMergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  // Keys are a user's or a controller's text: a null-prototype table while patching (no key is
  // inherited, `__proto__` is an entry like any other), a plain copy of it answered.
  const out = ownTable(Object.entries(target));
  for (const [key, value] of Object.entries(patch)) {
    const before = ownEntry(out, key);
    if (value === null) delete out[key];
    else if (isPlainObject(value)) out[key] = applyMergePatch(isPlainObject(before) ? before : {}, value);
    else out[key] = value;
  }
  return { ...out };
}

/**
 * The merge patch that turns `from` into `to` (undefined when they are equal): what "apply" sends
 * for the difference between the reported and the desired configuration.
 */
export function mergePatchBetween(from: Record<string, unknown>, to: Record<string, unknown>): Record<string, unknown> | undefined {
  const patch = ownTable<unknown>();
  for (const key of Object.keys(from)) if (!hasOwnEntry(to, key)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const before = ownEntry(from, key);
    if (isPlainObject(value) && isPlainObject(before)) {
      const inner = mergePatchBetween(before, value);
      if (inner) patch[key] = inner;
    } else if (!sameJson(before, value)) {
      patch[key] = value;
    }
  }
  return Object.keys(patch).length ? { ...patch } : undefined;
}
