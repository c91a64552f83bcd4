import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';
import { buildFleetWorld, type FleetWorld } from './fleet-world';

describe('systems and controllers lists tell the state (system.getList / controller.getList)', () => {
  let t: TestApp;
  let w: FleetWorld;
  const as: Record<string, HttpClient> = {};

  beforeAll(async () => {
    t = await startTestApp();
    w = await buildFleetWorld(t.db.dataSource);
    await addMember(t.db.dataSource, 'inst-a@lists.test', 'Fleet A', 1);
    await addMember(t.db.dataSource, 'inst-b@lists.test', 'Fleet B', 1);
    for (const [who, email] of [
      ['a', 'inst-a@lists.test'],
      ['b', 'inst-b@lists.test'],
    ]) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(email)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (who: string, params: Record<string, unknown>, resource = 'system') => {
    const res = await as[who].query(`${resource}.getList`, { pagination: { page: 1, perPage: 50 }, ...params });
    expect(res.status).toBe(200);
    return res.data as { data: any[]; total: number };
  };
  const ids = (r: { data: any[] }) => r.data.map((x) => x.system_cuid);

  it("each row carries its state, last contact, active alarms, SoC and today's energy", async () => {
    const r = await list('a', { sort: { field: 'name', order: 'ASC' } });
    expect(r.total).toBe(7);
    const by = new Map(r.data.map((x) => [x.system_cuid, x]));
    expect(by.get(w.sys.a1)).toMatchObject({ online_state: 'ALARM', active_alarms: 1 });
    expect(by.get(w.sys.a2)).toMatchObject({ online_state: 'OFFLINE', active_alarms: 0, soc: null, energy_today_kwh: null });
    expect(by.get(w.sys.a4)).toMatchObject({ online_state: 'ONLINE', soc: 10, energy_today_kwh: 12.5 });
    expect(by.get(w.sys.a5)).toMatchObject({ online_state: 'UNSTABLE', soc: 80, energy_today_kwh: 7 });
    expect(by.get(w.sys.a6)).toMatchObject({ online_state: 'UNKNOWN', last_contact: null });
    expect(by.get(w.sys.a2).last_contact).toBeInstanceOf(Date);
    // getOne answers the same fields.
    const one = await as.a.query('system.getOne', { id: w.sys.a4 });
    expect(one.data.data).toMatchObject({ online_state: 'ONLINE', soc: 10, energy_today_kwh: 12.5 });
  });

  it('sorts by state (worst first), SoC, energy and last contact', async () => {
    const byState = await list('a', { sort: { field: 'online_state', order: 'ASC' } });
    expect(byState.data.map((x) => x.online_state)).toEqual(['ALARM', 'OFFLINE', 'OFFLINE', 'UNSTABLE', 'ONLINE', 'ONLINE', 'UNKNOWN']);
    const bySoc = await list('a', { sort: { field: 'soc', order: 'DESC' } });
    expect(bySoc.data.slice(0, 3).map((x) => x.soc)).toEqual([80, 50, 10]);
    expect(bySoc.data.slice(3).every((x) => x.soc === null)).toBe(true);
    const byEnergy = await list('a', { sort: { field: 'energy_today_kwh', order: 'DESC' } });
    expect(ids(byEnergy).slice(0, 2)).toEqual([w.sys.a4, w.sys.a5]);
    const byContact = await list('a', { sort: { field: 'last_contact', order: 'ASC' } });
    expect(ids(byContact)[0]).toBe(w.sys.a2);
  });

  it('filters: a state, in alarm, offline for more than N hours; a bad value is a field error', async () => {
    const offline = await list('a', { filter: { state: 'OFFLINE' } });
    expect(ids(offline).sort()).toEqual([w.sys.a2, w.sys.a3].sort());
    expect(offline.total).toBe(2);
    const alarm = await list('a', { filter: { in_alarm: true } });
    expect(ids(alarm)).toEqual([w.sys.a1]);
    expect(alarm.total).toBe(1);
    expect((await list('a', { filter: { in_alarm: 'false' } })).total).toBe(6);
    const day = await list('a', { filter: { offline_for_hours: 24 } });
    expect(ids(day)).toEqual([w.sys.a2]);
    expect((await list('a', { filter: { offline_for_hours: 1 } })).total).toBe(2);
    const bad = await as.a.query('system.getList', { pagination: { page: 1, perPage: 10 }, filter: { state: 'ASLEEP' } });
    expect(bad.status).toBe(400);
    expect(bad.error?.data.fieldErrors?.map((e) => e.path)).toEqual(['filter.state']);
    const neg = await as.a.query('system.getList', { pagination: { page: 1, perPage: 10 }, filter: { offline_for_hours: -3 } });
    expect(neg.status).toBe(400);
  });

  it('scoped: company B sees only its own system, in alarm, under every filter', async () => {
    const all = await list('b', {});
    expect(ids(all)).toEqual([w.sys.b1]);
    expect(all.data[0]).toMatchObject({ online_state: 'ALARM', active_alarms: 1, energy_today_kwh: 900 });
    expect(ids(await list('b', { filter: { state: 'OFFLINE' } }))).toEqual([]);
    expect(ids(await list('b', { filter: { in_alarm: true } }))).toEqual([w.sys.b1]);
    expect(ids(await list('a', { filter: { in_alarm: true }, sort: { field: 'online_state', order: 'ASC' } }))).not.toContain(w.sys.b1);
  });

  it('controllers list: state and last contact, sortable', async () => {
    const r = await list('a', { sort: { field: 'online_state', order: 'ASC' } }, 'controller');
    expect(r.data.map((c) => c.online_state)).toEqual(['OFFLINE', 'OFFLINE', 'UNSTABLE', 'ONLINE', 'ONLINE', 'ONLINE']);
    const byContact = await list('a', { sort: { field: 'last_contact', order: 'ASC' } }, 'controller');
    expect(byContact.data[0].system_cuid).toBe(w.sys.a2);
    expect(byContact.data[0].last_contact).toBeInstanceOf(Date);
  });
});
