import { DEMO_COMPANY_NAME, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { openStream } from '../factories/sse';
import { addMember } from '../factories/users';

/**
 * Live streams (portalNotification.onEvent over SSE) follow their session: they end when it is
 * signed out, deactivated or its password changes, and a user holds a bounded number of them.
 * On PostgreSQL the events travel through LISTEN/NOTIFY as on a real deployment.
 */
describe('live streams and their sessions', () => {
  let t: TestApp;
  let farm: string;
  let admin: HttpClient;
  let author: HttpClient;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ LIVE_SESSION_CHECK_SECONDS: '1', LIVE_STREAMS_PER_USER: '5' }, { liveOverPostgres: true });
    farm = (await t.db.dataSource.query(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]))[0].system_cuid;
    admin = new HttpClient(t.baseUrl);
    author = new HttpClient(t.baseUrl);
    expect((await admin.login('superuser@demo.local')).status).toBe(200);
    expect((await author.login('expert@demo.local')).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh Basic member of the demo company (sees the farm's changelog), signed in. */
  const member = async () => {
    const email = `live${++n}@demo.local`;
    const user_cuid = await addMember(t.db.dataSource, email, DEMO_COMPANY_NAME, 3);
    const c = new HttpClient(t.baseUrl);
    expect((await c.login(email)).status).toBe(200);
    return { c, user_cuid, email };
  };
  const changelog = async (title: string, message = '') => {
    const res = await author.mutate('systemChangelog.create', { system_cuid: farm, title, message });
    expect(res.status).toBe(200);
  };
  const settle = () => new Promise((r) => setTimeout(r, 150));

  it("logout ends the session's open stream at once; nothing is delivered to it afterwards", async () => {
    const { c } = await member();
    const stream = await openStream(c, 'portalNotification.onEvent');
    expect(stream.res.status).toBe(200);
    await settle();
    await changelog('Before logout');
    expect((await stream.waitFor(1))[0].toast.title).toMatch(/Before logout/);
    expect((await c.json('POST', '/api/auth/logout', {})).status).toBe(200);
    expect(await stream.endsWithin(2000)).toBe(true);
    await changelog('After logout');
    await settle();
    expect(stream.events).toHaveLength(1);
    await stream.close();
  });

  it('deactivation stops delivery at once and ends the stream', async () => {
    const { c, user_cuid } = await member();
    const stream = await openStream(c, 'portalNotification.onEvent');
    await settle();
    expect((await admin.mutate('user.deactivate', { user_cuid })).status).toBe(200);
    await changelog('After deactivation');
    expect(await stream.endsWithin(4000)).toBe(true);
    expect(stream.events).toEqual([]);
    await stream.close();
  });

  it("a password change ends the streams of the user's other sessions", async () => {
    const { c, user_cuid, email } = await member();
    const stream = await openStream(c, 'portalNotification.onEvent');
    const other = new HttpClient(t.baseUrl);
    expect((await other.login(email)).status).toBe(200);
    await settle();
    expect((await other.mutate('user.update', { id: user_cuid, data: { password: 'a-brand-new-password', current_password: 'demo-password' } })).status).toBe(
      200,
    );
    await changelog('After password change');
    expect(await stream.endsWithin(4000)).toBe(true);
    expect(stream.events).toEqual([]);
    await stream.close();
  });

  it('a user holds at most LIVE_STREAMS_PER_USER streams: a new one closes the oldest', async () => {
    const { c } = await member();
    const streams = [];
    for (let i = 0; i < 6; i++) {
      streams.push(await openStream(c, 'portalNotification.onEvent'));
      await settle();
    }
    expect(await streams[0].endsWithin(2000)).toBe(true);
    await changelog('To the newest five');
    for (const s of streams.slice(1)) expect((await s.waitFor(1))[0].toast.title).toMatch(/To the newest five/);
    expect(streams.slice(1).every((s) => !s.isEnded())).toBe(true);
    await Promise.all(streams.map((s) => s.close()));
  });

  it('a long changelog message (beyond the 8000-byte NOTIFY limit) still arrives whole as a toast', async () => {
    const { c } = await member();
    const stream = await openStream(c, 'portalNotification.onEvent');
    await settle();
    const message = 'Replaced the inverter. '.repeat(430).trim(); // ~9.9 KB, under the 10,000-character limit
    expect(Buffer.byteLength(message)).toBeGreaterThan(8000);
    await changelog('Long entry', message);
    const [event] = await stream.waitFor(1);
    expect(event?.toast.message?.length).toBe(message.length);
    expect(event.toast.message === message).toBe(true);
    await stream.close();
  });
});
