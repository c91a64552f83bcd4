import superjson from 'superjson';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/** A batched tRPC POST as httpBatchLink sends it: paths joined by commas, inputs keyed by index. */
async function batchPost(c: HttpClient, calls: { path: string; input: unknown }[]) {
  const body = Object.fromEntries(calls.map((call, i) => [String(i), superjson.serialize(call.input)]));
  return c.request('POST', `/api/trpc/${calls.map((x) => x.path).join(',')}?batch=1`, {
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

describe('tRPC batch size and password-change limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const passwordHash = async (email: string) => (await t.db.dataSource.query(`SELECT password FROM "user" WHERE email = $1`, [email]))[0].password as string;

  it('a batch over the limit (50, TRPC_MAX_BATCH_SIZE) is refused whole with 413 and a clear message, before any call runs', async () => {
    const c = new HttpClient(t.baseUrl);
    const login = await c.login('expert@demo.local');
    const me = login.body.user.user_cuid as string;
    const huge = await c.request('GET', `/api/trpc/${Array(555).fill('role.all').join(',')}?batch=1`);
    expect(huge.status).toBe(413);
    expect(JSON.stringify(huge.body)).toMatch(/at most 50 calls/);

    const before = await passwordHash('expert@demo.local');
    const updates = Array.from({ length: 100 }, (_, i) => ({ path: 'user.update', input: { id: me, data: { password: `new-password-${i}-long-enough` } } }));
    const refused = await batchPost(c, updates);
    expect(refused.status).toBe(413);
    expect(await passwordHash('expert@demo.local')).toBe(before);
    expect((await c.request('GET', '/api/auth/session')).status).toBe(200);

    const atLimit = await c.request('GET', `/api/trpc/${Array(50).fill('role.all').join(',')}?batch=1`);
    expect(atLimit.status).toBe(200);
  });

  it('password changes are rate-limited per acting user: a burst gets 429 past the limit (10 a minute)', async () => {
    const admin = new HttpClient(t.baseUrl);
    await admin.login('superuser@demo.local');
    const target = (await t.db.dataSource.query(`SELECT user_cuid FROM "user" WHERE email = 'installer@demo.local'`))[0].user_cuid as string;
    const updates = Array.from({ length: 20 }, (_, i) => ({
      path: 'user.update',
      input: { id: target, data: { password: `burst-password-${i}-long-enough` } },
    }));
    const res = await batchPost(admin, updates);
    const items = res.body as { result?: unknown; error?: { json: { data: { httpStatus: number; code: string } } } }[];
    expect(items).toHaveLength(20);
    const limited = items.filter((i) => i.error?.json.data.code === 'TOO_MANY_REQUESTS');
    expect(items.filter((i) => i.result).length).toBeLessThanOrEqual(10);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(limited[0].error!.json.data.httpStatus).toBe(429);
    // Still braked a moment later, for user.create with a password too; other edits go on.
    expect((await admin.mutate('user.update', { id: target, data: { password: 'one-more-password-long' } })).status).toBe(429);
    const roles = (await admin.query('role.all')).data as { role_cuid: string; level: number }[];
    const companies = await t.db.dataSource.query<{ company_cuid: string }[]>(`SELECT company_cuid FROM company LIMIT 1`);
    const create = await admin.mutate('user.create', {
      data: {
        email: 'brake@demo.local',
        name: 'Brake',
        password: 'brake-password-long',
        role_cuid: roles.find((r) => r.level === 3)!.role_cuid,
        company_cuid: companies[0].company_cuid,
      },
    });
    expect(create.status).toBe(429);
    expect((await admin.mutate('user.update', { id: target, data: { name: 'Renamed Installer' } })).status).toBe(200);
    // The brake is per acting user: another user changes their own password at once.
    const other = new HttpClient(t.baseUrl);
    const otherLogin = await other.login('basic@demo.local');
    const ok = await other.mutate('user.update', {
      id: otherLogin.body.user.user_cuid,
      data: { password: 'basic-new-password-long', current_password: 'demo-password' },
    });
    expect(ok.status).toBe(200);
  });
});
