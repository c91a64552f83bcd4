import { z } from 'zod';
import { SYSTEM_STATES } from '../../../shared/common/enums';

/**
 * The operator's home in one call (`fleet.overview`): what the caller's visible systems are doing,
 * aggregated on the server. Sections the caller's level does not allow are absent (not empty):
 * `pins` need sites.view (level 2) in the system's company, `alarms` eventTriggers.view (2),
 * `commands` controllers.configure (1); the rest is for every member (level 3).
 */

/** A system's state as the home and the lists show it, worst first (common/enums: the systems list reads it too). */
export { SYSTEM_STATES };
export const ZSystemState = z.enum(SYSTEM_STATES);
export type TSystemState = z.infer<typeof ZSystemState>;

/** Why a system is on the attention list (the first that applies, in this order). */
export const ATTENTION_REASONS = ['ALARM', 'OFFLINE', 'LOW_SOC', 'STALE'] as const;
export const ZAttentionReason = z.enum(ATTENTION_REASONS);

export const ZFleetOverviewInput = z
  .object({
    /** Only these companies of the caller's (a company picker on the home); absent → all. */
    company_cuid: z.string().max(32).optional(),
  })
  .strict()
  .optional();

export const ZSeverity = z.enum(['INFO', 'WARNING', 'ERROR', 'CRITICAL']);

export const ZAttentionItem = z.object({
  system_cuid: z.string(),
  name: z.string(),
  site_name: z.string().nullable(),
  company_name: z.string().nullable(),
  reason: ZAttentionReason,
  state: ZSystemState,
  /** Latest contact of any of the system's controllers. */
  last_contact: z.date().nullable(),
  /** Since when the system's controllers are all offline (null when one is online). */
  offline_since: z.date().nullable(),
  active_alarms: z.number().int(),
  worst_severity: ZSeverity.nullable(),
  soc: z.number().nullable(),
  /** Latest telemetry of any of the system's devices. */
  last_data_at: z.date().nullable(),
});

export const ZMapPin = z.object({
  site_cuid: z.string(),
  name: z.string(),
  lat: z.number(),
  long: z.number(),
  systems: z.number().int(),
  /** The worst state of the site's visible systems. */
  state: ZSystemState,
});

export const ZOverviewAlarm = z.object({
  trigger_cuid: z.string(),
  name: z.string(),
  severity_level: ZSeverity,
  system_cuid: z.string(),
  system_name: z.string(),
  since: z.date().nullable(),
});

export const ZOverviewCommand = z.object({
  command_id: z.string(),
  controller_id: z.string(),
  controller_name: z.string().nullable(),
  system_cuid: z.string().nullable(),
  kind: z.string(),
  status: z.string(),
  created_at: z.date(),
});

export const ZFleetOverview = z.object({
  /** When this overview was computed (a shared overview may be up to OVERVIEW_CACHE_MS old). */
  generated_at: z.date(),
  counts: z.object({
    systems: z.number().int(),
    online: z.number().int(),
    unstable: z.number().int(),
    offline: z.number().int(),
    /** Systems with no controller or no reported state yet. */
    unknown: z.number().int(),
    in_alarm: z.number().int(),
    stale: z.number().int(),
    low_soc: z.number().int(),
  }),
  /** PV energy of the visible systems, each counted in its own time zone's day and month. */
  energy: z.object({
    today_kwh: z.number(),
    month_kwh: z.number(),
    /** Systems that reported an energy counter today. */
    systems_reporting: z.number().int(),
  }),
  /** Systems that need a visit first (at most 20), worst first. */
  attention: z.array(ZAttentionItem),
  pins: z.array(ZMapPin).optional(),
  alarms: z.array(ZOverviewAlarm).optional(),
  commands: z.array(ZOverviewCommand).optional(),
});
export type TFleetOverview = z.infer<typeof ZFleetOverview>;

/** `fleet.energy`: PV kWh of the visible systems per day or month (each system in its own time zone). */
export const ZFleetEnergyInput = z
  .object({
    from: z.coerce.date(),
    to: z.coerce.date(),
    granularity: z.enum(['day', 'month']),
    company_cuid: z.string().max(32).optional(),
  })
  .strict();

export const ZFleetEnergy = z.object({
  granularity: z.enum(['day', 'month']),
  periods: z.array(z.object({ label: z.string(), kwh: z.number().nullable() })),
  total_kwh: z.number(),
});

/** `fleet.mapSettings`: what the browser's map needs from the server's settings. */
export const ZMapSettings = z.object({ tile_url: z.string(), attribution: z.string() });
