import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { openStream } from '../factories/sse';

describe('live CHANGELOG notifications over SSE', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  let farm: string;
  let clinic: string;

  beforeAll(async () => {
    // On PostgreSQL the events go through LISTEN/NOTIFY, as on a deployment.
    t = await startTestApp({}, { liveOverPostgres: true });
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    const systems = await t.db.dataSource.query<{ system_cuid: string; name: string }[]>(`SELECT system_cuid, name FROM system`);
    farm = systems.find((s) => s.name === DEMO_SYSTEMS.farm)!.system_cuid;
    clinic = systems.find((s) => s.name === DEMO_SYSTEMS.clinic)!.system_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a changelog entry reaches the members who see the system, as a toast, and nobody else', async () => {
    const basic = await openStream(as.basic, 'portalNotification.onEvent');
    const other = await openStream(as.other, 'portalNotification.onEvent');
    const expert = await openStream(as.expert, 'portalNotification.onEvent');
    expect(basic.res.status).toBe(200);
    expect(basic.res.headers.get('content-type')).toMatch(/text\/event-stream/);
    await new Promise((r) => setTimeout(r, 100));

    const created = await as.expert.mutate('systemChangelog.create', { system_cuid: farm, title: 'Battery bank replaced', message: 'Four new modules.' });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ title: 'Battery bank replaced', system_cuid: farm });
    expect(created.data.timestamp).toBeInstanceOf(Date);

    const [event] = await basic.waitFor(1);
    expect(event).toEqual({
      kind: 'toast',
      toast: {
        id: expect.any(String),
        type: 'NOTIFICATION',
        title: `${DEMO_SYSTEMS.farm}: Battery bank replaced`,
        message: 'Four new modules.',
        severity: 'INFO',
        triggeredAt: { timestamp: expect.any(Date), timezone: 'Africa/Nairobi' },
        onClickTarget: `/systems/${farm}/changelog`,
        source: { notification_cuid: event.toast.id, system_cuid: farm, notification_type: 'CHANGELOG' },
      },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(other.events).toEqual([]); // the farm is not shared with the other company
    expect(expert.events).toEqual([]); // the author is not told about their own entry
    await Promise.all([basic.close(), other.close(), expert.close()]);
  });

  it('a shared system notifies the company it is shared with; Basic users cannot write changelogs', async () => {
    const basic = await openStream(as.basic, 'portalNotification.onEvent');
    await new Promise((r) => setTimeout(r, 100));
    const refused = await as.basic.mutate('systemChangelog.create', { system_cuid: clinic, title: 'x' });
    expect(refused.status).toBe(403); // level 3 may not write changelogs
    const foreign = await as.other.mutate('systemChangelog.create', { system_cuid: farm, title: 'sneaky' });
    expect(foreign.status).toBe(403); // Basic in the other company: refused before any lookup
    // The installer writes on the clinic, which the other company shares with the demo company (read-only).
    const missing = await as.installer.mutate('systemChangelog.create', { system_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz', title: 'x' });
    expect(missing.status).toBe(404);
    const onShared = await as.installer.mutate('systemChangelog.create', { system_cuid: clinic, title: 'Visited the clinic' });
    expect(onShared.status).toBe(200);
    const events = await basic.waitFor(1);
    expect(events[0].toast.title).toMatch(/Visited the clinic/);
    await basic.close();
  });

  it('an Expert of another company cannot write on a system not shared with them: NOT_FOUND, like a missing one', async () => {
    // Fixture: an Expert in the other company (same password hash as the demo users).
    await t.db.dataSource.query(`
      WITH u AS (
        INSERT INTO "user" (user_cuid, email, password, name)
        SELECT 'otherexpert0000000000000', 'other-expert@demo.local', password, 'Other Expert' FROM "user" WHERE email = 'other@demo.local'
        RETURNING user_cuid)
      INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid)
      SELECT 'otherexpertmembership000', (SELECT role_cuid FROM role WHERE level = 2), u.user_cuid,
             (SELECT company_cuid FROM company_membership m JOIN "user" o USING (user_cuid) WHERE o.email = 'other@demo.local')
        FROM u`);
    const otherExpert = new HttpClient(t.baseUrl);
    expect((await otherExpert.login('other-expert@demo.local')).status).toBe(200);
    const foreign = await otherExpert.mutate('systemChangelog.create', { system_cuid: farm, title: 'sneaky' });
    const unknown = await otherExpert.mutate('systemChangelog.create', { system_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz', title: 'sneaky' });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toEqual(unknown.error);
    const written = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM system_changelog WHERE title = 'sneaky'`);
    expect(written[0].n).toBe(0);
    // … while the clinic, their own system, works
    expect((await otherExpert.mutate('systemChangelog.create', { system_cuid: clinic, title: 'Own entry' })).status).toBe(200);
  });

  it('mute silences that system for that user, answers a refreshed session, and unmute restores it', async () => {
    const muted = await as.basic.mutate('portalNotification.mute', { system_cuid: farm, notification_type: 'CHANGELOG' });
    expect(muted.status).toBe(200);
    expect(muted.data.portalNotificationBlacklist).toEqual([
      { blacklist_cuid: expect.any(String), user_cuid: expect.any(String), system_cuid: farm, notification_type: 'CHANGELOG' },
    ]);
    const session = await as.basic.request('GET', '/api/auth/session');
    expect(session.body.portalNotificationBlacklist).toHaveLength(1); // the cookie was re-issued
    const basic = await openStream(as.basic, 'portalNotification.onEvent');
    const superuser = await openStream(as.superuser, 'portalNotification.onEvent');
    await new Promise((r) => setTimeout(r, 100));
    await as.expert.mutate('systemChangelog.create', { system_cuid: farm, title: 'Quiet change' });
    expect((await superuser.waitFor(1))[0].toast.title).toMatch(/Quiet change/);
    expect(basic.events).toEqual([]);
    await as.basic.mutate('portalNotification.unmute', { system_cuid: farm, notification_type: 'CHANGELOG' });
    await as.expert.mutate('systemChangelog.create', { system_cuid: farm, title: 'Loud change' });
    expect((await basic.waitFor(1))[0].toast.title).toMatch(/Loud change/);
    await Promise.all([basic.close(), superuser.close()]);
    // muting a system one cannot see is NOT_FOUND
    expect((await as.other.mutate('portalNotification.mute', { system_cuid: farm, notification_type: 'CHANGELOG' })).status).toBe(404);
  });

  it("unmuting a system one cannot see is NOT_FOUND like mute (same answer as an unknown id), and touches nobody else's mutes", async () => {
    const ds = t.db.dataSource;
    expect((await as.basic.mutate('portalNotification.mute', { system_cuid: farm, notification_type: 'CHANGELOG' })).status).toBe(200);
    const before = await ds.query(`SELECT blacklist_cuid, user_cuid, system_cuid FROM portal_notification_user_blacklist ORDER BY blacklist_cuid`);
    const foreign = await as.other.mutate('portalNotification.unmute', { system_cuid: farm, notification_type: 'CHANGELOG' });
    const unknown = await as.other.mutate('portalNotification.unmute', { system_cuid: 'nosuchsystem0000000000000', notification_type: 'CHANGELOG' });
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.error).toEqual(unknown.error);
    expect(await ds.query(`SELECT blacklist_cuid, user_cuid, system_cuid FROM portal_notification_user_blacklist ORDER BY blacklist_cuid`)).toEqual(before);
    // the owner of the mute still unmutes their own visible system
    const own = await as.basic.mutate('portalNotification.unmute', { system_cuid: farm, notification_type: 'CHANGELOG' });
    expect(own.status).toBe(200);
    expect(own.data.portalNotificationBlacklist).toEqual([]);
  });

  it('acknowledging writes PortalNotificationUserHistory; a foreign notification is as missing as an unknown one', async () => {
    const recent = (await as.basic.query('portalNotification.recent', { limit: 10 })).data as { notification_cuid: string; read: boolean }[];
    expect(recent.length).toBeGreaterThan(0);
    const target = recent.find((n) => !n.read)!;
    const ack = await as.basic.mutate('portalNotification.acknowledge', { notification_cuid: target.notification_cuid });
    expect(ack.data).toEqual({ ok: true });
    const history = await t.db.dataSource.query(
      `SELECT count(*)::int AS n FROM portal_notification_user_history h JOIN "user" u USING (user_cuid)
        WHERE u.email = 'basic@demo.local' AND h.notification_cuid = $1`,
      [target.notification_cuid],
    );
    expect(history[0].n).toBe(1);
    const after = (await as.basic.query('portalNotification.recent', { limit: 10 })).data as { notification_cuid: string; read: boolean }[];
    expect(after.find((n) => n.notification_cuid === target.notification_cuid)!.read).toBe(true);
    // the other company never sees the farm's notifications
    const otherRecent = (await as.other.query('portalNotification.recent', { limit: 50 })).data as { system_cuid: string }[];
    expect(otherRecent.every((n) => n.system_cuid !== farm)).toBe(true);
    const foreign = await as.other.mutate('portalNotification.acknowledge', { notification_cuid: target.notification_cuid });
    const unknown = await as.other.mutate('portalNotification.acknowledge', { notification_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toEqual(unknown.error);
  });

  it('toast preferences are validated, stored in user.meta and carried by the next session check', async () => {
    const bad = await as.basic.mutate('user.updatePreferences', { toast_notification_timeout: 12345 });
    expect(bad.status).toBe(400);
    const ok = await as.basic.mutate('user.updatePreferences', { toast_notifications_disabled: true, toast_notification_timeout: 60_000 });
    expect(ok.status).toBe(200);
    expect(ok.data.user.meta.preferences.toast_notifications).toEqual({ toast_notifications_disabled: true, toast_notification_timeout: 60_000 });
    const session = await as.basic.request('GET', '/api/auth/session');
    expect(session.body.user.meta.preferences.toast_notifications.toast_notification_timeout).toBe(60_000);
    const none = await as.basic.mutate('user.updatePreferences', { toast_notification_timeout: null });
    expect(none.data.user.meta.preferences.toast_notifications).toEqual({ toast_notifications_disabled: true, toast_notification_timeout: null });
  });

  it('a subscription needs a session', async () => {
    const res = await fetch(`${t.baseUrl}/api/trpc/portalNotification.onEvent`, { headers: { accept: 'text/event-stream' } });
    const text = await res.text();
    expect(text).toMatch(/UNAUTHORIZED/);
  });
});
