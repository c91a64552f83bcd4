import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { openStream } from '../factories/sse';

/**
 * Conditional answers: the session check and tRPC queries carry an ETag over this caller's answer;
 * If-None-Match with it answers a bodiless 304 while nothing changed, a 200 with a new tag after a
 * change; a tag from someone else's answer never yields their data; errors, mutations and live
 * streams carry no tag.
 */
describe('conditional answers (ETag, 304)', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const list = { pagination: { page: 1, perPage: 50 }, sort: { field: 'name', order: 'ASC' }, filter: {} };
  const listPath = `/api/trpc/system.getList?input=${encodeURIComponent(JSON.stringify({ json: list }))}`;
  const batchPath = `/api/trpc/system.getList,role.all?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: list } }))}`;

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['basic', 'other', 'installer']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (who: string, path: string, etag?: string) => as[who].request('GET', path, { headers: etag ? { 'if-none-match': etag } : {} });

  /** The whole cycle on one path: tag, 304 while unchanged, 200 with a new tag after `change`. */
  async function cycle(who: string, path: string, change: () => Promise<void>) {
    const first = await get(who, path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const same = await get(who, path, etag);
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    expect(same.headers.get('etag')).toBe(etag);
    expect(same.headers.get('content-type')).toBeNull();
    expect(same.headers.get('cache-control')).toBe('private, no-cache');
    // Headers only, and few of them: the browser keeps the stored 200's own (security ones included).
    expect(same.headers.get('content-security-policy')).toBeNull();
    let headerBytes = 0;
    same.headers.forEach((value, name) => (headerBytes += `${name}: ${value}\r\n`.length));
    expect(headerBytes).toBeLessThan(200);
    expect(first.headers.get('content-security-policy')).toContain("default-src 'self'");
    // A list of tags, one of them current, matches too; an unknown one does not.
    expect((await get(who, path, `W/"nope", ${etag}`)).status).toBe(304);
    expect((await get(who, path, 'W/"nope"')).status).toBe(200);

    await change();
    const changed = await get(who, path, etag);
    expect(changed.status).toBe(200);
    expect(changed.text.length).toBeGreaterThan(0);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.text).not.toBe(first.text);
    expect((await get(who, path, changed.headers.get('etag')!)).status).toBe(304);
  }

  it('the session check: 304 while the context is unchanged, 200 with a new tag after a preference change', async () => {
    let disabled = false;
    await cycle('basic', '/api/auth/session', async () => {
      disabled = !disabled;
      expect((await as.basic.mutate('user.updatePreferences', { toast_notifications_disabled: disabled })).status).toBe(200);
    });
  });

  it('a tRPC query, single and batched: 304 while unchanged, 200 with a new tag after a change', async () => {
    const rename = async () => {
      await t.db.dataSource.query(`UPDATE system SET name = name || ' bis' WHERE name LIKE $1`, [`${DEMO_SYSTEMS.farm}%`]);
    };
    await cycle('basic', listPath, rename);
    await cycle('basic', batchPath, rename);
  });

  it("a tag taken from another user's answer is compared with this caller's own answer: their data never comes back", async () => {
    for (const path of ['/api/auth/session', listPath]) {
      const mine = await get('basic', path);
      const theirs = await get('other', path, mine.headers.get('etag')!);
      expect(theirs.status).toBe(200);
      expect(theirs.headers.get('etag')).not.toBe(mine.headers.get('etag'));
      expect(theirs.text).toBe((await get('other', path)).text);
      expect(theirs.text).not.toBe(mine.text);
      // Signed out, the same tag gets the 401, with no tag of its own.
      const anonymous = await new HttpClient(t.baseUrl).request('GET', path, { headers: { 'if-none-match': mine.headers.get('etag')! } });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('etag')).toBeNull();
      expect(anonymous.text).not.toContain(DEMO_SYSTEMS.farm);
    }
  });

  it('errors carry no tag and never answer 304, whatever If-None-Match says', async () => {
    const q = (path: string, input: unknown) => `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
    const failing = [
      q('system.getOne', { id: 'nosuchsystem' }), // 404
      q('system.getList', { pagination: { page: 0 } }), // 400
      q('user.getList', list), // 403 for a Basic user
      '/api/trpc/no.suchProcedure', // 404
      `/api/trpc/system.getList,system.getOne?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: list }, 1: { json: { id: 'nosuchsystem' } } }))}`, // mixed: 207
    ];
    for (const path of failing) {
      const res = await get('basic', path, '*');
      expect({ path, ok: res.status >= 400 || res.status === 207 }).toEqual({ path, ok: true });
      expect({ path, etag: res.headers.get('etag') }).toEqual({ path, etag: null });
      expect(res.text.length).toBeGreaterThan(0);
    }
  });

  it('mutations and live streams carry no tag', async () => {
    const res = await as.basic.request('POST', '/api/trpc/user.updatePreferences', {
      body: JSON.stringify({ json: { toast_notifications_disabled: false } }),
      headers: { 'content-type': 'application/json', 'if-none-match': '*' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeNull();
    const stream = await openStream(as.basic, 'portalNotification.onEvent', { 'if-none-match': '*' });
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('etag')).toBeNull();
    await stream.close();
  });
});
