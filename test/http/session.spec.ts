import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

describe('session over HTTP (login, session, logout, cookie, revocation)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const client = (headers: Record<string, string> = {}) => new HttpClient(t.baseUrl, headers);

  it('refuses a wrong password and an unknown email with the same message, and sets no cookie', async () => {
    const wrong = await client().login('basic@demo.local', 'not-the-password');
    const unknown = await client().login('nobody@demo.local', 'whatever');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe('Wrong email or password');
    expect(unknown.body.message).toBe(wrong.body.message);
    expect(wrong.setCookies).toEqual([]);
  });

  it('answers 400 with field errors for a malformed login body, and 400 for broken JSON', async () => {
    const bad = await client().json('POST', '/api/auth/login', { email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.map((f: { path: string }) => f.path).sort()).toEqual(['email', 'password']);
    const broken = await client().request('POST', '/api/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.text).not.toMatch(/at .*\.js|SyntaxError/);
  });

  it('logs in, sets the liuc cookie per spec §9 and returns the §3.1 context', async () => {
    const c = client();
    const res = await c.login('superuser@demo.local');
    expect(res.status).toBe(200);
    const cookie = res.setCookies.find((l) => l.startsWith('liuc='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/Max-Age=604800/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP here
    expect(res.body.user).toMatchObject({ email: 'superuser@demo.local', inactive: false });
    expect(res.body.isSuperUser).toBe(true);
    expect(res.body.memberships[0]).toMatchObject({
      role: { level: 0, name: 'Superuser' },
      company: { name: expect.any(String) },
      is_company_admin: true,
    });
    expect(res.body.notificationBlacklist).toEqual([]);
    expect(res.body.portalNotificationBlacklist).toEqual([]);
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password/);

    const session = await c.request('GET', '/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual(res.body);
    // Kept by the browser and revalidated by its ETag (the check runs every second: test/network).
    expect(session.headers.get('cache-control')).toBe('private, no-cache');
    expect(session.headers.get('etag')).toMatch(/^W\/"/);
  });

  it('a Basic user is not a superuser', async () => {
    const res = await client().login('basic@demo.local');
    expect(res.body.isSuperUser).toBe(false);
    expect(res.body.memberships.map((m: { role: { level: number } }) => m.role.level)).toEqual([3]);
  });

  it('answers 401 without a cookie, and deletes a tampered cookie', async () => {
    expect((await client().request('GET', '/api/auth/session')).status).toBe(401);
    const c = client();
    await c.login('expert@demo.local');
    const value = c.cookies.get('liuc')!;
    const tampered = value.slice(0, 30) + (value[30] === 'A' ? 'B' : 'A') + value.slice(31);
    const res = await client({ cookie: `liuc=${tampered}` }).request('GET', '/api/auth/session');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID');
    const deletion = res.setCookies.find((l) => l.startsWith('liuc='));
    expect(deletion).toMatch(/^liuc=;/);
    expect(deletion).toMatch(/Expires=Thu, 01 Jan 1970/);
    // the original, untouched cookie still works
    expect((await c.request('GET', '/api/auth/session')).status).toBe(200);
  });

  it("a shell page carries the session check's answer (the context, or why not); public pages carry none", async () => {
    const embedded = (html: string) => {
      const m = html.match(/<script id="portal-session" type="application\/json">(.*?)<\/script>/);
      return m ? JSON.parse(m[1]) : undefined;
    };
    // no cookie: no session, and why
    const anonymous = await client().request('GET', '/');
    expect(anonymous.status).toBe(200);
    expect(embedded(anonymous.text)).toEqual({ ok: false, code: 'MISSING' });
    // signed in: the same context GET /api/auth/session answers, on any shell path, never cached by others
    const c = client();
    await c.login('expert@demo.local');
    const session = await c.request('GET', '/api/auth/session');
    for (const path of ['/', '/system', '/systems/anything?x=1']) {
      const page = await c.request('GET', path);
      expect(embedded(page.text)).toEqual({ ok: true, context: session.body });
      expect(page.headers.get('cache-control')).toBe('private, no-cache');
    }
    // the login and account pages carry none
    expect(embedded((await c.request('GET', '/auth/login')).text)).toBeUndefined();
    expect(embedded((await c.request('GET', '/auth/forgot')).text)).toBeUndefined();
    // a tampered cookie: refused and deleted, as by the session check
    const value = c.cookies.get('liuc')!;
    const tampered = value.slice(0, 30) + (value[30] === 'A' ? 'B' : 'A') + value.slice(31);
    const refused = await client({ cookie: `liuc=${tampered}` }).request('GET', '/');
    expect(embedded(refused.text)).toEqual({ ok: false, code: 'INVALID' });
    expect(refused.setCookies.find((l) => l.startsWith('liuc='))).toMatch(/^liuc=;/);
    // after logout the page says so
    const oldCookie = c.cookies.get('liuc')!;
    await c.json('POST', '/api/auth/logout', {});
    expect(embedded((await client({ cookie: `liuc=${oldCookie}` }).request('GET', '/')).text)).toEqual({ ok: false, code: 'REVOKED' });
  });

  it("a user's name cannot break out of the page's session script", async () => {
    const c = client();
    await c.login('basic@demo.local');
    const me = (await c.request('GET', '/api/auth/session')).body;
    await t.db.dataSource.query(`UPDATE "user" SET name = $1 WHERE user_cuid = $2`, ['</script><script>alert(1)</script><!--', me.user.user_cuid]);
    // the context is re-read at the next login
    const d = client();
    await d.login('basic@demo.local');
    const page = await d.request('GET', '/');
    expect(page.text).not.toContain('</script><script>alert(1)');
    const m = page.text.match(/<script id="portal-session" type="application\/json">(.*?)<\/script>/);
    expect(JSON.parse(m![1]).context.user.name).toBe('</script><script>alert(1)</script><!--');
  });

  it('logout ends exactly that session: the old cookie fails on the very next request', async () => {
    const a = client();
    const b = client();
    await a.login('installer@demo.local');
    await b.login('installer@demo.local');
    const oldCookie = a.cookies.get('liuc')!;
    const out = await a.json('POST', '/api/auth/logout', {});
    expect(out.status).toBe(200);
    expect(out.body.redirectTo).toBe('/auth/login');
    expect(a.cookies.has('liuc')).toBe(false);
    const replay = await client({ cookie: `liuc=${oldCookie}` }).request('GET', '/api/auth/session');
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('REVOKED');
    const trpcReplay = await client({ cookie: `liuc=${oldCookie}` }).query('role.all');
    expect(trpcReplay.status).toBe(401);
    expect((await b.request('GET', '/api/auth/session')).status).toBe(200);
  });

  it('deactivating a user ends their sessions on the next request and blocks their login', async () => {
    const victim = client();
    const login = await victim.login('expert@demo.local');
    const admin = client();
    await admin.login('superuser@demo.local');
    const res = await admin.mutate('user.deactivate', { user_cuid: login.body.user.user_cuid });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ inactive: true, inactivated_by_user_cuid: expect.any(String) });
    expect(res.data.inactivated_at).toBeInstanceOf(Date);

    const check = await victim.request('GET', '/api/auth/session');
    expect(check.status).toBe(401);
    expect(check.body.code).toBe('INACTIVE');
    const again = await client().login('expert@demo.local');
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('This account is inactive');

    await admin.mutate('user.reactivate', { user_cuid: login.body.user.user_cuid });
    expect((await client().login('expert@demo.local')).status).toBe(200);
  });

  it("changing a membership ends that user's old sessions", async () => {
    const member = client();
    const login = await member.login('basic@demo.local');
    const admin = client();
    await admin.login('superuser@demo.local');
    const roles = (await admin.query('role.all')).data as { role_cuid: string; level: number }[];
    const expertRole = roles.find((r) => r.level === 2)!;
    const res = await admin.mutate('companyMembership.update', {
      membership_cuid: login.body.memberships[0].membership_cuid,
      role_cuid: expertRole.role_cuid,
    });
    expect(res.status).toBe(200);
    expect(res.data.role.level).toBe(2);
    expect((await member.request('GET', '/api/auth/session')).status).toBe(401);
    const relogin = await client().login('basic@demo.local');
    expect(relogin.body.memberships[0].role.level).toBe(2);
  });

  it('refuses mutations sent with a foreign Origin', async () => {
    const c = client();
    await c.login('superuser@demo.local');
    const res = await c.request('POST', '/api/trpc/user.deactivate', {
      body: JSON.stringify({ json: { user_cuid: 'x' } }),
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    const login = await client({ origin: 'https://evil.example' }).login('basic@demo.local');
    expect(login.status).toBe(403);
    const sameOrigin = await client({ origin: t.baseUrl }).login('basic@demo.local');
    expect(sameOrigin.status).toBe(200);
  });
});
