import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { ControllerOnlineStateService } from '../../server/src/telemetry/controller-online-state.service';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { decoded, rawGet } from '../factories/raw-http';
import { openStream } from '../factories/sse';
import { clientBuild } from './client-build';

jest.setTimeout(180_000);

const TEXT = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.html', '.txt', '.xml', '.webmanifest']);

/**
 * Bytes on the wire: built assets sent as precompressed at build time (br or gzip as asked, the
 * same bytes once decoded), cached a year under hashed names; the page and the API compressed on
 * the fly above 1 KB; live streams and byte ranges never.
 */
describe('compression and cache lifetimes', () => {
  let t: TestApp;
  let build: ReturnType<typeof clientBuild>;
  let basic: HttpClient;
  let expert: HttpClient;
  let farm: string;

  beforeAll(async () => {
    build = clientBuild();
    t = await startTestApp({ CLIENT_DIR: build.dir });
    basic = new HttpClient(t.baseUrl);
    expert = new HttpClient(t.baseUrl);
    expect((await basic.login('basic@demo.local')).status).toBe(200);
    expect((await expert.login('expert@demo.local')).status).toBe(200);
    farm = (await t.db.dataSource.query(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]))[0].system_cuid;
    // The first sweep gives the demo controller its contact time (the grace period starts): done
    // now, so the answers compared below (plain, then compressed) read the same rows.
    await t.app.get(ControllerOnlineStateService).sweep();
  });
  afterAll(async () => {
    await t?.close();
    build?.cleanup();
  });

  const assets = () =>
    readdirSync(join(build.dir, 'assets'))
      .filter((f) => !f.endsWith('.br') && !f.endsWith('.gz'))
      .map((name) => ({ name, raw: readFileSync(join(build.dir, 'assets', name)) }));

  it('the build precompressed every text asset above 1 KB (and nothing else)', () => {
    const list = assets();
    expect(list.length).toBeGreaterThan(3);
    for (const { name, raw } of list) {
      const eligible = TEXT.has(extname(name)) && raw.length >= 1024;
      const br = join(build.dir, 'assets', `${name}.br`);
      expect({ name, br: statSync(br, { throwIfNoEntry: false }) !== undefined }).toEqual({ name, br: eligible });
    }
  });

  for (const encoding of ['br', 'gzip'] as const) {
    it(`serves every asset with ${encoding} when asked, the same bytes once decoded, cached a year as immutable`, async () => {
      for (const { name, raw } of assets()) {
        const res = await rawGet(`${t.baseUrl}/assets/${name}`, { 'accept-encoding': encoding === 'br' ? 'gzip, deflate, br' : 'gzip' });
        expect({ name, status: res.status }).toEqual({ name, status: 200 });
        const stored = statSync(join(build.dir, 'assets', `${name}.${encoding === 'br' ? 'br' : 'gz'}`), { throwIfNoEntry: false });
        // Precompressed files go as stored; the rest (small, or images) as they are.
        expect({ name, encoding: res.headers['content-encoding'] }).toEqual({ name, encoding: stored ? encoding : undefined });
        if (stored) expect(res.body.length).toBe(stored.size);
        expect(decoded(res).equals(raw)).toBe(true);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        if (TEXT.has(extname(name)) && raw.length >= 1024) expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      }
    });
  }

  it('serves assets whole to a client that asks for no encoding', async () => {
    for (const { name, raw } of assets()) {
      const res = await rawGet(`${t.baseUrl}/assets/${name}`);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.equals(raw)).toBe(true);
    }
  });

  it('renders the page no-cache, compressed when it is over 1 KB', async () => {
    let compressed = 0;
    for (const path of ['/', '/auth/login', '/systems/42']) {
      const plain = await rawGet(`${t.baseUrl}${path}`, { host: 'localhost:3000' });
      expect(plain.status).toBe(200);
      expect(plain.headers['cache-control']).toBe('no-cache');
      const br = await rawGet(`${t.baseUrl}${path}`, { host: 'localhost:3000', 'accept-encoding': 'br' });
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers['content-encoding']).toBe(plain.body.length >= 1024 ? 'br' : undefined);
      expect(decoded(br).toString()).toBe(plain.body.toString());
      if (br.headers['content-encoding'] === 'br') compressed++;
    }
    // The page with its brand head is over 1 KB: this is the compressed case, not only the threshold.
    expect(compressed).toBe(3);
  });

  it('caches brand images a day and revalidates them by ETag', async () => {
    for (const name of ['favicon.svg', 'og-default.png']) {
      const res = await rawGet(`${t.baseUrl}/brand/${name}`, { 'accept-encoding': 'br, gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      const etag = String(res.headers.etag);
      expect(etag).toMatch(/^(W\/)?"/);
      const again = await rawGet(`${t.baseUrl}/brand/${name}`, { 'accept-encoding': 'br, gzip', 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    }
  });

  it('compresses API answers of 1 KB and more (br or gzip as asked), never smaller ones', async () => {
    const list = { pagination: { page: 1, perPage: 50 }, sort: { field: 'name', order: 'ASC' }, filter: {} };
    const q = (path: string, input: unknown) => `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
    const paths = ['/api/health', '/api/branding', '/api/auth/session', q('system.getList', list), q('system.getOne', { id: farm }), q('role.all', undefined)];
    const seen = { small: 0, large: 0 };
    for (const path of paths) {
      const cookie = basic.cookieHeader();
      const plain = await rawGet(t.baseUrl + path, { cookie });
      expect({ path, status: plain.status }).toEqual({ path, status: 200 });
      expect(plain.headers['content-encoding']).toBeUndefined();
      for (const [ask, want] of [
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['gzip, deflate, br', 'br'],
      ] as const) {
        const res = await rawGet(t.baseUrl + path, { cookie, 'accept-encoding': ask });
        const large = plain.body.length >= 1024;
        expect({ path, ask, encoding: res.headers['content-encoding'] }).toEqual({ path, ask, encoding: large ? want : undefined });
        expect(decoded(res).toString()).toBe(plain.body.toString());
        if (large) {
          expect(res.body.length).toBeLessThan(plain.body.length / 2);
          expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
        }
      }
      seen[plain.body.length >= 1024 ? 'large' : 'small']++;
    }
    // Both sides of the threshold were exercised.
    expect(seen.small).toBeGreaterThan(0);
    expect(seen.large).toBeGreaterThan(0);
  });

  it('sends a live stream uncompressed, each event at once, to a client that accepts br', async () => {
    const stream = await openStream(basic, 'portalNotification.onEvent', { 'accept-encoding': 'br, gzip' });
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.res.headers.get('content-encoding')).toBeNull();
    await new Promise((r) => setTimeout(r, 200));
    for (const title of ['First over the wire', 'Second over the wire']) {
      const before = stream.events.length;
      expect((await expert.mutate('systemChangelog.create', { system_cuid: farm, title, message: '' })).status).toBe(200);
      // Each event arrives before the next one is written (an order, not a time): a compressor
      // would hold it back until more bytes came.
      await stream.waitFor(before + 1, 3000);
      expect(stream.events).toHaveLength(before + 1);
      expect(stream.events[before]?.toast.title).toMatch(title);
    }
    await stream.close();
  });
});
