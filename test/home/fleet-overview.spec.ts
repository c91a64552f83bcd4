import { newCuid } from '../../server/src/common/ids';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';
import { buildFleetWorld, type FleetWorld } from './fleet-world';

const firstOfMonth = (day: Date, month: Date) => day.getTime() === month.getTime();

describe("fleet.overview / fleet.energy (the operator's home) over HTTP", () => {
  let t: TestApp;
  let w: FleetWorld;
  const as: Record<string, HttpClient> = {};

  beforeAll(async () => {
    t = await startTestApp();
    w = await buildFleetWorld(t.db.dataSource);
    const ds = t.db.dataSource;
    await addMember(ds, 'inst-a@fleet.test', 'Fleet A', 1);
    await addMember(ds, 'expert-a@fleet.test', 'Fleet A', 2);
    await addMember(ds, 'basic-a@fleet.test', 'Fleet A', 3);
    await addMember(ds, 'inst-b@fleet.test', 'Fleet B', 1);
    // A member of both: Expert in A, installer in B.
    const both = await addMember(ds, 'both@fleet.test', 'Fleet A', 2);
    await ds.query(
      `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin)
       VALUES ($1, (SELECT role_cuid FROM role WHERE level = 1), $2, $3, false)`,
      [newCuid(), both, w.companyB],
    );
    for (const [who, email] of [
      ['instA', 'inst-a@fleet.test'],
      ['expertA', 'expert-a@fleet.test'],
      ['basicA', 'basic-a@fleet.test'],
      ['instB', 'inst-b@fleet.test'],
      ['both', 'both@fleet.test'],
      ['su', 'superuser@demo.local'],
    ]) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(email)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const overview = async (who: string, input?: Record<string, unknown>) => {
    const res = await as[who].query('fleet.overview', input);
    expect(res.status).toBe(200);
    return res.data;
  };

  it('counts the states, the energy of today and of the month (each system in its own time zone)', async () => {
    const o = await overview('instA');
    expect(o.counts).toEqual({ systems: 7, online: 2, unstable: 1, offline: 2, unknown: 1, in_alarm: 1, stale: 4, low_soc: 1 });
    // a4 (Auckland): 162.5 − 150 today, 162.5 − 100 this month; a5 (UTC): reset to 7 since midnight.
    // On the 1st of a month (local) the month starts at the day's midnight.
    const month = (firstOfMonth(w.bounds.aklDay, w.bounds.aklMonth) ? 12.5 : 62.5) + (firstOfMonth(w.bounds.utcDay, w.bounds.utcMonth) ? 7 : 0);
    expect(o.energy).toEqual({ today_kwh: 19.5, month_kwh: month, systems_reporting: 2 });
    expect(o.generated_at).toBeInstanceOf(Date);
  });

  it('lists who needs a visit first: alarm, offline longest, low battery, stale data', async () => {
    const o = await overview('instA');
    expect(o.attention.map((a: any) => [a.system_cuid, a.reason, a.state])).toEqual([
      [w.sys.a1, 'ALARM', 'ALARM'],
      [w.sys.a2, 'OFFLINE', 'OFFLINE'],
      [w.sys.a3, 'OFFLINE', 'OFFLINE'],
      [w.sys.a4, 'LOW_SOC', 'ONLINE'],
      [w.sys.a7, 'STALE', 'ONLINE'],
    ]);
    const [a1, a2, , a4, a7] = o.attention;
    expect(a1).toMatchObject({ active_alarms: 1, worst_severity: 'CRITICAL', site_name: 'A North', company_name: 'Fleet A' });
    expect(a2.offline_since).toBeInstanceOf(Date);
    expect(a2.offline_since).toEqual(new Date(w.builtAt - 72 * 3_600_000));
    expect(a4.soc).toBe(10);
    expect(a7.last_data_at).toEqual(new Date(w.builtAt - 3 * 3_600_000));
  });

  it('pins, alarms and commands by level: installer all three, Expert no commands, Basic none', async () => {
    const inst = await overview('instA');
    expect(inst.pins).toEqual([
      { site_cuid: w.sites.s1, name: 'A North', lat: 1.5, long: 30.5, systems: 2, state: 'ALARM' },
      { site_cuid: w.sites.s2, name: 'A South', lat: -3.25, long: 31, systems: 1, state: 'OFFLINE' },
    ]);
    expect(inst.alarms.map((a: any) => [a.system_cuid, a.severity_level])).toEqual([[w.sys.a1, 'CRITICAL']]);
    expect(inst.commands.map((c: any) => [c.command_id, c.status])).toEqual([[w.commands.a2, 'FAILURE']]);

    const expert = await overview('expertA');
    expect(expert.pins).toHaveLength(2);
    expect(expert.alarms).toHaveLength(1);
    expect(expert.commands).toBeUndefined();

    const basic = await overview('basicA');
    expect(basic.counts.systems).toBe(7);
    expect(basic.energy.today_kwh).toBe(19.5);
    expect(basic.pins).toBeUndefined();
    expect(basic.alarms).toBeUndefined();
    expect(basic.commands).toBeUndefined();
  });

  it('another company sees none of it, right after (the shared overview never crosses scopes)', async () => {
    await overview('instA');
    const b = await overview('instB');
    expect(b.counts).toEqual({ systems: 1, online: 0, unstable: 0, offline: 0, unknown: 0, in_alarm: 1, stale: 1, low_soc: 0 });
    expect(b.energy).toEqual({ today_kwh: 900, month_kwh: firstOfMonth(w.bounds.utcDay, w.bounds.utcMonth) ? 900 : 0, systems_reporting: 1 });
    expect(b.attention.map((a: any) => a.system_cuid)).toEqual([w.sys.b1]);
    expect(b.pins.map((p: any) => p.site_cuid)).toEqual([w.sites.sb]);
    expect(b.alarms.map((a: any) => a.system_cuid)).toEqual([w.sys.b1]);
    expect(b.commands.map((c: any) => c.command_id)).toEqual([w.commands.b1]);
    // And A again, still only A.
    const a = await overview('instA');
    expect(a.counts.systems).toBe(7);
    expect(a.attention.map((x: any) => x.system_cuid)).not.toContain(w.sys.b1);
  });

  it('a member of two companies sees both, each section at their level in each company', async () => {
    const o = await overview('both');
    expect(o.counts.systems).toBe(8);
    expect(o.energy.today_kwh).toBe(919.5);
    expect(o.pins.map((p: any) => p.site_cuid).sort()).toEqual([w.sites.s1, w.sites.s2, w.sites.sb].sort());
    // Commands need level 1: only company B's.
    expect(o.commands.map((c: any) => c.command_id)).toEqual([w.commands.b1]);

    const onlyA = await overview('both', { company_cuid: w.companyA });
    expect(onlyA.counts.systems).toBe(7);
    expect(onlyA.commands).toBeUndefined();
    const onlyB = await overview('both', { company_cuid: w.companyB });
    expect(onlyB.counts.systems).toBe(1);
  });

  it('a foreign or unknown company_cuid answers NOT_FOUND alike; a superuser may pick any company', async () => {
    const foreign = await as.instA.query('fleet.overview', { company_cuid: w.companyB });
    const missing = await as.instA.query('fleet.overview', { company_cuid: 'nosuchcompany' });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.error?.message).toBe(missing.error?.message);
    const su = await overview('su', { company_cuid: w.companyB });
    expect(su.counts.systems).toBe(1);
    expect(su.commands.map((c: any) => c.command_id)).toEqual([w.commands.b1]);
    expect((await as.su.query('fleet.overview', { company_cuid: 'nosuchcompany' })).status).toBe(404);
    const all = await overview('su');
    expect(all.counts.systems).toBeGreaterThanOrEqual(8);
  });

  it('fleet.energy: kWh per local day of the visible systems, with total; a range too long is a field error', async () => {
    const to = new Date(Date.now() + 60_000);
    const from = new Date(w.bounds.aklDay.getTime() - 86_400_000);
    const res = await as.instA.query('fleet.energy', { from, to, granularity: 'day' });
    expect(res.status).toBe(200);
    const label = (d: Date, tz: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
    const byLabel = new Map<string, number | null>(res.data.periods.map((p: any) => [p.label, p.kwh]));
    // Auckland today 12.5 (+ a5's 7 when UTC's today has the same date).
    const aklToday = label(new Date(), 'Pacific/Auckland');
    const utcToday = label(new Date(), 'UTC');
    expect(byLabel.get(aklToday)).toBe(aklToday === utcToday ? 19.5 : 12.5);
    // Otherwise UTC's today is Auckland's yesterday: a5's 7 plus a4's 150 − 100 (last reading before yesterday).
    // (On Auckland's 1st of a month its yesterday has no base reading in the range: a5's 7 only.)
    if (aklToday !== utcToday) expect(byLabel.get(utcToday)).toBe(firstOfMonth(w.bounds.aklDay, w.bounds.aklMonth) ? 7 : 57);
    expect(res.data.total_kwh).toBe(Math.round([...byLabel.values()].reduce((s: number, v) => s + (v ?? 0), 0) * 1000) / 1000);
    // Company B's 900 kWh are nowhere.
    expect(res.data.total_kwh).toBeLessThan(900);
    const other = await as.instB.query('fleet.energy', { from, to, granularity: 'day' });
    expect(other.data.total_kwh).toBe(900);

    const long = await as.instA.query('fleet.energy', { from: new Date('2020-01-01'), to: new Date('2021-03-01'), granularity: 'day' });
    expect(long.status).toBe(400);
    expect(long.error?.data.fieldErrors?.map((e) => e.path)).toEqual(['to']);
    const backwards = await as.instA.query('fleet.energy', { from: to, to: from, granularity: 'month' });
    expect(backwards.status).toBe(400);
    const foreign = await as.instA.query('fleet.energy', { from, to, granularity: 'day', company_cuid: w.companyB });
    expect(foreign.status).toBe(404);
  });

  it('fleet.mapSettings answers the tile settings (empty: offline borders only)', async () => {
    const res = await as.basicA.query('fleet.mapSettings');
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ tile_url: '', attribution: '' });
  });
});
