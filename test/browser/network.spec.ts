import { type BrowserPortal, signIn, startBrowserPortal } from './support/portal';

/**
 * The wire as Chromium lives it: the session check each second is a bodiless 304 on the network
 * while JavaScript still reads the whole context (a 200 from the browser's cache), a changed
 * context comes through at once, and the hashed scripts of a second visit come from the cache
 * without a request; scripts arrive brotli-compressed.
 */
describe('bytes on the wire in Chromium', () => {
  let portal: BrowserPortal;

  beforeAll(async () => {
    portal = await startBrowserPortal();
  });
  afterAll(async () => {
    await portal?.close();
  });

  it('checks the session with 304s on the wire; JavaScript reads the context, and a change at once', async () => {
    const { context, page } = await portal.newPage();
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const wire: { url: string; status: number }[] = [];
    const urls = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
    // The status the server actually sent (a revalidated answer reaches the page as the stored 200).
    cdp.on('Network.responseReceivedExtraInfo', (e) => wire.push({ url: urls.get(e.requestId) ?? '', status: e.statusCode }));
    await page.waitForTimeout(4_000);
    const checks = wire.filter((w) => new URL(w.url, 'http://x').pathname === '/api/auth/session');
    expect(checks.length).toBeGreaterThanOrEqual(3);
    // All but possibly the first (whose tag the browser may not hold yet) are 304s.
    expect(checks.slice(1).every((c) => c.status === 304)).toBe(true);

    let reads = 0;
    const read = () => {
      reads += 1;
      return page.evaluate(async () => {
        const res = await fetch('/api/auth/session?probe', { cache: 'no-cache', credentials: 'same-origin', headers: { accept: 'application/json' } });
        return {
          status: res.status,
          body: (await res.json()) as {
            user: { email: string; meta?: { preferences?: { toast_notifications?: { toast_notifications_disabled?: boolean } } } };
          },
        };
      });
    };
    // Its own URL (the same route), so the tab's own checks do not mix with these reads.
    // CDP reports the wire status on its own channel, possibly after fetch() has resolved in the
    // page: wait for the report of the read just made, not the one before it.
    const probes = () => wire.filter((w) => w.url.endsWith('?probe'));
    const lastProbe = async () => {
      for (let i = 0; i < 200 && probes().length < reads; i += 1) await page.waitForTimeout(25);
      return probes()[reads - 1]?.status;
    };
    const before = await read();
    expect(before.status).toBe(200);
    expect(before.body.user.email).toBe('basic@demo.local');
    const again = await read();
    expect(again).toEqual(before);
    expect(await lastProbe()).toBe(304);

    // The tab changes a preference (its session is renewed with the new context): the next read has it.
    const disabled = !before.body.user.meta?.preferences?.toast_notifications?.toast_notifications_disabled;
    const setPreference = (value: boolean) =>
      page.evaluate(async (v) => {
        const res = await fetch('/api/trpc/user.updatePreferences', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ json: { toast_notifications_disabled: v } }),
        });
        return res.status;
      }, value);
    expect(await setPreference(disabled)).toBe(200);
    const after = await read();
    expect(after.status).toBe(200);
    expect(await lastProbe()).toBe(200);
    expect(after.body.user.meta?.preferences?.toast_notifications?.toast_notifications_disabled).toBe(disabled);
    expect(await setPreference(!disabled)).toBe(200);
  });

  it('sends scripts brotli-compressed, and a second visit takes the hashed ones from the cache', async () => {
    const { context, page } = await portal.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const scripts: { url: string; encoding?: string; cached: boolean; visit: number }[] = [];
    const cachedIds = new Set<string>();
    let visit = 1;
    cdp.on('Network.requestServedFromCache', (e) => cachedIds.add(e.requestId));
    cdp.on('Network.responseReceived', (e) => {
      if (e.type !== 'Script') return;
      const encoding = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
      scripts.push({ url: e.response.url, encoding, cached: Boolean(e.response.fromDiskCache) || cachedIds.has(e.requestId), visit });
    });
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    const first = scripts.filter((s) => s.visit === 1 && /\/assets\//.test(s.url));
    expect(first.length).toBeGreaterThan(0);
    expect(first.filter((s) => !s.cached).some((s) => s.encoding === 'br')).toBe(true);
    visit = 2;
    await page.goto(portal.url('/'));
    await page.locator('[data-testid=greeting]').waitFor({ timeout: 20_000 });
    const second = scripts.filter((s) => s.visit === 2 && /\/assets\//.test(s.url));
    expect(second.length).toBeGreaterThan(0);
    // Every script the first visit fetched comes from the cache (the second may fetch more: links
    // prefetch the system page's code when they come into view).
    const firstUrls = new Set(first.map((s) => s.url));
    expect(second.filter((s) => firstUrls.has(s.url)).length).toBeGreaterThan(0);
    expect(second.filter((s) => firstUrls.has(s.url) && !s.cached)).toEqual([]);
  });
});
