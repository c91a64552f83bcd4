import { z } from 'zod';

/**
 * Alert rules: what `NotificationTrigger.args` (and a template assignment's `args`) hold.
 * One schema for the server (checked on every write), the rule form in the browser and
 * docs/alerts.md. Pure: no Nest, no database (the browser imports it).
 *
 * Durations are whole seconds of **device time** (the timestamps controllers send), bounded to a
 * week; values are finite numbers. `entity_cuid`, `parameter_id` and `controller_id` must belong to
 * the trigger's own system (checked on write by the engine; NOT_FOUND otherwise).
 */

/** Longest duration a rule may wait (7 days). */
export const RULE_MAX_SECONDS = 7 * 24 * 3600;

const ZSeconds = z.number().int('Whole seconds').min(0, 'At least 0 s').max(RULE_MAX_SECONDS, `At most ${RULE_MAX_SECONDS} s (7 days)`);
const ZPositiveSeconds = ZSeconds.min(1, 'At least 1 s');
const ZNumber = z.number().refine((v) => Number.isFinite(v), 'A finite number');
const ZId = z.string().trim().min(1, 'Required').max(64);

const thresholdShape = {
  kind: z.literal('threshold'),
  entity_cuid: ZId,
  parameter_id: ZId,
  op: z.enum(['above', 'below']),
  /** Fires when the value is beyond this (strictly above / below). */
  value: ZNumber,
  /** Releases only when the value is back beyond this, on the other side (hysteresis). Defaults to `value`. */
  release_value: ZNumber.optional(),
  /** The value must stay beyond `value` this long before the trigger fires. */
  for_seconds: ZSeconds.default(0),
  /** The value must stay back beyond `release_value` this long before the trigger releases. */
  release_for_seconds: ZSeconds.default(0),
};

/** The release value must sit on the releasing side of the trigger value. */
const checkHysteresis = (r: { op: 'above' | 'below'; value: number; release_value?: number }, ctx: z.RefinementCtx) => {
  if (r.release_value === undefined) return;
  const wrongSide = r.op === 'above' ? r.release_value > r.value : r.release_value < r.value;
  if (wrongSide) {
    ctx.addIssue({
      code: 'custom',
      path: ['release_value'],
      message: r.op === 'above' ? 'Must be at most the trigger value (it releases below it)' : 'Must be at least the trigger value (it releases above it)',
    });
  }
};

export const ZThresholdRule = z.object(thresholdShape).strict().superRefine(checkHysteresis);

export const ZNoDataRule = z
  .object({
    kind: z.literal('no_data'),
    entity_cuid: ZId,
    parameter_id: ZId,
    /** Fires when this parameter of this device has sent nothing for this long. */
    after_seconds: ZPositiveSeconds,
  })
  .strict();

export const ZOfflineRule = z
  .object({
    kind: z.literal('offline'),
    /** A controller of the system; absent = any controller of the system. */
    controller_id: ZId.optional(),
    /** Fires when the controller has been OFFLINE (after its grace period) this long. */
    after_seconds: ZSeconds.default(0),
  })
  .strict();

export const ZStateRule = z
  .object({
    kind: z.literal('state'),
    entity_cuid: ZId,
    /** A key of the DeviceState bundle. */
    key: z.string().trim().min(1, 'Required').max(200),
    op: z.enum(['equals', 'differs']),
    /** Compared with the bundle's value (JSON scalars; text compares exactly). */
    value: z.union([z.string().max(2000), ZNumber, z.boolean(), z.null()]),
    for_seconds: ZSeconds.default(0),
  })
  .strict();

export const ZTriggerRule = z.discriminatedUnion('kind', [ZThresholdRule, ZNoDataRule, ZOfflineRule, ZStateRule]);
export type TTriggerRule = z.infer<typeof ZTriggerRule>;
export type TThresholdRule = z.infer<typeof ZThresholdRule>;
export type TNoDataRule = z.infer<typeof ZNoDataRule>;
export type TOfflineRule = z.infer<typeof ZOfflineRule>;
export type TStateRule = z.infer<typeof ZStateRule>;
export const RULE_KINDS = ['threshold', 'no_data', 'offline', 'state'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/**
 * A template assignment's args: the same rules without the device (the engine fills in
 * `entity_cuid` with each device of the template's entity type). `offline` rules are per system
 * and have no template form.
 */
export const ZTemplateRule = z.discriminatedUnion('kind', [
  z.object(thresholdShape).omit({ entity_cuid: true }).strict().superRefine(checkHysteresis),
  ZNoDataRule.omit({ entity_cuid: true }).strict(),
  ZStateRule.omit({ entity_cuid: true }).strict(),
]);
export type TTemplateRule = z.infer<typeof ZTemplateRule>;

/** Placeholders a trigger's `message` and `release_message` may hold. */
export const MESSAGE_PLACEHOLDERS = ['value', 'threshold', 'parameter', 'unit', 'device', 'system', 'time'] as const;
export type MessagePlaceholder = (typeof MESSAGE_PLACEHOLDERS)[number];

/**
 * What the engine stores in `NotificationTriggerEvent.value` on a state change: everything the
 * delivery needs to render the message without reading telemetry again.
 * `time` is the device time of the change (ISO 8601, UTC); renderers show it in `timezone`.
 */
export const ZTriggerEventValue = z.object({
  state: z.enum(['TRIGGERED', 'RELEASED']),
  /** The value that caused the change (a number, a state value, or null for no_data / offline). */
  value: z.union([z.number(), z.string(), z.boolean(), z.null()]),
  threshold: z.union([z.number(), z.string(), z.boolean(), z.null()]),
  parameter: z.string().nullable(),
  unit: z.string().nullable(),
  device: z.string().nullable(),
  system: z.string(),
  system_cuid: z.string(),
  timezone: z.string(),
  time: z.string(),
});
export type TTriggerEventValue = z.infer<typeof ZTriggerEventValue>;
