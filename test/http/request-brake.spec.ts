import { RequestBrake } from '../../server/src/api/request-brake';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/**
 * Class "a session calling faster than its share" (docs/security.md "Budgets and fair shares"):
 * every tRPC call of a session takes a token (each call of a batch counts); past
 * REQUESTS_PER_SESSION_BURST at REQUESTS_PER_SESSION_PER_SECOND the request answers 429 with
 * Retry-After and a clear message (French too) before anything runs (a braked mutation writes
 * nothing); a colleague's session and another company's users are not slowed; requests without a
 * session are not braked (one bucket per proxy address would let a visitor stall the others).
 * The rate is tiny here (one call per 1000 s) so nothing refills while the test runs.
 */
const BURST = 6;
let t: TestApp;
let companyA: string;

async function login(email: string, headers: Record<string, string> = {}): Promise<HttpClient> {
  const c = new HttpClient(t.baseUrl, headers);
  expect((await c.login(email)).status).toBe(200);
  return c;
}
/** A batch of `n` calls of role.all (GET), as the portal's client sends them. */
const batch = (c: HttpClient, n: number) =>
  c.request('GET', `/api/trpc/${Array(n).fill('role.all').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`);

beforeAll(async () => {
  t = await startTestApp({ REQUESTS_PER_SESSION_PER_SECOND: '0.001', REQUESTS_PER_SESSION_BURST: String(BURST) });
  [{ company_cuid: companyA }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
});
afterAll(async () => {
  await t?.close();
});

describe('class "a session calling faster than its share"', () => {
  it('every call counts (a batch of 4 takes 4); past the burst 429 with Retry-After, in English and French; a braked mutation writes nothing', async () => {
    const a = await login('basic@demo.local');
    expect((await batch(a, 4)).status).toBe(200);
    expect((await a.query('role.all')).status).toBe(200);
    expect((await a.query('role.all')).status).toBe(200);
    const refused = await a.query('role.all');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.error?.data.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.error?.message).toMatch(/^Too many requests from this session; try again in \d+ s$/);
    expect(refused.text).not.toMatch(/at \w+ \(|SELECT|node_modules/);
    // A batch that no longer fits is refused whole.
    expect((await batch(a, 2)).status).toBe(429);

    const channels = async () => (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM notification_channel`))[0].n;
    const before = await channels();
    const write = await a.mutate('emailChannel.create', { company_cuid: companyA, email: 'braked@example.org' });
    expect(write.status).toBe(429);
    expect(await channels()).toBe(before);

    const fr = await login('expert@demo.local', { 'accept-language': 'fr' });
    for (let i = 0; i < BURST; i++) expect((await fr.query('role.all')).status).toBe(200);
    const refusedFr = await fr.query('role.all');
    expect(refusedFr.status).toBe(429);
    expect(refusedFr.error?.message).toMatch(/^Trop de requêtes depuis cette session ; réessayez dans \d+ s$/);
  });

  it("a braked session does not slow a colleague's session, another company's user, or requests without a session", async () => {
    const flooder = await login('installer@demo.local');
    for (let i = 0; i < BURST; i++) await flooder.query('role.all');
    for (let i = 0; i < 20; i++) expect((await flooder.query('role.all')).status).toBe(429);
    const colleague = await login('superuser@demo.local');
    const other = await login('other@demo.local');
    for (let i = 0; i < BURST; i++) {
      expect((await colleague.query('role.all')).status).toBe(200);
      expect((await other.query('role.all')).status).toBe(200);
    }
    const anonymous = new HttpClient(t.baseUrl);
    for (let i = 0; i < BURST * 3; i++) expect((await anonymous.query('role.all')).status).not.toBe(429);
  });
});

describe('the bucket', () => {
  it('refills at its rate up to its size, tells how long to wait, and forgets nothing it still limits', () => {
    const b = new RequestBrake(2, 4);
    expect(b.take('s', 4, 0)).toBe(0);
    expect(b.take('s', 1, 0)).toBe(1);
    // half a second later one token is back
    expect(b.take('s', 1, 500)).toBe(0);
    expect(b.take('s', 1, 500)).toBe(1);
    // a long rest refills to the size, never above
    expect(b.take('s', 4, 60_000)).toBe(0);
    expect(b.take('s', 1, 60_000)).toBe(1);
    // a call larger than the bucket is told to wait for a full bucket
    expect(b.take('s', 9, 60_000)).toBe(2);
    // another key has its own bucket
    expect(b.take('t', 4, 60_000)).toBe(0);
    expect(new RequestBrake(0, 1).take('s', 1000, 0)).toBe(0);
  });
});
