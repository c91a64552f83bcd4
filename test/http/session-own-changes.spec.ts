import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/**
 * A change to one's own sign-in or memberships ends one's other sessions, but not the session
 * that made it: that one is re-issued with the fresh context on the same answer.
 */
describe("sessions and one's own changes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creating a company keeps its creator signed in, now with the new company in the session', async () => {
    const c = new HttpClient(t.baseUrl);
    await c.login('installer@demo.local');
    const other = new HttpClient(t.baseUrl);
    await other.login('installer@demo.local');
    const created = await c.mutate('company.create', { data: { name: 'Own Changes Solar' } });
    expect(created.status).toBe(200);
    const session = await c.request('GET', '/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.memberships.map((m: { company: { name: string } }) => m.company.name)).toContain('Own Changes Solar');
    expect((await c.query('role.all')).status).toBe(200);
    // The user's other sessions carry the old memberships: they end, as for any membership change.
    expect((await other.request('GET', '/api/auth/session')).status).toBe(401);
  });

  it("changing one's own password keeps that session and ends the others", async () => {
    const c = new HttpClient(t.baseUrl);
    const login = await c.login('expert@demo.local');
    const elsewhere = new HttpClient(t.baseUrl);
    await elsewhere.login('expert@demo.local');
    const res = await c.mutate('user.update', {
      id: login.body.user.user_cuid,
      data: { password: 'expert-new-password-long', current_password: 'demo-password' },
    });
    expect(res.status).toBe(200);
    expect(res.setCookies.some((l) => l.startsWith('liuc=') && !/^liuc=;/.test(l))).toBe(true);
    expect((await c.request('GET', '/api/auth/session')).status).toBe(200);
    expect((await elsewhere.request('GET', '/api/auth/session')).status).toBe(401);
    expect((await new HttpClient(t.baseUrl).login('expert@demo.local', 'expert-new-password-long')).status).toBe(200);
  });

  it("an admin changing another user's password keeps their own session and ends the other user's", async () => {
    const admin = new HttpClient(t.baseUrl);
    await admin.login('superuser@demo.local');
    const victim = new HttpClient(t.baseUrl);
    const v = await victim.login('basic@demo.local');
    const res = await admin.mutate('user.update', { id: v.body.user.user_cuid, data: { password: 'basic-reset-password-long' } });
    expect(res.status).toBe(200);
    expect(res.setCookies.filter((l) => l.startsWith('liuc='))).toEqual([]);
    expect((await admin.request('GET', '/api/auth/session')).status).toBe(200);
    expect((await victim.request('GET', '/api/auth/session')).status).toBe(401);
  });

  it('a session signed out elsewhere is not brought back by its own change', async () => {
    const c = new HttpClient(t.baseUrl);
    const login = await c.login('other@demo.local');
    const stolen = c.cookieHeader();
    await c.json('POST', '/api/auth/logout', {});
    const replay = new HttpClient(t.baseUrl, { cookie: stolen });
    const res = await replay.mutate('user.update', { id: login.body.user.user_cuid, data: { password: 'other-new-password-long' } });
    expect(res.status).toBe(401);
  });
});
