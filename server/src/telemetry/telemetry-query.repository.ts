import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import type { VisibleSystem } from '../systems/system-access.repository';
import { type Caller, systemSharesSql, visibleSystemSql } from '../tenancy/visibility';
import { rollupTable } from './rollups';
import type { SeriesPlan } from './series-plan';
import type { TEnergyInput, TLatestOutput, TResolution } from './telemetry.schema';

/** Reference for bucket alignment: a Monday, so 7-day buckets are weeks. */
const ORIGIN_DATE = '2000-01-03';

export interface SeriesRow {
  parameter_id: string;
  t: number;
  min: number;
  max: number;
  avg: number;
  last: number;
  count: number;
}

/** One chart read: the device, its parameters, the window, and how the buckets are cut. */
export interface SeriesQuery {
  entity_cuid: string;
  parameter_ids: string[];
  from: Date;
  to: Date;
  zone: string;
  plan: SeriesPlan;
  resolution: TResolution;
}

/** A device's parameter (null columns: a device whose type logs nothing) with its latest 5-minute value. */
export interface DeviceParameterRow {
  entity_cuid: string;
  name: string;
  entitytype_id: string;
  controller_id: string | null;
  parameter_id: string | null;
  description: string | null;
  translations: Record<string, Record<string, string>> | null;
  unit: string | null;
  type: TLatestOutput['devices'][number]['parameters'][number]['type'] | null;
  value: number | null;
  timestamp: Date | null;
}

/** A device's entity type meta and its latest DeviceState. */
export interface DeviceStateRow {
  entity_cuid: string;
  meta: unknown;
  state_at: Date | string | null;
  state_bundle: unknown;
}

export interface EnergyRow {
  start: Date;
  label: string;
  kwh: number | null;
}

/** The devices of a system: attached directly, or through one of its controllers. */
const DEVICE_OF_SYSTEM = `FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         JOIN system s ON s.system_cuid = COALESCE(e.system_cuid, c.system_cuid)`;

/**
 * The SQL of chart and current-value reads. Every method takes the caller first and reads only
 * systems (and their devices) the caller sees (tenancy/visibility.ts): another company's device
 * or system answers no rows, like a missing one. No rules here: the service checks permissions,
 * picks the plan and shapes the answer.
 */
@Injectable()
export class TelemetryQueryRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** The system of a device, if the caller sees it. One query: a chart asks this on every call. */
  async deviceSystem(caller: Caller, entity_cuid: string): Promise<VisibleSystem | undefined> {
    const p = new SqlParams([entity_cuid]);
    const [system] = await this.ds.query<VisibleSystem[]>(
      `SELECT s.system_cuid, s.company_cuid, s.name, s.timezone, ${systemSharesSql('s')} AS shares
         ${DEVICE_OF_SYSTEM}
        WHERE e.entity_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}`,
      p.values,
    );
    return system;
  }

  /**
   * Buckets of a device's parameters in [from, to): from raw rows or a rollup (`resolution`), cut
   * as `plan` says; ordered by parameter and time. No rows for a device the caller does not see.
   */
  async series(caller: Caller, q: SeriesQuery): Promise<SeriesRow[]> {
    const p = new SqlParams();
    const [e, ps, f, t] = [p.add(q.entity_cuid), p.add(q.parameter_ids), p.add(q.from), p.add(q.to)];
    // Computed once (an init plan): the device is of a system the caller sees.
    const seen = `EXISTS (SELECT 1 ${DEVICE_OF_SYSTEM} WHERE e.entity_cuid = ${e} AND ${visibleSystemSql(caller, p, 's')})`;
    // One shape for every source: (ts, mn, mx, sm, cnt, lst, lts).
    const source =
      q.resolution === 'raw'
        ? `SELECT parameter_id, "timestamp" AS ts, COALESCE(min, value) AS mn, COALESCE(max, value) AS mx, value AS sm, 1 AS cnt, value AS lst, "timestamp" AS lts
             FROM parameter_log
            WHERE entity_cuid = ${e} AND parameter_id = ANY(${ps}::varchar[]) AND "timestamp" >= ${f} AND "timestamp" < ${t} AND ${seen}`
        : `SELECT parameter_id, bucket AS ts, min AS mn, max AS mx, sum AS sm, count AS cnt, last AS lst, last_ts AS lts
             FROM ${rollupTable(q.resolution)}
            WHERE entity_cuid = ${e} AND parameter_id = ANY(${ps}::varchar[]) AND bucket >= ${alignedStart(q.resolution, f, () => p.add(q.zone))} AND bucket < ${t}
              AND ${seen}`;
    const { plan } = q;
    let group: string;
    if (plan.grouping === 'days') {
      const [z, k] = [p.add(q.zone), p.add(plan.days)];
      group = `((DATE '${ORIGIN_DATE}' + (((date_trunc('day', ts, ${z}) AT TIME ZONE ${z})::date - DATE '${ORIGIN_DATE}') / ${k}::int) * ${k}::int)::timestamp AT TIME ZONE ${z})`;
    } else if (plan.resolution === 'raw' && !isAligned(plan.widthMs)) {
      // A raw plan: buckets of exactly range / points, from `from`. (Rollup plans read from raw rows keep their alignment.)
      group = `date_bin(${p.add(`${plan.widthMs} milliseconds`)}::interval, ts, ${f}::timestamptz)`;
    } else {
      // Aligned on local midnight of the zone (as of the reference date).
      group = `date_bin(${p.add(`${plan.widthMs} milliseconds`)}::interval, ts, (TIMESTAMP '${ORIGIN_DATE} 00:00:00' AT TIME ZONE ${p.add(q.zone)}))`;
    }
    // Group on the bucket's timestamptz; the epoch conversion (numeric) runs on the output rows only.
    return await this.ds.query<SeriesRow[]>(
      `SELECT parameter_id, round(date_part('epoch', g) * 1000) AS t, min, max, avg, last, count
         FROM (SELECT parameter_id, ${group} AS g,
                      min(mn)::float8 AS min, max(mx)::float8 AS max, (sum(sm) / sum(cnt))::float8 AS avg,
                      ${LAST_OF_GROUP('lst', 'lts')} AS last, sum(cnt)::int AS count
                 FROM (${source}) x
                GROUP BY 1, 2) y
        ORDER BY 1, 2`,
      p.values,
    );
  }

  /** The controllers of a system the caller sees, with their online state and last contact. */
  async controllers(caller: Caller, system_cuid: string): Promise<TLatestOutput['controllers']> {
    const p = new SqlParams([system_cuid]);
    return await this.ds.query<TLatestOutput['controllers']>(
      `SELECT c.controller_id, c.name, COALESCE(os.online_state, 'OFFLINE') AS online_state, pr.last_seen_at
         FROM controller c
         JOIN system s ON s.system_cuid = c.system_cuid
         LEFT JOIN controller_online_state os ON os.controller_id = c.controller_id
         LEFT JOIN controller_presence pr ON pr.controller_id = c.controller_id
        WHERE c.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}
        ORDER BY c.name, c.controller_id`,
      p.values,
    );
  }

  /** Every device of a system the caller sees, one row per logged parameter with its latest 5-minute value. */
  async deviceParameters(caller: Caller, system_cuid: string): Promise<DeviceParameterRow[]> {
    const p = new SqlParams([system_cuid]);
    return await this.ds.query<DeviceParameterRow[]>(
      `SELECT e.entity_cuid, e.name, e.entitytype_id, e.controller_id,
              lp.parameter_id, lp.description, lp.translations, u.unit, lp.type, l.last AS value, l.last_ts AS timestamp
         ${DEVICE_OF_SYSTEM}
         LEFT JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
         LEFT JOIN log_parameter lp ON lp.parameter_id = a.parameter_id
         LEFT JOIN unit u ON u.unit_cuid = lp.unit_cuid
         LEFT JOIN LATERAL (
           SELECT r.last, r.last_ts FROM parameter_rollup_5m r
            WHERE r.entity_cuid = e.entity_cuid AND r.parameter_id = lp.parameter_id
            ORDER BY r.bucket DESC LIMIT 1) l ON true
        WHERE s.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}
        ORDER BY e.name, e.entity_cuid, lp.parameter_id`,
      p.values,
    );
  }

  /** The entity types' metas and each device's latest DeviceState, for a system the caller sees. */
  async deviceStates(caller: Caller, system_cuid: string): Promise<DeviceStateRow[]> {
    const p = new SqlParams([system_cuid]);
    return await this.ds.query<DeviceStateRow[]>(
      `SELECT e.entity_cuid, m.meta, ds."timestamp" AS state_at, ds.state_bundle
         ${DEVICE_OF_SYSTEM}
         LEFT JOIN entity_type et ON et.entitytype_id = e.entitytype_id
         LEFT JOIN entity_type_meta m ON m.entitytypemeta_id = et.entitytypemeta_id
         LEFT JOIN LATERAL (SELECT d."timestamp", d.state_bundle FROM device_state d
                             WHERE d.entity_cuid = e.entity_cuid ORDER BY d."timestamp" DESC LIMIT 1) ds ON true
        WHERE s.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}`,
      p.values,
    );
  }

  /**
   * Energy per local period (`granularity`, in the zone `tz`) of a system the caller sees, from its
   * total_pv_kwh counter: the sum of the increases between consecutive readings, each counted in
   * the period of the later reading (the first reading of the range is compared with the last one
   * before it); a counter that went down was reset (the new reading counts from zero). Periods
   * without any increase answer null; no rows for a system the caller does not see.
   */
  async energy(caller: Caller, q: Pick<TEnergyInput, 'system_cuid' | 'granularity' | 'from' | 'to'>, tz: string): Promise<EnergyRow[]> {
    const p = new SqlParams([q.system_cuid, q.granularity, q.from, q.to, tz]);
    return await this.ds.query<EnergyRow[]>(
      `WITH bounds AS (
         SELECT date_trunc($2, $3::timestamptz, $5) AS f, $4::timestamptz AS t
           FROM system s WHERE s.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}
       ),
       periods AS (
         SELECT gs AS local_start
           FROM bounds, generate_series(f AT TIME ZONE $5, (t AT TIME ZONE $5) - interval '1 microsecond', ('1 ' || $2)::interval) gs
       ),
       readings AS (
         SELECT l."timestamp", l.total_pv_kwh::float8 AS v,
                lag(l.total_pv_kwh::float8) OVER (ORDER BY l."timestamp") AS prev
           FROM system_standard_value_log l, bounds b
          WHERE l.system_cuid = $1 AND l."timestamp" < b.t
            AND l."timestamp" >= COALESCE(
                  (SELECT max(p."timestamp") FROM system_standard_value_log p WHERE p.system_cuid = $1 AND p."timestamp" < b.f), b.f)
       ),
       deltas AS (
         SELECT date_trunc($2, r."timestamp", $5) AS period, CASE WHEN r.v >= r.prev THEN r.v - r.prev ELSE r.v END AS kwh
           FROM readings r, bounds b
          WHERE r.prev IS NOT NULL AND r."timestamp" >= b.f
       )
       SELECT (p.local_start AT TIME ZONE $5) AS start,
              to_char(p.local_start, CASE WHEN $2 = 'day' THEN 'YYYY-MM-DD' ELSE 'YYYY-MM' END) AS label,
              sum(d.kwh)::float8 AS kwh
         FROM periods p
         LEFT JOIN deltas d ON d.period = (p.local_start AT TIME ZONE $5)
        GROUP BY p.local_start
        ORDER BY p.local_start`,
      p.values,
    );
  }
}

/**
 * The value at the latest timestamp of a group, without sorting each group: the greatest
 * [epoch seconds, value] pair (arrays compare element by element; epoch as float8 keeps µs).
 */
export const LAST_OF_GROUP = (value: string, ts: string): string => `(max(ARRAY[date_part('epoch', ${ts}), ${value}::float8]))[2]`;

/** Widths that divide a day can be aligned on local midnight; others (raw, odd widths) start at `from`. */
const isAligned = (widthMs: number): boolean => 86_400_000 % widthMs === 0 || widthMs % 86_400_000 === 0;

/** First stored bucket touching the range: the rollup bucket holding `from`. */
function alignedStart(resolution: Exclude<TResolution, 'raw'>, from: string, zone: () => string): string {
  // A scalar subquery: computed once (these functions are only STABLE, so a plain expression
  // would be evaluated for every row scanned).
  switch (resolution) {
    case '5m':
      return `(SELECT date_bin('5 minutes', ${from}::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00'))`;
    case '1h':
      return `(SELECT date_trunc('hour', ${from}::timestamptz, 'UTC'))`;
    case '1d':
      return `(SELECT date_trunc('day', ${from}::timestamptz, ${zone()}))`;
  }
}
