import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { type Actor, can, type Permission } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { decodeBundle, decodeValue, keyInWords, readStateMeta, type StateMeta } from '../catalogue/state-decode';
import { SystemAccessService, type VisibleSystem } from '../systems/system-access.service';
import { systemSharesSql, visibleSystemSql } from '../tenancy/visibility';
import { rollupTable } from './rollups';
import { planSeries, type SeriesPlan } from './series-plan';
import type {
  TEnergyInput,
  TEnergyOutput,
  TLatestOutput,
  TResolution,
  TSeriesInput,
  TSeriesOutput,
  TSeriesPoint,
} from './telemetry.schema';

/** Reference for bucket alignment: a Monday, so 7-day buckets are weeks. */
const ORIGIN_DATE = '2000-01-03';

interface SeriesRow {
  parameter_id: string;
  t: number;
  min: number;
  max: number;
  avg: number;
  last: number;
  count: number;
}

/**
 * Chart queries, scoped by the policy: a device or system the caller may not see answers
 * NOT_FOUND exactly like a missing one.
 */
@Injectable()
export class TelemetryQueryService {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly access: SystemAccessService,
  ) {}

  /**
   * The device's system if the caller may see it (else NOT_FOUND, like a missing device) and
   * holds `permission` there (else FORBIDDEN). One query: a chart asks this on every call.
   */
  private async deviceSystem(actor: Actor, permission: Permission, entity_cuid: string): Promise<VisibleSystem> {
    const p = new SqlParams([entity_cuid]);
    const [system] = (await this.ds.query(
      `SELECT s.system_cuid, s.company_cuid, s.name, s.timezone, ${systemSharesSql('s')} AS shares
         FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         JOIN system s ON s.system_cuid = COALESCE(e.system_cuid, c.system_cuid)
        WHERE e.entity_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}`,
      p.values,
    )) as VisibleSystem[];
    if (!system) throw notFound('Device');
    if (!can(actor, permission, { company_cuid: system.company_cuid, shares: system.shares })) throw forbidden();
    return system;
  }

  async series(actor: Actor, permission: Permission, input: TSeriesInput, force?: { resolution: TResolution; plan?: SeriesPlan }): Promise<TSeriesOutput> {
    const system = await this.deviceSystem(actor, permission, input.entity_cuid);
    const zone = input.timezone ?? system.timezone;
    const rangeMs = input.to.getTime() - input.from.getTime();
    const plan = force?.plan ?? planSeries(rangeMs, input.points, zone, system.timezone);
    const resolution = force?.resolution ?? plan.resolution;
    const parameter_ids = [...new Set(input.parameter_ids)];
    const rows = await this.readSeries(input.entity_cuid, parameter_ids, input.from, input.to, zone, plan, resolution);
    const byParameter = new Map<string, TSeriesPoint[]>(parameter_ids.map((p) => [p, []]));
    for (const r of rows) {
      byParameter.get(r.parameter_id)?.push({ t: r.t, min: r.min, max: r.max, avg: r.avg, last: r.last, count: r.count });
    }
    return {
      entity_cuid: input.entity_cuid,
      timezone: zone,
      resolution,
      bucket_seconds: plan.widthMs / 1000,
      from: input.from,
      to: input.to,
      series: parameter_ids.map((parameter_id) => ({ parameter_id, points: byParameter.get(parameter_id)! })),
    };
  }

  /** The plan a request would use (the bench compares it with the same buckets from raw rows). */
  plan(input: Pick<TSeriesInput, 'from' | 'to' | 'points'>, zone: string, rollupZone: string): SeriesPlan {
    return planSeries(input.to.getTime() - input.from.getTime(), input.points, zone, rollupZone);
  }

  private async readSeries(
    entity_cuid: string,
    parameter_ids: string[],
    from: Date,
    to: Date,
    zone: string,
    plan: SeriesPlan,
    resolution: TResolution,
  ): Promise<SeriesRow[]> {
    const p = new SqlParams();
    const [e, ps, f, t] = [p.add(entity_cuid), p.add(parameter_ids), p.add(from), p.add(to)];
    // One shape for every source: (ts, mn, mx, sm, cnt, lst, lts).
    const source =
      resolution === 'raw'
        ? `SELECT parameter_id, "timestamp" AS ts, COALESCE(min, value) AS mn, COALESCE(max, value) AS mx, value AS sm, 1 AS cnt, value AS lst, "timestamp" AS lts
             FROM parameter_log
            WHERE entity_cuid = ${e} AND parameter_id = ANY(${ps}::varchar[]) AND "timestamp" >= ${f} AND "timestamp" < ${t}`
        : `SELECT parameter_id, bucket AS ts, min AS mn, max AS mx, sum AS sm, count AS cnt, last AS lst, last_ts AS lts
             FROM ${rollupTable(resolution)}
            WHERE entity_cuid = ${e} AND parameter_id = ANY(${ps}::varchar[]) AND bucket >= ${alignedStart(resolution, f, () => p.add(zone))} AND bucket < ${t}`;
    let group: string;
    if (plan.grouping === 'days') {
      const [z, k] = [p.add(zone), p.add(plan.days)];
      group = `((DATE '${ORIGIN_DATE}' + (((date_trunc('day', ts, ${z}) AT TIME ZONE ${z})::date - DATE '${ORIGIN_DATE}') / ${k}::int) * ${k}::int)::timestamp AT TIME ZONE ${z})`;
    } else if (plan.resolution === 'raw' && !isAligned(plan.widthMs)) {
      // A raw plan: buckets of exactly range / points, from `from`. (Rollup plans read from raw rows keep their alignment.)
      group = `date_bin(${p.add(`${plan.widthMs} milliseconds`)}::interval, ts, ${f}::timestamptz)`;
    } else {
      // Aligned on local midnight of the zone (as of the reference date).
      group = `date_bin(${p.add(`${plan.widthMs} milliseconds`)}::interval, ts, (TIMESTAMP '${ORIGIN_DATE} 00:00:00' AT TIME ZONE ${p.add(zone)}))`;
    }
    // Group on the bucket's timestamptz; the epoch conversion (numeric) runs on the output rows only.
    return (await this.ds.query(
      `SELECT parameter_id, round(date_part('epoch', g) * 1000) AS t, min, max, avg, last, count
         FROM (SELECT parameter_id, ${group} AS g,
                      min(mn)::float8 AS min, max(mx)::float8 AS max, (sum(sm) / sum(cnt))::float8 AS avg,
                      ${LAST_OF_GROUP('lst', 'lts')} AS last, sum(cnt)::int AS count
                 FROM (${source}) x
                GROUP BY 1, 2) y
        ORDER BY 1, 2`,
      p.values,
    )) as SeriesRow[];
  }

  /**
   * Current values of a visible system. The inventory detail (controllers with their online
   * state, each device's type and controller) follows spec §6 "controllers and devices view 2",
   * like controller.getList / entity.getList: a Basic user watches the values of the devices by
   * name (what the charts need) without it.
   */
  async latest(actor: Actor, permission: Permission, system_cuid: string): Promise<TLatestOutput> {
    const system = await this.access.authorize(actor, permission, system_cuid);
    const target = { company_cuid: system.company_cuid, shares: system.shares };
    const seesControllers = can(actor, 'controllers.view', target);
    const seesDevices = can(actor, 'devices.view', target);
    const controllers = !seesControllers ? [] : (await this.ds.query(
      `SELECT c.controller_id, c.name, COALESCE(s.online_state, 'OFFLINE') AS online_state, p.last_seen_at
         FROM controller c
         LEFT JOIN controller_online_state s ON s.controller_id = c.controller_id
         LEFT JOIN controller_presence p ON p.controller_id = c.controller_id
        WHERE c.system_cuid = $1
        ORDER BY c.name, c.controller_id`,
      [system.system_cuid],
    )) as TLatestOutput['controllers'];
    const rows = (await this.ds.query(
      `SELECT e.entity_cuid, e.name, e.entitytype_id, e.controller_id,
              lp.parameter_id, lp.description, lp.translations, u.unit, lp.type, l.last AS value, l.last_ts AS timestamp
         FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         LEFT JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
         LEFT JOIN log_parameter lp ON lp.parameter_id = a.parameter_id
         LEFT JOIN unit u ON u.unit_cuid = lp.unit_cuid
         LEFT JOIN LATERAL (
           SELECT r.last, r.last_ts FROM parameter_rollup_5m r
            WHERE r.entity_cuid = e.entity_cuid AND r.parameter_id = lp.parameter_id
            ORDER BY r.bucket DESC LIMIT 1) l ON true
        WHERE COALESCE(e.system_cuid, c.system_cuid) = $1
        ORDER BY e.name, e.entity_cuid, lp.parameter_id`,
      [system.system_cuid],
    )) as {
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
    }[];
    // The entity types' metas and each device's latest DeviceState, to make Enum values and states readable.
    const stateRows = (await this.ds.query(
      `SELECT e.entity_cuid, m.meta, ds."timestamp" AS state_at, ds.state_bundle
         FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         LEFT JOIN entity_type et ON et.entitytype_id = e.entitytype_id
         LEFT JOIN entity_type_meta m ON m.entitytypemeta_id = et.entitytypemeta_id
         LEFT JOIN LATERAL (SELECT d."timestamp", d.state_bundle FROM device_state d
                             WHERE d.entity_cuid = e.entity_cuid ORDER BY d."timestamp" DESC LIMIT 1) ds ON true
        WHERE COALESCE(e.system_cuid, c.system_cuid) = $1`,
      [system.system_cuid],
    )) as { entity_cuid: string; meta: unknown; state_at: Date | string | null; state_bundle: unknown }[];
    const metaOf = new Map<string, StateMeta>();
    const stateOf = new Map<string, { timestamp: Date; bundle: unknown }>();
    for (const r of stateRows) {
      metaOf.set(r.entity_cuid, readStateMeta(r.meta));
      if (r.state_at) stateOf.set(r.entity_cuid, { timestamp: new Date(r.state_at), bundle: r.state_bundle });
    }
    const noMeta = readStateMeta(null);
    const devices = new Map<string, TLatestOutput['devices'][number]>();
    for (const r of rows) {
      let d = devices.get(r.entity_cuid);
      if (!d) {
        d = {
          entity_cuid: r.entity_cuid,
          name: r.name,
          entitytype_id: seesDevices ? r.entitytype_id : null,
          controller_id: seesDevices ? r.controller_id : null,
          parameters: [],
          state: null,
        };
        devices.set(r.entity_cuid, d);
      }
      if (r.parameter_id && r.type) {
        d.parameters.push({
          parameter_id: r.parameter_id,
          description: r.description,
          translations: r.translations ?? {},
          unit: r.unit,
          type: r.type,
          value: r.value,
          text: r.type === 'EnumLogParameter' && r.value !== null ? decodeValue(metaOf.get(r.entity_cuid) ?? noMeta, r.parameter_id, Number(r.value)).text : null,
          timestamp: r.timestamp,
        });
      }
    }
    for (const d of devices.values()) {
      const st = stateOf.get(d.entity_cuid);
      if (!st) continue;
      const labels = new Map(d.parameters.map((p) => [p.parameter_id, p.description ?? keyInWords(p.parameter_id)]));
      const decoded = decodeBundle(st.bundle, metaOf.get(d.entity_cuid) ?? noMeta, labels);
      d.state = {
        timestamp: st.timestamp,
        values: decoded.values.map((v) => ({ key: v.key, label: v.label, text: v.text, decoded: v.decoded })),
        faults: decoded.faults.map((f) => f.text),
        warnings: decoded.warnings.map((w) => w.text),
      };
    }
    return {
      system_cuid: system.system_cuid,
      name: system.name,
      timezone: system.timezone,
      inventory: seesControllers && seesDevices,
      controllers,
      devices: [...devices.values()],
    };
  }

  /**
   * Energy per local day or month from the total_pv_kwh counter: the sum of the increases between
   * consecutive readings, each counted in the period of the later reading (the first reading of
   * the range is compared with the last one before it). A counter that went down was reset: the
   * new reading counts from zero. Periods without any increase shown by readings answer null.
   */
  async energy(actor: Actor, permission: Permission, input: TEnergyInput): Promise<TEnergyOutput> {
    const system = await this.access.authorize(actor, permission, input.system_cuid);
    const tz = system.timezone;
    const unit = input.granularity;
    const rows = (await this.ds.query(
      `WITH bounds AS (
         SELECT date_trunc($2, $3::timestamptz, $5) AS f, $4::timestamptz AS t
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
      [system.system_cuid, unit, input.from, input.to, tz],
    )) as { start: Date; label: string; kwh: number | null }[];
    const periods = rows.map((r) => ({ start: r.start, label: r.label, kwh: r.kwh === null ? null : round3(r.kwh) }));
    const total = round3(periods.reduce((s, p) => s + (p.kwh ?? 0), 0));
    return { system_cuid: system.system_cuid, timezone: tz, granularity: unit, periods, total_kwh: total };
  }
}

/**
 * The value at the latest timestamp of a group, without sorting each group: the greatest
 * [epoch seconds, value] pair (arrays compare element by element; epoch as float8 keeps µs).
 */
export const LAST_OF_GROUP = (value: string, ts: string): string => `(max(ARRAY[date_part('epoch', ${ts}), ${value}::float8]))[2]`;

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

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
