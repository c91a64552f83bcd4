import type { DataSource } from 'typeorm';
import { newCuid } from '../../server/src/common/ids';

/**
 * Two fresh companies with systems in every state the home tells apart (test/home). Rows are
 * written straight into the state tables, as the online-state machine, the alert engine and the
 * ingest writer keep them.
 */
export interface FleetWorld {
  companyA: string;
  companyB: string;
  sys: Record<'a1' | 'a2' | 'a3' | 'a4' | 'a5' | 'a6' | 'a7' | 'b1', string>;
  sites: Record<'s1' | 's2' | 'sb', string>;
  commands: { a2: string; b1: string };
  /** Local day start and month start of a4's time zone (Pacific/Auckland) and of UTC. */
  bounds: { aklDay: Date; aklMonth: Date; utcDay: Date; utcMonth: Date };
  /** The moment the world's times are counted from (a2 went offline 72 h before it, a7's data is 3 h older). */
  builtAt: number;
}

const MIN = 60_000;
const HOUR = 3_600_000;

export async function buildFleetWorld(ds: DataSource): Promise<FleetWorld> {
  const q = (sql: string, params: unknown[] = []) => ds.query<any[]>(sql, params);
  const companyA = newCuid();
  const companyB = newCuid();
  await q(`INSERT INTO company (company_cuid, name) VALUES ($1, 'Fleet A'), ($2, 'Fleet B')`, [companyA, companyB]);
  const [{ controllertype_cuid }] = await q(`SELECT controllertype_cuid FROM controller_type LIMIT 1`);
  const [{ entitytype_id }] = await q(`SELECT entitytype_id FROM entity_type_log_parameter_assignment WHERE parameter_id = 'battery_soc' LIMIT 1`);
  const sites = { s1: newCuid(), s2: newCuid(), sb: newCuid() };
  await q(
    `INSERT INTO site (site_cuid, name, lat, long, company_cuid) VALUES ($1, 'A North', 1.5, 30.5, $4), ($2, 'A South', -3.25, 31, $4), ($3, 'B Site', 5, 6, $5)`,
    [sites.s1, sites.s2, sites.sb, companyA, companyB],
  );
  const now = Date.now();
  const sys = {} as FleetWorld['sys'];
  const system = async (key: keyof FleetWorld['sys'], company: string, site: string | null, timezone = 'UTC') => {
    sys[key] = newCuid();
    await q(`INSERT INTO system (system_cuid, company_cuid, name, timezone, site_cuid) VALUES ($1, $2, $3, $4, $5)`, [
      sys[key],
      company,
      `${key.toUpperCase()} system`,
      timezone,
      site,
    ]);
  };
  const controller = async (key: keyof FleetWorld['sys'], state: string, lastSeen: number, since: number) => {
    const id = `fleet-${key}-${sys[key].slice(0, 6)}`;
    await q(
      `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) SELECT $1, $2, company_cuid, system_cuid, $3 FROM system WHERE system_cuid = $4`,
      [id, controllertype_cuid, `ctl ${key}`, sys[key]],
    );
    await q(`INSERT INTO controller_online_state (controller_id, online_state) VALUES ($1, $2)`, [id, state]);
    await q(`INSERT INTO controller_presence (controller_id, last_seen_at, state_since) VALUES ($1, $2, $3)`, [id, new Date(lastSeen), new Date(since)]);
    return id;
  };
  const soc = async (key: keyof FleetWorld['sys'], value: number, at: number) => {
    const entity = newCuid();
    await q(`INSERT INTO entity (entity_cuid, name, entitytype_id, system_cuid) VALUES ($1, $2, $3, $4)`, [entity, `battery ${key}`, entitytype_id, sys[key]]);
    // An older bucket with another value: the newest one counts.
    for (const [t, v] of [
      [at - HOUR, 99],
      [at, value],
    ] as const) {
      const bucket = new Date(Math.floor(t / (5 * MIN)) * 5 * MIN);
      await q(
        `INSERT INTO parameter_rollup_5m (entity_cuid, parameter_id, bucket, min, max, sum, count, last, last_ts) VALUES ($1, 'battery_soc', $2, $3, $3, $3, 1, $3, $4)`,
        [entity, bucket, v, new Date(t)],
      );
    }
  };
  const alarm = async (key: keyof FleetWorld['sys'], severity: string, triggered: boolean, active = true) => {
    const trigger = newCuid();
    await q(`INSERT INTO notification_trigger (trigger_cuid, name, message, system_cuid, severity_level, is_active) VALUES ($1, $2, 'm', $3, $4, $5)`, [
      trigger,
      `alarm ${key} ${severity}`,
      sys[key],
      severity,
      active,
    ]);
    await q(`INSERT INTO notification_trigger_status (trigger_cuid, trigger_state, state_since) VALUES ($1, $2, $3)`, [
      trigger,
      triggered ? 'TRIGGERED' : 'RELEASED',
      new Date(now - 10 * MIN),
    ]);
  };

  await system('a1', companyA, sites.s1);
  await system('a2', companyA, sites.s1);
  await system('a3', companyA, sites.s2);
  await system('a4', companyA, null, 'Pacific/Auckland');
  await system('a5', companyA, null);
  await system('a6', companyA, null);
  await system('a7', companyA, null);
  await system('b1', companyB, sites.sb);

  // a1: online, one active alarm (CRITICAL) plus a released one and an inactive triggered one.
  await controller('a1', 'ONLINE', now - MIN, now - 5 * HOUR);
  await alarm('a1', 'CRITICAL', true);
  await alarm('a1', 'WARNING', false);
  await alarm('a1', 'ERROR', true, false);
  // a2 offline for three days, a3 for two hours.
  const a2ctl = await controller('a2', 'OFFLINE', now - 72 * HOUR, now - 72 * HOUR);
  await controller('a3', 'OFFLINE', now - 2 * HOUR, now - 2 * HOUR);
  // a4: online, battery low, fresh data; a5 unstable, battery fine, fresh; a6 no controller; a7 online, data 3 h old.
  await controller('a4', 'ONLINE', now - MIN, now - HOUR);
  await soc('a4', 10, now - MIN);
  await controller('a5', 'UNSTABLE', now - MIN, now - HOUR);
  await soc('a5', 80, now - MIN);
  await controller('a7', 'ONLINE', now - MIN, now - HOUR);
  await soc('a7', 50, now - 3 * HOUR);
  // b1: offline, in alarm.
  const b1ctl = await controller('b1', 'OFFLINE', now - 50 * HOUR, now - 50 * HOUR);
  await alarm('b1', 'ERROR', true);

  // Energy counters around local midnight and month start.
  const [b] = await q(
    `SELECT date_trunc('day', now(), 'Pacific/Auckland') AS akl_day, date_trunc('month', now(), 'Pacific/Auckland') AS akl_month, date_trunc('day', now(), 'UTC') AS utc_day, date_trunc('month', now(), 'UTC') AS utc_month`,
  );
  const bounds = { aklDay: new Date(b.akl_day), aklMonth: new Date(b.akl_month), utcDay: new Date(b.utc_day), utcMonth: new Date(b.utc_month) };
  const reading = (key: keyof FleetWorld['sys'], t: number, v: number) =>
    q(`INSERT INTO system_standard_value_log (system_cuid, "timestamp", total_pv_kwh) VALUES ($1, $2, $3)`, [sys[key], new Date(t), v]);
  const afterMidnight = (day: Date) => Math.min(day.getTime() + MIN, now - 1000);
  // (On the 1st of a month, local time, the month's base is the day's: the tests expect that.)
  await reading('a4', bounds.aklMonth.getTime() - 2 * MIN, 100);
  await reading('a4', bounds.aklDay.getTime() - 30 * MIN, 140);
  await reading('a4', bounds.aklDay.getTime() - MIN, 150);
  await reading('a4', afterMidnight(bounds.aklDay), 162.5);
  // a5 (UTC): the counter was reset since midnight; it counts from zero.
  await reading('a5', bounds.utcDay.getTime() - MIN, 500);
  await reading('a5', afterMidnight(bounds.utcDay), 7);
  // b1: a big day, never to be seen by company A.
  await reading('b1', bounds.utcDay.getTime() - MIN, 1000);
  await reading('b1', afterMidnight(bounds.utcDay), 1900);

  const command = async (ctl: string, key: keyof FleetWorld['sys'], company: string, status: string) => {
    const id = `cmd-${newCuid()}`;
    await q(
      `INSERT INTO controller_command (command_id, controller_id, company_cuid, system_cuid, kind, status, requested_at, not_after) VALUES ($1, $2, $3, $4, 'reboot', $5, now() - interval '1 hour', now() + interval '1 hour')`,
      [id, ctl, company, sys[key], status],
    );
    return id;
  };
  const commands = { a2: await command(a2ctl, 'a2', companyA, 'FAILURE'), b1: await command(b1ctl, 'b1', companyB, 'PENDING') };
  return { companyA, companyB, sys, sites, commands, bounds, builtAt: now };
}
