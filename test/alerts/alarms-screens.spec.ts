import { DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { historyCsvHeader, historyCsvLines } from '../../shared/alerts/history-csv';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';
import { addEvent, addTrigger, eventValue, setStatus } from './alarm-fixtures';

/**
 * The alarm procedures on the real application and database, with alarm rows inserted directly.
 * The farm belongs to the demo company; the clinic to the other company, shared read-only with
 * the demo company. basic@ (demo, level 3) sees both; other@ (other company, level 3) only the clinic.
 */
describe('alarm screens: active alarms, history, acknowledge, mute, inbox, trigger status', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  let farm: { system_cuid: string; name: string };
  let clinic: { system_cuid: string; name: string };
  let farmTrigger: string;
  let clinicTrigger: string;
  let quietTrigger: string;
  let farmFiring: { event_cuid: string; notification_cuid: string | null };
  const t0 = new Date('2026-11-20T01:00:00Z');
  const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

  beforeAll(async () => {
    // The screens read alert rows written here as fixtures: the engine's timer and the outbox stay
    // off so they keep the states the fixtures give them (the whole path runs in test/browser/alerts-e2e.spec.ts).
    t = await startTestApp({ ALERTS_DELIVERY_ENABLED: 'false', ALERTS_TIMER_INTERVAL_MS: '0' });
    for (const who of ['superuser', 'expert', 'basic', 'other']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    const ds = t.db.dataSource;
    await addMember(ds, 'otherexpert@alarms.test', OTHER_COMPANY_NAME, 2);
    as.otherExpert = new HttpClient(t.baseUrl);
    expect((await as.otherExpert.login('otherexpert@alarms.test')).status).toBe(200);
    const systems = await ds.query<{ system_cuid: string; name: string }[]>(`SELECT system_cuid, name FROM system`);
    farm = systems.find((s) => s.name === DEMO_SYSTEMS.farm)!;
    clinic = systems.find((s) => s.name === DEMO_SYSTEMS.clinic)!;

    farmTrigger = await addTrigger(ds, farm.system_cuid, { name: 'Farm battery low', severity: 'CRITICAL' });
    clinicTrigger = await addTrigger(ds, clinic.system_cuid, { name: 'Clinic battery low', severity: 'WARNING' });
    quietTrigger = await addTrigger(ds, farm.system_cuid, { name: 'Farm PV quiet', severity: 'INFO' });
    // Farm: fired, released, fired again (still TRIGGERED). Clinic: fired, not yet delivered.
    await addEvent(ds, farmTrigger, eventValue('TRIGGERED', at(0), 18, farm), { severity: 'CRITICAL', message: 'Farm battery at 18 %' });
    await addEvent(ds, farmTrigger, eventValue('RELEASED', at(30), 27, farm), { severity: 'CRITICAL', message: 'Farm battery back to 27 %' });
    farmFiring = await addEvent(ds, farmTrigger, eventValue('TRIGGERED', at(60), 15.5, farm), { severity: 'CRITICAL', message: 'Farm battery at 15.5 %' });
    await setStatus(ds, farmTrigger, 'TRIGGERED', at(60), 15.5);
    await addEvent(ds, clinicTrigger, eventValue('TRIGGERED', at(90), 9, clinic), { delivered: false });
    await setStatus(ds, clinicTrigger, 'TRIGGERED', at(90), 9);
    await addEvent(ds, quietTrigger, eventValue('TRIGGERED', at(10), 0, farm), { severity: 'INFO' });
    await addEvent(ds, quietTrigger, eventValue('RELEASED', at(20), 3, farm), { severity: 'INFO' });
    await setStatus(ds, quietTrigger, 'RELEASED', at(20), 3);
  });
  afterAll(async () => {
    await t?.close();
  });

  const mine = (rows: any[]): any[] => rows.filter((r) => [farmTrigger, clinicTrigger, quietTrigger].includes(r.trigger_cuid));

  it('active: the TRIGGERED triggers of the systems one sees, owner company or share, with the rendered message', async () => {
    const basic = await as.basic.query('alarm.active', {});
    expect(basic.status).toBe(200);
    const rows = mine(basic.data);
    expect(rows.map((r: any) => r.trigger_cuid)).toEqual([farmTrigger, clinicTrigger]); // CRITICAL first; the released one is not active
    expect(rows[0]).toMatchObject({
      trigger_name: 'Farm battery low',
      severity_level: 'CRITICAL',
      system_cuid: farm.system_cuid,
      system_name: farm.name,
      since: at(60),
      last_value: 15.5,
      message: 'Farm battery at 15.5 %', // the delivered notification's text
      notification_cuid: farmFiring.notification_cuid,
      muted: false,
      muted_until: null,
      acknowledged: false,
    });
    // Not delivered yet: the trigger's template filled with the event's values; nothing to acknowledge.
    expect(rows[1]).toMatchObject({ system_name: clinic.name, message: `Battery at 9 % on ${clinic.name}`, notification_cuid: null, acknowledged: false });

    const other = await as.other.query('alarm.active', {});
    expect(mine(other.data).map((r: any) => r.trigger_cuid)).toEqual([clinicTrigger]);
    const oneSystem = await as.basic.query('alarm.active', { system_cuid: clinic.system_cuid });
    expect(mine(oneSystem.data).map((r: any) => r.trigger_cuid)).toEqual([clinicTrigger]);
    expect(oneSystem.data.every((r: any) => r.system_cuid === clinic.system_cuid)).toBe(true);
  });

  it('a member of another company gets no rows and NOT_FOUND for every alarm procedure naming a foreign id', async () => {
    const o = as.other;
    const foreign = [
      await o.query('alarm.active', { system_cuid: farm.system_cuid }),
      await o.query('alarm.history', { filter: { system_cuid: farm.system_cuid } }),
      await o.query('alarm.history', { filter: { trigger_cuid: farmTrigger } }),
      await o.mutate('alarm.acknowledge', { notification_cuid: farmFiring.notification_cuid }),
      await o.mutate('alarm.mute', { trigger_cuid: farmTrigger }),
      await o.mutate('alarm.unmute', { trigger_cuid: farmTrigger }),
      await as.otherExpert.query('triggerStatus.get', { trigger_cuid: farmTrigger }),
      await o.mutate('inbox.markRead', { items: [{ kind: 'alarm', notification_cuid: farmFiring.notification_cuid }] }),
      await o.mutate('alarm.acknowledge', { notification_cuid: 'nosuchnotification0000000' }),
      await o.mutate('alarm.mute', { trigger_cuid: 'nosuchtrigger000000000000' }),
    ];
    expect(foreign.map((r) => [r.status, r.error?.data.code])).toEqual(foreign.map(() => [404, 'NOT_FOUND']));
    // Nothing was written for the outsider.
    const written = await t.db.dataSource.query(
      `SELECT (SELECT count(*) FROM notification_user_blacklist WHERE trigger_cuid = $1)::int AS mutes,
              (SELECT count(*) FROM notification_user_history WHERE notification_cuid = $2)::int AS acks`,
      [farmTrigger, farmFiring.notification_cuid],
    );
    expect(written).toEqual([{ mutes: 0, acks: 0 }]);
    // Lists: no farm rows anywhere.
    const history = await o.query('alarm.history', { pagination: { page: 1, perPage: 1000 } });
    expect(history.data.data.filter((r: any) => r.system_cuid === farm.system_cuid)).toEqual([]);
    const inbox = await o.query('inbox.list', { pagination: { page: 1, perPage: 1000 } });
    expect(inbox.data.data.filter((r: any) => r.system_cuid === farm.system_cuid)).toEqual([]);
    const status = await o.query('triggerStatus.list', { trigger_cuids: [farmTrigger, clinicTrigger] });
    expect(status.status).toBe(403); // trigger state is trigger configuration: level 2 ("Events: triggers view 2")
    const otherExpert = await as.otherExpert.query('triggerStatus.list', { trigger_cuids: [farmTrigger, clinicTrigger] });
    expect(otherExpert.data.map((s: any) => s.trigger_cuid)).toEqual([clinicTrigger]);
    const expertStatus = await as.expert.query('triggerStatus.list', { trigger_cuids: [farmTrigger, clinicTrigger, quietTrigger] });
    expect(expertStatus.data.map((s: any) => [s.trigger_cuid, s.trigger_state]).sort()).toEqual(
      [
        [farmTrigger, 'TRIGGERED'],
        [clinicTrigger, 'TRIGGERED'],
        [quietTrigger, 'RELEASED'],
      ].sort(),
    );
  });

  it('acknowledge writes one NotificationUserHistory row however often it is called', async () => {
    const first = await as.basic.mutate('alarm.acknowledge', { notification_cuid: farmFiring.notification_cuid });
    const second = await as.basic.mutate('alarm.acknowledge', { notification_cuid: farmFiring.notification_cuid });
    expect(first.status).toBe(200);
    expect(second.data).toEqual({ ok: true, acknowledged_at: first.data.acknowledged_at });
    const rows = await t.db.dataSource.query(`SELECT user_cuid FROM notification_user_history WHERE notification_cuid = $1`, [farmFiring.notification_cuid]);
    expect(rows).toHaveLength(1);
    const active = await as.basic.query('alarm.active', { system_cuid: farm.system_cuid });
    expect(mine(active.data).find((r: any) => r.trigger_cuid === farmTrigger)).toMatchObject({ acknowledged: true });
    // Acknowledgement is per user: the expert has not acknowledged it.
    const expert = await as.expert.query('alarm.active', { system_cuid: farm.system_cuid });
    expect(mine(expert.data).find((r: any) => r.trigger_cuid === farmTrigger)).toMatchObject({ acknowledged: false });
  });

  it('mute with an end writes the caller’s own blacklist row and puts it in the session; bad ends are refused', async () => {
    const until = new Date(Date.now() + 8 * 3600_000);
    const muted = await as.basic.mutate('alarm.mute', { trigger_cuid: clinicTrigger, until });
    expect(muted.status).toBe(200);
    const entry = muted.data.notificationBlacklist.find((b: any) => b.trigger_cuid === clinicTrigger);
    expect(new Date(entry.until).getTime()).toBe(until.getTime());
    const [row] = await t.db.dataSource.query(
      `SELECT u.email, b.until FROM notification_user_blacklist b JOIN "user" u USING (user_cuid) WHERE b.trigger_cuid = $1`,
      [clinicTrigger],
    );
    expect(row).toEqual({ email: 'basic@demo.local', until });
    // The user record's blacklist (spec §7 findOne) carries the end too.
    const me = await as.basic.query('user.findOne', { email: 'basic@demo.local' });
    expect(me.data.notification_blacklist.find((b: any) => b.trigger_cuid === clinicTrigger).until).toBe(until.toISOString());
    const active = await as.basic.query('alarm.active', { system_cuid: clinic.system_cuid });
    expect(mine(active.data)[0]).toMatchObject({ muted: true, muted_until: until });
    // Others are not muted by it (a share's member mutes for themselves only).
    const other = await as.other.query('alarm.active', { system_cuid: clinic.system_cuid });
    expect(mine(other.data)[0]).toMatchObject({ muted: false });

    // Muting again replaces the end; "until unmuted" has none.
    await as.basic.mutate('alarm.mute', { trigger_cuid: clinicTrigger });
    expect(await t.db.dataSource.query(`SELECT until FROM notification_user_blacklist WHERE trigger_cuid = $1`, [clinicTrigger])).toEqual([{ until: null }]);

    for (const bad of [new Date(Date.now() - 1000), new Date(Date.now() + 400 * 24 * 3600_000)]) {
      const r = await as.basic.mutate('alarm.mute', { trigger_cuid: clinicTrigger, until: bad });
      expect([r.status, r.error?.data.code]).toEqual([400, 'BAD_REQUEST']);
    }
    const unmuted = await as.basic.mutate('alarm.unmute', { trigger_cuid: clinicTrigger });
    expect(unmuted.data.notificationBlacklist.some((b: any) => b.trigger_cuid === clinicTrigger)).toBe(false);
    expect(await t.db.dataSource.query(`SELECT 1 FROM notification_user_blacklist WHERE trigger_cuid = $1`, [clinicTrigger])).toEqual([]);

    // A mute whose end has passed is no longer in force.
    await t.db.dataSource.query(
      `INSERT INTO notification_user_blacklist (blacklist_cuid, user_cuid, trigger_cuid, until)
       SELECT 'expiredmute' || substr(md5(random()::text), 1, 8), user_cuid, $1, now() - interval '1 minute' FROM "user" WHERE email = 'basic@demo.local'`,
      [clinicTrigger],
    );
    const after = await as.basic.query('alarm.active', { system_cuid: clinic.system_cuid });
    expect(mine(after.data)[0]).toMatchObject({ muted: false, muted_until: null });
    await t.db.dataSource.query(`DELETE FROM notification_user_blacklist WHERE trigger_cuid = $1`, [clinicTrigger]);
  });

  it('history: both states, device time, filters by system, severity, state, trigger and time, sorted and paged', async () => {
    const all = await as.basic.query('alarm.history', { pagination: { page: 1, perPage: 1000 } });
    const rows = mine(all.data.data);
    expect(rows.map((r: any) => [r.trigger_name, r.state, r.timestamp.toISOString()])).toEqual([
      ['Clinic battery low', 'TRIGGERED', at(90).toISOString()],
      ['Farm battery low', 'TRIGGERED', at(60).toISOString()],
      ['Farm battery low', 'RELEASED', at(30).toISOString()],
      ['Farm PV quiet', 'RELEASED', at(20).toISOString()],
      ['Farm PV quiet', 'TRIGGERED', at(10).toISOString()],
      ['Farm battery low', 'TRIGGERED', at(0).toISOString()],
    ]);
    expect(rows[0]).toMatchObject({ message: `Battery at 9 % on ${clinic.name}`, delivery: 'PENDING', notification_cuid: null });
    expect(rows[2]).toMatchObject({ message: 'Farm battery back to 27 %', severity_level: 'CRITICAL', delivery: 'SENT' });

    const q = async (filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      mine((await as.basic.query('alarm.history', { filter, pagination: { page: 1, perPage: 1000 }, ...extra })).data.data).map((r: any) => r.event_cuid);
    expect(await q({ system_cuid: clinic.system_cuid })).toEqual([rows[0].event_cuid]);
    expect(await q({ severity_level: 'INFO' })).toEqual([rows[3].event_cuid, rows[4].event_cuid]);
    expect(await q({ state: 'RELEASED' })).toEqual([rows[2].event_cuid, rows[3].event_cuid]);
    expect(await q({ trigger_cuid: farmTrigger })).toEqual([rows[1].event_cuid, rows[2].event_cuid, rows[5].event_cuid]);
    expect(await q({ from: at(10), to: at(60) })).toEqual([rows[2].event_cuid, rows[3].event_cuid, rows[4].event_cuid]); // to is exclusive
    expect(await q({ system_cuid: farm.system_cuid, from: at(30) })).toEqual([rows[1].event_cuid, rows[2].event_cuid]);
    expect(await q({}, { sort: { field: 'timestamp', order: 'ASC' } })).toEqual(rows.map((r: any) => r.event_cuid).reverse());

    const page = await as.basic.query('alarm.history', { filter: { trigger_cuid: farmTrigger }, pagination: { page: 2, perPage: 2 } });
    expect(page.data.total).toBe(3);
    expect(page.data.data.map((r: any) => r.event_cuid)).toEqual([rows[5].event_cuid]);

    const bad = await as.basic.query('alarm.history', { filter: { from: at(60), to: at(10) } });
    expect(bad.status).toBe(400);
    const badSort = await as.basic.query('alarm.history', { sort: { field: 'password', order: 'ASC' } });
    expect(badSort.status).toBe(400);
  });

  it('CSV export: page after page of the filtered history, formula cells defused', async () => {
    await addEvent(t.db.dataSource, quietTrigger, { ...eventValue('TRIGGERED', at(100), 1, farm) }, { severity: 'INFO', message: '=HYPERLINK("x")' });
    let csv = historyCsvHeader();
    const filter = { system_cuid: farm.system_cuid, severity_level: 'INFO' };
    for (let page = 1; ; page++) {
      const r = await as.basic.query('alarm.history', { filter, pagination: { page, perPage: 2 }, sort: { field: 'timestamp', order: 'ASC' } });
      csv += historyCsvLines(r.data.data);
      if (r.data.data.length < 2) break;
    }
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('timestamp,timezone,state,severity_level,system_name,trigger_name,message,value,system_cuid,trigger_cuid,event_cuid');
    const body = lines.slice(1).map((l) => l.split(',').slice(0, 8));
    expect(body).toEqual([
      [at(10).toISOString(), 'Africa/Nairobi', 'TRIGGERED', 'INFO', farm.name, 'Farm PV quiet', `${farm.name}: TRIGGERED at 0`, '0'],
      [at(20).toISOString(), 'Africa/Nairobi', 'RELEASED', 'INFO', farm.name, 'Farm PV quiet', `${farm.name}: RELEASED at 3`, '3'],
      [at(100).toISOString(), 'Africa/Nairobi', 'TRIGGERED', 'INFO', farm.name, 'Farm PV quiet', `"'=HYPERLINK(""x"")"`, '1'],
    ]);
  });

  it('inbox: portal notifications and alarms in one list with read state; mark read; unread count; muted triggers left out', async () => {
    const changelog = await as.expert.mutate('systemChangelog.create', { system_cuid: farm.system_cuid, title: 'Panels cleaned', message: 'All 24 panels' });
    expect(changelog.status).toBe(200);
    const before = await as.basic.query('inbox.unreadCount');
    const list = await as.basic.query('inbox.list', { pagination: { page: 1, perPage: 1000 } });
    const items = list.data.data as any[];
    const portal = items.find((i) => i.kind === 'portal' && i.message === 'All 24 panels');
    const alarm = items.find((i) => i.kind === 'alarm' && i.notification_cuid === farmFiring.notification_cuid);
    expect(portal).toMatchObject({ read: false, system_cuid: farm.system_cuid, type: 'CHANGELOG', target: `/systems/${farm.system_cuid}/changelog` });
    expect(alarm).toMatchObject({ read: true, trigger_cuid: farmTrigger, trigger_name: 'Farm battery low', target: `/systems/${farm.system_cuid}/alarms` }); // acknowledged above
    expect(items.map((i) => i.sent_at.getTime())).toEqual([...items.map((i) => i.sent_at.getTime())].sort((a, b) => b - a));
    // Page after page (each kind cut to the page's end before merging) gives the same list.
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(list.data.total / 2); page++) {
      paged.push(...(await as.basic.query('inbox.list', { pagination: { page, perPage: 2 } })).data.data.map((i: any) => i.id));
    }
    expect(paged).toEqual(items.map((i) => i.id));
    expect(items.map((i) => i.kind).sort()).toEqual(expect.arrayContaining(['alarm', 'portal']));

    const unread = await as.basic.query('inbox.list', { pagination: { page: 1, perPage: 1000 }, unreadOnly: true });
    expect(unread.data.data.every((i: any) => !i.read)).toBe(true);
    expect(unread.data.total).toBe(before.data.total);
    expect(unread.data.data.some((i: any) => i.id === portal.id)).toBe(true);

    const marked = await as.basic.mutate('inbox.markRead', {
      items: [
        { kind: 'portal', notification_cuid: portal.notification_cuid },
        { kind: 'alarm', notification_cuid: alarm.notification_cuid },
      ],
    });
    expect(marked.data).toEqual({ marked: 1 }); // the alarm was read already
    const again = await as.basic.mutate('inbox.markRead', { items: [{ kind: 'portal', notification_cuid: portal.notification_cuid }] });
    expect(again.data).toEqual({ marked: 0 });
    const after = await as.basic.query('inbox.unreadCount');
    expect(after.data.total).toBe(before.data.total - 1);
    // A portal id passed as an alarm is not found (each kind has its own table).
    const wrongKind = await as.basic.mutate('inbox.markRead', { items: [{ kind: 'alarm', notification_cuid: portal.notification_cuid }] });
    expect(wrongKind.status).toBe(404);

    // Muting a trigger takes its alarms out of the inbox and the count.
    const released = items.find((i) => i.kind === 'alarm' && i.trigger_cuid === quietTrigger && !i.read);
    expect(released).toBeDefined();
    await as.basic.mutate('alarm.mute', { trigger_cuid: quietTrigger });
    const mutedList = await as.basic.query('inbox.list', { pagination: { page: 1, perPage: 1000 } });
    expect(mutedList.data.data.some((i: any) => i.trigger_cuid === quietTrigger)).toBe(false);
    const mutedCount = await as.basic.query('inbox.unreadCount');
    expect(mutedCount.data.alarms).toBeLessThan(after.data.alarms);
    await as.basic.mutate('alarm.unmute', { trigger_cuid: quietTrigger });

    const all = await as.basic.mutate('inbox.markRead', { all: true });
    expect(all.data.marked).toBe(after.data.total);
    expect((await as.basic.query('inbox.unreadCount')).data).toEqual({ portal: 0, alarms: 0, total: 0, capped: false });
    // Read state is the caller's: the superuser still has them unread.
    const su = await as.superuser.query('inbox.list', { pagination: { page: 1, perPage: 1000 }, unreadOnly: true });
    expect(su.data.data.some((i: any) => i.id === portal.id)).toBe(true);
    // The other company's member sees the clinic's alarms only (none delivered) and no farm changelog.
    const other = await as.other.query('inbox.list', { pagination: { page: 1, perPage: 1000 } });
    expect(other.data.data.some((i: any) => i.id === portal.id)).toBe(false);
  });

  it('trigger status: state, last evaluation, processing status and next execution; a trigger never evaluated is RELEASED', async () => {
    const fresh = await addTrigger(t.db.dataSource, farm.system_cuid, { name: 'Never run' });
    const r = await as.expert.query('triggerStatus.get', { trigger_cuid: farmTrigger });
    expect(r.data).toMatchObject({ trigger_state: 'TRIGGERED', state_since: at(60), processing_status: 'SUCCESS', next_execution: at(61), last_value: 15.5 });
    expect(r.data.evaluated_at).toBeInstanceOf(Date);
    const n = await as.expert.query('triggerStatus.get', { trigger_cuid: fresh });
    expect(n.data).toMatchObject({ trigger_state: 'RELEASED', evaluated_at: null, next_execution: null, processing_status: null });
    const basic = await as.basic.query('triggerStatus.get', { trigger_cuid: farmTrigger });
    expect(basic.status).toBe(403);
  });
});
