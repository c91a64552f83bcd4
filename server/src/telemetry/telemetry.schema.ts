import { z } from 'zod';
import { CONTROLLER_ONLINE_STATES, LOG_PARAMETER_TYPES } from '../../../shared/common/enums';
import { boundedJson } from '../../../shared/common/zod-fields';
import { storableText } from '../../../shared/common/storable';
import { ZTranslationsRecord } from '../common/translations';

/** Largest state bundle of one device, as JSON text (bytes). */
export const STATE_BUNDLE_MAX_BYTES = 16 * 1024;

// ---- controller payloads (MQTT and HTTP) -------------------------------------------------------

/**
 * A timestamp from a controller: an ISO 8601 string with a zone (`Z` or `±hh:mm`), or epoch
 * milliseconds. A string without a zone is refused: it would be read in the server's zone.
 */
export const ZDeviceTimestamp = z.union([
  z
    .string()
    .max(40)
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i, 'must be ISO 8601 with a time zone (Z or ±hh:mm) or epoch milliseconds')
    .transform((s, ctx) => {
      const d = new Date(s);
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'is not a valid date' });
        return z.NEVER;
      }
      return d;
    }),
  z
    .number()
    .int('epoch milliseconds must be a whole number')
    .min(0)
    .max(8.64e15)
    .transform((n) => new Date(n)),
]);

const ZFiniteNumber = z.number().refine(Number.isFinite, 'must be a finite number');

/** One ParameterLog row as a controller sends it. */
export const ZTelemetryRow = z.object({
  timestamp: ZDeviceTimestamp,
  entity_cuid: z.string().min(1).max(32),
  parameter_id: z.string().min(1).max(64),
  value: z.union([ZFiniteNumber, z.boolean().transform((b) => (b ? 1 : 0))]),
  min: ZFiniteNumber.nullable().optional(),
  max: ZFiniteNumber.nullable().optional(),
});
export type TTelemetryRow = z.infer<typeof ZTelemetryRow>;

/** One SystemStandardValueLog row: total PV energy counter (kWh) of the controller's system. */
export const ZStandardRow = z.object({
  timestamp: ZDeviceTimestamp,
  system_cuid: z.string().min(1).max(32).optional(),
  total_pv_kwh: ZFiniteNumber.refine((n) => n >= 0 && n < 1e11, 'must be between 0 and 99,999,999,999.999 kWh'),
});
export type TStandardRow = z.infer<typeof ZStandardRow>;

/** One DeviceState bundle. */
export const ZStateRow = z.object({
  timestamp: ZDeviceTimestamp,
  entity_cuid: z.string().min(1).max(32),
  state_bundle: boundedJson(z.record(z.string().max(128), z.unknown()), { maxBytes: STATE_BUNDLE_MAX_BYTES }),
});
export type TStateRow = z.infer<typeof ZStateRow>;

/**
 * Envelopes. Rows are checked one by one afterwards (a bad row never sinks its batch), so the
 * envelope only checks that the lists are lists. Unknown top-level fields are ignored.
 */
export const ZBatchId = z.string().min(1).max(64).optional();
export const ZTelemetryEnvelope = z.object({
  batch_id: ZBatchId,
  rows: z.array(z.unknown()).optional(),
  standard: z.array(z.unknown()).optional(),
});
export const ZStateEnvelope = z.object({
  batch_id: ZBatchId,
  states: z.array(z.unknown()),
});
export const ZHeartbeat = z.object({
  timestamp: ZDeviceTimestamp.optional(),
  sw_version: storableText(z.string().max(64)).optional(),
  uptime_s: z.number().nonnegative().optional(),
});

export const ZRejectedRow = z.object({
  /** Position of the row in its list (0-based). */
  index: z.number().int(),
  reason: z.string(),
  /** Which list the index refers to; absent for `rows`. */
  list: z.enum(['standard', 'states']).optional(),
});
export type TRejectedRow = z.infer<typeof ZRejectedRow>;

/** The answer to a telemetry or state batch (HTTP body, MQTT reply topic). */
export const ZIngestAnswer = z.object({
  batch_id: z.string().optional(),
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(ZRejectedRow),
});
export type TIngestAnswer = z.infer<typeof ZIngestAnswer>;

// ---- queries (tRPC) ---------------------------------------------------------------------------

const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
export const ZTimeZone = z.string().min(1).max(64).refine(isTimeZone, 'is not a known IANA time zone');

const TEN_YEARS_MS = 3660 * 86_400_000;

export const ZSeriesInput = z
  .object({
    entity_cuid: z.string().min(1).max(32),
    parameter_ids: z.array(z.string().min(1).max(64)).min(1).max(12),
    from: z.date(),
    to: z.date(),
    /** About how many points per parameter (the answer has between points/2 and points). */
    points: z.number().int().min(1).max(5000).default(500),
    /** Zone for day-sized buckets; default: the system's. */
    timezone: ZTimeZone.optional(),
  })
  .refine((i) => i.to.getTime() > i.from.getTime(), { message: '"to" must be after "from"', path: ['to'] })
  .refine((i) => i.to.getTime() - i.from.getTime() <= TEN_YEARS_MS, { message: 'the range may not exceed 10 years', path: ['to'] });
export type TSeriesInput = z.infer<typeof ZSeriesInput>;

export const ZSeriesPoint = z.object({
  /** Start of the bucket, epoch milliseconds (UTC). */
  t: z.number(),
  min: z.number(),
  max: z.number(),
  avg: z.number(),
  /** The value at the latest timestamp in the bucket. */
  last: z.number(),
  /** Raw samples in the bucket. */
  count: z.number().int(),
});
export type TSeriesPoint = z.infer<typeof ZSeriesPoint>;

export const ZResolution = z.enum(['raw', '5m', '1h', '1d']);
export type TResolution = z.infer<typeof ZResolution>;

export const ZSeriesOutput = z.object({
  entity_cuid: z.string(),
  timezone: z.string(),
  /** The stored resolution read. */
  resolution: ZResolution,
  /** Width of one point; for day-sized buckets a multiple of 86,400 (local days). */
  bucket_seconds: z.number(),
  from: z.date(),
  to: z.date(),
  series: z.array(z.object({ parameter_id: z.string(), points: z.array(ZSeriesPoint) })),
});
export type TSeriesOutput = z.infer<typeof ZSeriesOutput>;

export const ZLatestInput = z.object({ system_cuid: z.string().min(1).max(32) });

export const ZLatestOutput = z.object({
  system_cuid: z.string(),
  name: z.string(),
  timezone: z.string(),
  /**
   * Whether the inventory detail is included: the controllers (ids, names, online state) and each
   * device's type and controller. Spec §6 "controllers and devices view 2": below level 2 (Basic)
   * the answer carries the current values only (controllers empty, entitytype_id and controller_id null).
   */
  inventory: z.boolean(),
  controllers: z.array(
    z.object({
      controller_id: z.string(),
      name: z.string(),
      online_state: z.enum(CONTROLLER_ONLINE_STATES),
      last_seen_at: z.date().nullable(),
    }),
  ),
  devices: z.array(
    z.object({
      entity_cuid: z.string(),
      name: z.string(),
      entitytype_id: z.string().nullable(),
      controller_id: z.string().nullable(),
      parameters: z.array(
        z.object({
          parameter_id: z.string(),
          description: z.string().nullable(),
          /** The description in other languages (`{ fr: { description } }`), the client picks the reader's. */
          translations: ZTranslationsRecord,
          unit: z.string().nullable(),
          type: z.enum(LOG_PARAMETER_TYPES),
          value: z.number().nullable(),
          /** An Enum parameter's value as its entity type's label ("Inverting", not 9); null when none. */
          text: z.string().nullable(),
          timestamp: z.date().nullable(),
        }),
      ),
      /** The device's latest DeviceState, readable (labels of the entity type's meta); null when none. */
      state: z
        .object({
          timestamp: z.date(),
          values: z.array(z.object({ key: z.string(), label: z.string(), text: z.string(), decoded: z.boolean() })),
          faults: z.array(z.string()),
          warnings: z.array(z.string()),
        })
        .nullable(),
    }),
  ),
});
export type TLatestOutput = z.infer<typeof ZLatestOutput>;

export const ZEnergyInput = z
  .object({
    system_cuid: z.string().min(1).max(32),
    from: z.date(),
    to: z.date(),
    granularity: z.enum(['day', 'month']),
  })
  .refine((i) => i.to.getTime() > i.from.getTime(), { message: '"to" must be after "from"', path: ['to'] })
  .refine((i) => i.to.getTime() - i.from.getTime() <= (i.granularity === 'day' ? 1100 : 12_000) * 86_400_000, {
    message: 'too many periods: at most about 3 years of days or 30 years of months',
    path: ['to'],
  });
export type TEnergyInput = z.infer<typeof ZEnergyInput>;

export const ZEnergyOutput = z.object({
  system_cuid: z.string(),
  timezone: z.string(),
  granularity: z.enum(['day', 'month']),
  periods: z.array(
    z.object({
      /** Local start of the period (midnight of the day / first of the month in the system's zone). */
      start: z.date(),
      /** 'YYYY-MM-DD' or 'YYYY-MM' in the system's zone. */
      label: z.string(),
      /** Energy produced in the period; null when no reading shows it. */
      kwh: z.number().nullable(),
    }),
  ),
  total_kwh: z.number(),
});
export type TEnergyOutput = z.infer<typeof ZEnergyOutput>;
