import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Scope } from '../access/scope';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { stateRankSql, systemStateColumns, systemStateJoinsSql, type SystemStateSettings } from '../systems/system-state.repository';
import { ownedOrSharedSql, visibleCompanySql } from '../tenancy/visibility';
import type { TFleetOverview } from './fleet.schema';

/** Scopes of one overview: the systems (`base`) and, per section, the companies where the caller's level allows it (null → section absent). */
export interface OverviewScopes {
  base: Scope;
  pins: Scope | null;
  alarms: Scope | null;
  commands: Scope | null;
}

const ATTENTION_LIMIT = 20;
const ALARMS_LIMIT = 50;
const COMMANDS_LIMIT = 20;

type Json = Record<string, unknown>;
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The SQL of the fleet overview and fleet energy (docs/home.md), scope first. */
@Injectable()
export class FleetRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** The whole overview in one statement. */
  async overview(scopes: OverviewScopes, settings: SystemStateSettings): Promise<Omit<TFleetOverview, 'generated_at'>> {
    const p = new SqlParams();
    const row = { company: 's.company_cuid', system: 's.system_cuid' };
    const cols = systemStateColumns(settings);
    const joins = systemStateJoinsSql('s', p, settings);
    const ok = (scope: Scope | null) => (scope ? ownedOrSharedSql(scope, p, row) : 'FALSE');
    const commandsCompany = scopes.commands ? visibleCompanySql(scopes.commands, p, 'cc.company_cuid') : 'FALSE';
    const sql = `
      WITH vis AS MATERIALIZED (
        SELECT s.system_cuid, s.name, s.site_cuid, s.company_cuid,
               ${ok(scopes.pins)} AS pin_ok, ${ok(scopes.alarms)} AS alarm_ok, ${ok(scopes.commands)} AS cmd_ok,
               ${Object.entries(cols)
                 .map(([k, v]) => `${v} AS ${k}`)
                 .join(',\n               ')}
          FROM system s ${joins}
         WHERE ${ownedOrSharedSql(scopes.base, p, row)}
      ),
      att AS (
        SELECT v.*, CASE WHEN v.active_alarms > 0 THEN 'ALARM' WHEN v.online_state = 'OFFLINE' THEN 'OFFLINE'
                         WHEN v.low_soc THEN 'LOW_SOC' WHEN v.stale THEN 'STALE' END AS reason
          FROM vis v
      )
      SELECT
        (SELECT json_build_object(
           'systems', count(*),
           'online', count(*) FILTER (WHERE online_state = 'ONLINE'),
           'unstable', count(*) FILTER (WHERE online_state = 'UNSTABLE'),
           'offline', count(*) FILTER (WHERE online_state = 'OFFLINE'),
           'unknown', count(*) FILTER (WHERE online_state = 'UNKNOWN'),
           'in_alarm', count(*) FILTER (WHERE active_alarms > 0),
           'stale', count(*) FILTER (WHERE stale),
           'low_soc', count(*) FILTER (WHERE low_soc),
           'today_kwh', COALESCE(sum(energy_today_kwh), 0),
           'month_kwh', COALESCE(sum(energy_month_kwh), 0),
           'systems_reporting', count(energy_today_kwh)) FROM vis) AS counts,
        (SELECT COALESCE(json_agg(x ORDER BY x.rn), '[]'::json) FROM (
           SELECT a.system_cuid, a.name, si.name AS site_name, co.name AS company_name, a.reason, a.online_state AS state,
                  a.last_contact, a.offline_since, a.active_alarms, a.worst_severity, a.soc, a.last_data_at,
                  row_number() OVER (ORDER BY
                    CASE a.reason WHEN 'ALARM' THEN 0 WHEN 'OFFLINE' THEN 1 WHEN 'LOW_SOC' THEN 2 ELSE 3 END,
                    CASE a.worst_severity WHEN 'CRITICAL' THEN 0 WHEN 'ERROR' THEN 1 WHEN 'WARNING' THEN 2 ELSE 3 END,
                    a.active_alarms DESC,
                    COALESCE(a.offline_since, a.last_contact) ASC NULLS FIRST,
                    a.soc ASC NULLS LAST,
                    a.last_data_at ASC NULLS FIRST,
                    a.name, a.system_cuid) AS rn
             FROM att a
             LEFT JOIN site si ON si.site_cuid = a.site_cuid
             LEFT JOIN company co ON co.company_cuid = a.company_cuid
            WHERE a.reason IS NOT NULL
            ORDER BY rn LIMIT ${ATTENTION_LIMIT}) x) AS attention,
        (SELECT COALESCE(json_agg(x ORDER BY x.name, x.site_cuid), '[]'::json) FROM (
           SELECT si.site_cuid, si.name, si.lat, si.long, count(*) AS systems,
                  (ARRAY['ALARM','OFFLINE','UNSTABLE','ONLINE','UNKNOWN'])[min(${stateRankSql('v.online_state')}) + 1] AS state
             FROM vis v JOIN site si ON si.site_cuid = v.site_cuid
            WHERE v.pin_ok AND si.lat IS NOT NULL AND si.long IS NOT NULL
            GROUP BY si.site_cuid) x) AS pins,
        (SELECT COALESCE(json_agg(x ORDER BY x.rn), '[]'::json) FROM (
           SELECT nt.trigger_cuid, nt.name, nt.severity_level, v.system_cuid, v.name AS system_name, nts.state_since AS since,
                  row_number() OVER (ORDER BY nt.severity_level DESC, nts.state_since DESC NULLS LAST, nt.trigger_cuid) AS rn
             FROM vis v
             JOIN notification_trigger nt ON nt.system_cuid = v.system_cuid AND nt.is_active
             JOIN notification_trigger_status nts ON nts.trigger_cuid = nt.trigger_cuid AND nts.trigger_state = 'TRIGGERED'
            WHERE v.alarm_ok
            ORDER BY rn LIMIT ${ALARMS_LIMIT}) x) AS alarms,
        (SELECT COALESCE(json_agg(x ORDER BY x.rn), '[]'::json) FROM (
           SELECT cc.command_id, cc.controller_id, c.name AS controller_name, cc.system_cuid, cc.kind, cc.status::text AS status,
                  cc.requested_at AS created_at,
                  row_number() OVER (ORDER BY (cc.status = 'SUCCESS'), cc.requested_at DESC, cc.command_id) AS rn
             FROM controller_command cc
             LEFT JOIN controller c ON c.controller_id = cc.controller_id
            WHERE cc.requested_at > now() - interval '24 hours'
              AND (cc.system_cuid IN (SELECT v.system_cuid FROM vis v WHERE v.cmd_ok)
                   OR (cc.system_cuid IS NULL AND ${commandsCompany}))
            ORDER BY rn LIMIT ${COMMANDS_LIMIT}) x) AS commands`;
    const [r] = await this.withoutJit<{ counts: Json; attention: Json[]; pins: Json[]; alarms: Json[]; commands: Json[] }[]>((q) => q(sql, p.values));
    const c = r.counts;
    return {
      counts: {
        systems: Number(c.systems),
        online: Number(c.online),
        unstable: Number(c.unstable),
        offline: Number(c.offline),
        unknown: Number(c.unknown),
        in_alarm: Number(c.in_alarm),
        stale: Number(c.stale),
        low_soc: Number(c.low_soc),
      },
      energy: { today_kwh: round3(Number(c.today_kwh)), month_kwh: round3(Number(c.month_kwh)), systems_reporting: Number(c.systems_reporting) },
      attention: r.attention.map((a) => ({
        system_cuid: a.system_cuid as string,
        name: a.name as string,
        site_name: (a.site_name as string | null) ?? null,
        company_name: (a.company_name as string | null) ?? null,
        reason: a.reason as TFleetOverview['attention'][number]['reason'],
        state: a.state as TFleetOverview['attention'][number]['state'],
        last_contact: date(a.last_contact),
        offline_since: date(a.offline_since),
        active_alarms: Number(a.active_alarms),
        worst_severity: (a.worst_severity as TFleetOverview['attention'][number]['worst_severity']) ?? null,
        soc: num(a.soc),
        last_data_at: date(a.last_data_at),
      })),
      pins: scopes.pins
        ? r.pins.map((x) => ({
            site_cuid: x.site_cuid as string,
            name: x.name as string,
            lat: Number(x.lat),
            long: Number(x.long),
            systems: Number(x.systems),
            state: x.state as TFleetOverview['attention'][number]['state'],
          }))
        : undefined,
      alarms: scopes.alarms
        ? r.alarms.map((x) => ({
            trigger_cuid: x.trigger_cuid as string,
            name: x.name as string,
            severity_level: x.severity_level as NonNullable<TFleetOverview['attention'][number]['worst_severity']>,
            system_cuid: x.system_cuid as string,
            system_name: x.system_name as string,
            since: date(x.since),
          }))
        : undefined,
      commands: scopes.commands
        ? r.commands.map((x) => ({
            command_id: x.command_id as string,
            controller_id: x.controller_id as string,
            controller_name: (x.controller_name as string | null) ?? null,
            system_cuid: (x.system_cuid as string | null) ?? null,
            kind: x.kind as string,
            status: x.status as string,
            created_at: new Date(x.created_at as string),
          }))
        : undefined,
    };
  }

  /**
   * Runs a statement with JIT compilation off: a statement of a few thousand index probes is costed
   * above jit_above_cost, and compiling its ~4,000 expressions took 15 s against 50 ms of work.
   */
  private withoutJit<T>(run: (q: (sql: string, params: unknown[]) => Promise<T>) => Promise<T>): Promise<T> {
    return this.ds.transaction(async (tx) => {
      await tx.query(`SET LOCAL jit = off`);
      return run((sql, params) => tx.query<T>(sql, params));
    });
  }

  /** Does this company exist (a superuser's company filter)? */
  async companyExists(company_cuid: string): Promise<boolean> {
    const rows = await this.ds.query<unknown[]>(`SELECT 1 FROM company WHERE company_cuid = $1`, [company_cuid]);
    return rows.length > 0;
  }

  /**
   * kWh per local day or month of the systems in `scope`: per system, the counter's last reading at
   * the end of each period minus the one at the end of the period before (a counter that went down
   * counts from zero); a period without a reading of its own is null. Summed over systems per label.
   */
  async energy(scope: Scope, input: { from: Date; to: Date; granularity: 'day' | 'month' }): Promise<{ label: string; kwh: number | null }[]> {
    const p = new SqlParams();
    const unit = p.add(input.granularity);
    const from = p.add(input.from);
    const to = p.add(input.to);
    const step = `('1 ' || ${unit})::interval`;
    const rows = await this.withoutJit<{ label: string; kwh: number | null }[]>((q) =>
      q(
        `WITH sys AS (
         SELECT s.system_cuid, s.timezone FROM system s
          WHERE ${ownedOrSharedSql(scope, p, { company: 's.company_cuid', system: 's.system_cuid' })}
       ),
       per AS (
         SELECT sys.system_cuid, gs AS local_start,
                (gs AT TIME ZONE sys.timezone) AS start_utc, ((gs + ${step}) AT TIME ZONE sys.timezone) AS end_utc
           FROM sys, generate_series(
                  (date_trunc(${unit}, ${from}::timestamptz, sys.timezone) AT TIME ZONE sys.timezone) - ${step},
                  (${to}::timestamptz AT TIME ZONE sys.timezone) - interval '1 microsecond', ${step}) gs
       ),
       rd AS (
         SELECT per.system_cuid, per.local_start, per.start_utc, r.ts, r.v,
                lag(r.v) OVER (PARTITION BY per.system_cuid ORDER BY per.local_start) AS prev_v,
                row_number() OVER (PARTITION BY per.system_cuid ORDER BY per.local_start) AS n
           FROM per
           LEFT JOIN LATERAL (
             SELECT l."timestamp" AS ts, l.total_pv_kwh::float8 AS v FROM system_standard_value_log l
              WHERE l.system_cuid = per.system_cuid AND l."timestamp" < per.end_utc
              ORDER BY l."timestamp" DESC LIMIT 1) r ON true
       ),
       labels AS (
         SELECT to_char(gs, CASE WHEN ${unit} = 'day' THEN 'YYYY-MM-DD' ELSE 'YYYY-MM' END) AS label
           FROM generate_series(date_trunc(${unit}, ${from}::timestamptz, 'UTC') AT TIME ZONE 'UTC',
                                (${to}::timestamptz AT TIME ZONE 'UTC') - interval '1 microsecond', ${step}) gs
         UNION
         SELECT to_char(rd.local_start, CASE WHEN ${unit} = 'day' THEN 'YYYY-MM-DD' ELSE 'YYYY-MM' END) FROM rd WHERE rd.n > 1
       )
       SELECT l.label, sum(d.kwh)::float8 AS kwh
         FROM labels l
         LEFT JOIN (
           SELECT to_char(rd.local_start, CASE WHEN ${unit} = 'day' THEN 'YYYY-MM-DD' ELSE 'YYYY-MM' END) AS label,
                  CASE WHEN rd.ts >= rd.start_utc AND rd.prev_v IS NOT NULL
                       THEN CASE WHEN rd.v >= rd.prev_v THEN rd.v - rd.prev_v ELSE rd.v END END AS kwh
             FROM rd WHERE rd.n > 1) d ON d.label = l.label
        GROUP BY l.label
        ORDER BY l.label`,
        p.values,
      ),
    );
    return rows.map((r) => ({ label: r.label, kwh: r.kwh === null ? null : round3(Number(r.kwh)) }));
  }
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;
