import type { SqlParams } from '../database/sql-params';

/**
 * A system's state, written once, as SQL over the state tables (docs/home.md): the fleet overview
 * (fleet/fleet.repository.ts) and the systems list (the generic CRUD, through system.resource.ts)
 * both compose these fragments into their statements. A fragment module of the repository layer:
 * it runs nothing itself; the statements that use it apply the caller's scope.
 *
 * - state: ALARM with an active alarm (an active trigger whose status is TRIGGERED), else the worst
 *   reported online state of its controllers (OFFLINE > UNSTABLE > ONLINE), UNKNOWN without one;
 * - last_contact: the latest `controller_presence.last_seen_at` of its controllers;
 * - offline_since: when all its controllers with a state are OFFLINE, since when (the latest
 *   `state_since`), else null;
 * - soc: the latest value of the state-of-charge parameter on its devices (5 min rollups' `last`);
 * - last_data_at: the latest telemetry of its devices (each assigned parameter's newest rollup);
 * - energy_today_kwh / energy_month_kwh: the total_pv_kwh counter's latest reading minus the last
 *   reading before local midnight / the local month start (the system's own time zone); a counter
 *   that went down counts from zero; null without a reading in the period, or without a base
 *   reading in the 31 days before it.
 *
 * Every part is an index probe per system (controller by system, presence and status by key,
 * rollups and counter readings newest first), so a page of a list or a fleet of thousands costs
 * the number of its systems, not the size of the telemetry tables. `OFFSET 0` keeps each lateral a
 * subquery of its own: pulled up, its scalar subqueries would run again for every column that reads them.
 */

/**
 * The counter's base reading (the last before local midnight / month start) is looked for at most
 * this many days before the period: a counter silent for longer counts nothing for the period.
 */
const BASE_WINDOW_DAYS = 31;
/**
 * Every reading read here is younger than this (month start + its base window, with margin): the
 * bound lets PostgreSQL plan and probe only the recent monthly partitions of system_standard_value_log.
 */
const READINGS_WINDOW_DAYS = 70;

export interface SystemStateSettings {
  /** FLEET_SOC_PARAMETER */
  socParameter: string;
  /** FLEET_STALE_MINUTES */
  staleMinutes: number;
  /** FLEET_LOW_SOC_PERCENT */
  lowSocPercent: number;
}

/** The columns `systemStateJoinsSql` makes available through `systemStateColumns`. */
export const SYSTEM_STATE_COLUMNS = [
  'online_state',
  'last_contact',
  'offline_since',
  'active_alarms',
  'worst_severity',
  'soc',
  'last_data_at',
  'energy_today_kwh',
  'energy_month_kwh',
  'stale',
  'low_soc',
] as const;
export type SystemStateColumn = (typeof SYSTEM_STATE_COLUMNS)[number];

/**
 * `CROSS JOIN LATERAL …` joins for the system row under alias `s`, with aliases prefixed `prefix`
 * (so two can coexist); read their columns with `systemStateColumns(prefix)`.
 */
export function systemStateJoinsSql(s: string, p: SqlParams, settings: SystemStateSettings, prefix = 'ss'): string {
  const soc = p.add(settings.socParameter);
  const id = `${s}.system_cuid`;
  const tz = `${s}.timezone`;
  // Values, not now(): the planner then keeps only the partitions in the window (planning every
  // monthly partition for each probe cost ~10 ms per statement).
  const since = p.add(new Date(Date.now() - READINGS_WINDOW_DAYS * 86_400_000));
  const until = p.add(new Date(Date.now() + 86_400_000));
  const recent = `l."timestamp" >= ${since}::timestamptz AND l."timestamp" < ${until}::timestamptz`;
  return `
    CROSS JOIN LATERAL (
      SELECT count(os.online_state) AS n_state,
             bool_or(os.online_state = 'OFFLINE') AS any_offline,
             bool_or(os.online_state = 'UNSTABLE') AS any_unstable,
             bool_and(os.online_state = 'OFFLINE') AS all_offline,
             max(pr.last_seen_at) AS last_contact,
             max(pr.state_since) FILTER (WHERE os.online_state = 'OFFLINE') AS offline_since
        FROM controller c
        LEFT JOIN controller_online_state os ON os.controller_id = c.controller_id
        LEFT JOIN controller_presence pr ON pr.controller_id = c.controller_id
       WHERE c.system_cuid = ${id}) ${prefix}_c
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS active_alarms, max(nt.severity_level)::text AS worst_severity
        FROM notification_trigger nt
        JOIN notification_trigger_status nts ON nts.trigger_cuid = nt.trigger_cuid
       WHERE nt.system_cuid = ${id} AND nt.is_active AND nts.trigger_state = 'TRIGGERED') ${prefix}_a
    CROSS JOIN LATERAL (
      SELECT (SELECT r.last FROM entity e
                CROSS JOIN LATERAL (SELECT r5.last, r5.last_ts FROM parameter_rollup_5m r5
                                     WHERE r5.entity_cuid = e.entity_cuid AND r5.parameter_id = ${soc}
                                     ORDER BY r5.bucket DESC LIMIT 1) r
               WHERE e.system_cuid = ${id}
               ORDER BY r.last_ts DESC LIMIT 1) AS soc,
             (SELECT max(r.last_ts) FROM entity e
                JOIN entity_type_log_parameter_assignment pa ON pa.entitytype_id = e.entitytype_id
                CROSS JOIN LATERAL (SELECT r5.last_ts FROM parameter_rollup_5m r5
                                     WHERE r5.entity_cuid = e.entity_cuid AND r5.parameter_id = pa.parameter_id
                                     ORDER BY r5.bucket DESC LIMIT 1) r
               WHERE e.system_cuid = ${id}) AS last_data_at
      OFFSET 0) ${prefix}_d
    CROSS JOIN LATERAL (
      SELECT date_trunc('day', now(), ${tz}) AS day_start, date_trunc('month', now(), ${tz}) AS month_start OFFSET 0) ${prefix}_t
    CROSS JOIN LATERAL (
      SELECT lr.last_ts, lr.last_v,
             (SELECT l.total_pv_kwh::float8 FROM system_standard_value_log l
               WHERE l.system_cuid = ${id} AND ${recent}
                 AND l."timestamp" < ${prefix}_t.day_start AND l."timestamp" >= ${prefix}_t.day_start - interval '${BASE_WINDOW_DAYS} days'
               ORDER BY l."timestamp" DESC LIMIT 1) AS day_base,
             (SELECT l.total_pv_kwh::float8 FROM system_standard_value_log l
               WHERE l.system_cuid = ${id} AND ${recent}
                 AND l."timestamp" < ${prefix}_t.month_start AND l."timestamp" >= ${prefix}_t.month_start - interval '${BASE_WINDOW_DAYS} days'
               ORDER BY l."timestamp" DESC LIMIT 1) AS month_base
        FROM (SELECT 1) one
        LEFT JOIN LATERAL (
          SELECT l."timestamp" AS last_ts, l.total_pv_kwh::float8 AS last_v FROM system_standard_value_log l
           WHERE l.system_cuid = ${id} AND ${recent}
             AND l."timestamp" >= ${prefix}_t.month_start
           ORDER BY l."timestamp" DESC LIMIT 1) lr ON true
      OFFSET 0) ${prefix}_e`;
}

/** Column expressions over the joins of `systemStateJoinsSql` (same `prefix`); no parameters. */
export function systemStateColumns(settings: SystemStateSettings, prefix = 'ss'): Record<SystemStateColumn, string> {
  const c = `${prefix}_c`;
  const a = `${prefix}_a`;
  const d = `${prefix}_d`;
  const t = `${prefix}_t`;
  const e = `${prefix}_e`;
  // Settings validated as whole numbers (config.ts), written as literals: a parameter that a caller's
  // selection leaves unused would make PostgreSQL refuse the statement.
  const staleMinutes = String(Math.trunc(Number(settings.staleMinutes)));
  const lowSoc = String(Math.trunc(Number(settings.lowSocPercent)));
  const delta = (base: string, start: string) =>
    `(CASE WHEN ${e}.last_ts >= ${start} AND ${base} IS NOT NULL
           THEN round((CASE WHEN ${e}.last_v >= ${base} THEN ${e}.last_v - ${base} ELSE ${e}.last_v END)::numeric, 3)::float8 END)`;
  return {
    online_state: `(CASE WHEN ${a}.active_alarms > 0 THEN 'ALARM'
                         WHEN ${c}.n_state = 0 THEN 'UNKNOWN'
                         WHEN ${c}.any_offline THEN 'OFFLINE'
                         WHEN ${c}.any_unstable THEN 'UNSTABLE'
                         ELSE 'ONLINE' END)`,
    last_contact: `${c}.last_contact`,
    offline_since: `(CASE WHEN ${c}.all_offline THEN ${c}.offline_since END)`,
    active_alarms: `${a}.active_alarms`,
    worst_severity: `${a}.worst_severity`,
    soc: `${d}.soc`,
    last_data_at: `${d}.last_data_at`,
    energy_today_kwh: delta(`${e}.day_base`, `${t}.day_start`),
    energy_month_kwh: delta(`${e}.month_base`, `${t}.month_start`),
    // No data for the window; a system that never sent any is stale once it has a controller.
    stale: `(CASE WHEN ${d}.last_data_at IS NULL THEN ${c}.n_state > 0
                  ELSE ${d}.last_data_at < now() - make_interval(mins => ${staleMinutes}::int) END)`,
    low_soc: `COALESCE(${d}.soc < ${lowSoc}::float8, false)`,
  };
}

/** Worst first, as a number for ORDER BY / min(): ALARM 0 … UNKNOWN 4 (fleet.schema SYSTEM_STATES). */
export const stateRankSql = (state: string): string =>
  `(CASE ${state} WHEN 'ALARM' THEN 0 WHEN 'OFFLINE' THEN 1 WHEN 'UNSTABLE' THEN 2 WHEN 'ONLINE' THEN 3 ELSE 4 END)`;
