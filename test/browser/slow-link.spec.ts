import type { BrowserContext, CDPSession, Page, Request } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, eventually, signIn, startBrowserPortal } from './support/portal';

/**
 * The client on slow and flaky links (docs/client-network.md), in Chromium with the DevTools
 * protocol's network emulation: the boot without a session, a lost connection on the system page,
 * the session through a 30-s drop, prefetching the system page from a list.
 */
describe('slow and flaky links in Chromium', () => {
  let portal: BrowserPortal;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    portal = await startBrowserPortal();
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await portal?.close();
  });

  async function newPage(viewport = { width: 1280, height: 800 }): Promise<{ page: Page; cdp: CDPSession }> {
    const context = await portal.browser.newContext({ viewport, locale: 'en-GB' });
    contexts.push(context);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    return { page, cdp };
  }

  /** 400 kbit/s each way, 400 ms round trip (a poor 3G link). */
  const THREE_G = { offline: false, latency: 400, downloadThroughput: (400 * 1000) / 8, uploadThroughput: (400 * 1000) / 8 };
  const OFFLINE = { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
  const ONLINE = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

  /** The shell's chunk (react-admin, MUI, the session loop): /assets/App-<hash>.js. */
  const isShellChunk = (url: string) => /\/assets\/App-[\w-]+\.js$/.test(new URL(url).pathname);

  /** Error and warning notifications of react-admin, counted as they appear. */
  async function countNotifications(page: Page): Promise<() => Promise<number>> {
    await page.addInitScript(() => {
      const w = window as unknown as { __notifications: string[] };
      w.__notifications = [];
      const seen = new WeakSet<Element>();
      new MutationObserver(() => {
        document.querySelectorAll('.RaNotification-error, .RaNotification-warning').forEach((el) => {
          if (seen.has(el)) return;
          seen.add(el);
          w.__notifications.push(el.textContent ?? '');
        });
      }).observe(document, { childList: true, subtree: true });
    });
    return () => page.evaluate(() => (window as unknown as { __notifications: string[] }).__notifications.length);
  }

  it('/ without a session on a 3G link: the login form without any shell code, the shell fetched only afterwards', async () => {
    const { page, cdp } = await newPage();
    await cdp.send('Network.emulateNetworkConditions', THREE_G);
    // The page's own clock: when the email field first exists.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('[data-testid=login-email]')) return;
        (window as unknown as { __formAt: number }).__formAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const started = Date.now();
    await page.goto(portal.url('/'), { waitUntil: 'commit' });
    await page.locator('[data-testid=login-email]').waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(await page.locator('[data-testid=login-notice]').getAttribute('data-reason')).toBe('MISSING');
    /** Resources the page fetched, with their start in the page's clock. */
    const timeline = () =>
      page.evaluate(() => ({
        formAt: (window as unknown as { __formAt: number }).__formAt,
        resources: performance
          .getEntriesByType('resource')
          .map((e) => ({ url: e.name, start: e.startTime, size: (e as PerformanceResourceTiming).transferSize })),
      }));
    const first = await timeline();
    const beforeForm = first.resources.filter((r) => r.start < first.formAt);
    expect(beforeForm.filter((r) => isShellChunk(r.url))).toEqual([]);
    // The page itself said there is no session (#portal-session): no session request was needed.
    expect(beforeForm.some((r) => r.url.endsWith('/api/auth/session'))).toBe(false);
    const bytes = beforeForm.reduce((sum, r) => sum + r.size, 0);
    console.log(
      `slow-link: login form ${Math.round(first.formAt)} ms after the navigation started (${Date.now() - started} ms seen by the test), ${beforeForm.length + 1} files, ${bytes} bytes of resources`,
    );
    await screenshot(page, 'slow-link-login');

    // Then, the browser idle, the shell's code comes in the background, after the form.
    // (A resource's entry appears once it has arrived.)
    const later = await eventually(timeline, (t) => t.resources.some((r) => isShellChunk(r.url)), 90_000);
    const shell = later.resources.find((r) => isShellChunk(r.url));
    expect(shell).toBeDefined();
    expect(shell!.start).toBeGreaterThanOrEqual(later.formAt);

    // Signing in now needs no shell code from the network: the first screen comes with its data only.
    const shellFetches = (await timeline()).resources.filter((r) => isShellChunk(r.url)).length;
    const signInAt = Date.now();
    await page.locator('[data-testid=login-email]').fill('basic@demo.local');
    await page.locator('[data-testid=login-password]').fill('demo-password');
    await page.locator('[data-testid=login-password]').press('Enter');
    await page.locator('[data-testid=greeting]').waitFor({ timeout: 60_000 });
    console.log(`slow-link: home shown ${Date.now() - signInAt} ms after submitting the login form (shell code warmed)`);
    expect((await timeline()).resources.filter((r) => isShellChunk(r.url)).length).toBe(shellFetches);

    // A second visit (same browser, its cache as the server's headers allow): a figure, no goal here.
    const again = Date.now();
    await page.goto(portal.url('/'), { waitUntil: 'commit' });
    await page.locator('[data-testid=greeting]').waitFor({ timeout: 60_000 });
    console.log(`slow-link: second visit to / shows the home ${Date.now() - again} ms after navigating`);
  });

  it('a deep link without a session: the login page at once, then back to the deep link', async () => {
    const { page } = await newPage();
    const requests: string[] = [];
    page.on('request', (r: Request) => requests.push(r.url()));
    await page.goto(portal.url('/system?displayedFilters=%7B%7D'));
    await page.waitForURL(/\/auth\/login$/);
    await page.locator('[data-testid=login-email]').waitFor();
    expect(requests.filter(isShellChunk).length).toBeLessThanOrEqual(1);
    await page.locator('[data-testid=login-email]').fill('expert@demo.local');
    await page.locator('[data-testid=login-password]').fill('demo-password');
    await page.locator('[data-testid=login-password]').press('Enter');
    await page.waitForURL((url) => url.pathname === '/system');
    await page.locator('[data-testid=system-link]').first().waitFor();
  });

  it('the server unreachable while the page starts: an offline page that tries again by itself', async () => {
    const { page } = await newPage();
    // A page without the session's answer in it (a copy kept by an intermediary): the entry asks.
    await page.route(portal.url('/'), async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script id="portal-session"[\s\S]*?<\/script>/, '');
      expect(body).not.toContain('portal-session');
      await route.fulfill({ response, body });
    });
    let refused = 0;
    await page.route('**/api/auth/session', async (route) => {
      if (refused < 2) {
        refused++;
        await route.abort('internetdisconnected');
      } else {
        await route.continue();
      }
    });
    await page.goto(portal.url('/'));
    const offline = page.locator('[data-testid=boot-offline]');
    await offline.waitFor();
    expect(await offline.textContent()).toContain('You are offline');
    await screenshot(page, 'slow-link-boot-offline');
    // No click: the page tries again by itself (every 5 s) until the server answers.
    await page.locator('[data-testid=login-email]').waitFor({ timeout: 20_000 });
    expect(refused).toBe(2);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
  });

  it('a lost connection on the system page: one banner, the data stays, no error toasts, the session survives 30 s offline', async () => {
    const { page, cdp } = await newPage();
    const notifications = await countNotifications(page);
    await signIn(page, portal.url('/auth/login'), 'expert@demo.local');
    const farm = await portal.systemCuid('DSL-0001');
    await page.goto(portal.url(`/systems/${farm}`));
    const name = page.locator('[data-testid=system-name]');
    await name.waitFor();
    const shownName = await name.textContent();
    const banner = page.locator('[data-testid=offline-banner]');
    expect(await banner.count()).toBe(0);

    await cdp.send('Network.emulateNetworkConditions', OFFLINE);
    await banner.waitFor({ timeout: 5_000 });
    expect(await banner.textContent()).toContain('You are offline — retrying…');
    expect(await page.locator('[data-testid=offline-data-age]').textContent()).toMatch(/^Shown data updated /);
    await screenshot(page, 'slow-link-offline-banner');

    // 30 s without a network: the page refetches every 10 s and the session loop checks every second.
    await page.waitForTimeout(30_000);
    expect(new URL(page.url()).pathname).toBe(`/systems/${farm}`);
    expect(await name.textContent()).toBe(shownName);
    expect(await page.locator('[data-testid=system-error]').count()).toBe(0);
    expect(await banner.isVisible()).toBe(true);
    expect(await notifications()).toBe(0);

    await cdp.send('Network.emulateNetworkConditions', ONLINE);
    await banner.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await name.textContent()).toBe(shownName);
    expect(new URL(page.url()).pathname).toBe(`/systems/${farm}`);
    // Still signed in: the cookie answers, and the page refetches.
    expect(await page.evaluate(async () => (await fetch('/api/auth/session')).status)).toBe(200);
    const refreshed = await page.waitForResponse((r) => r.url().includes('telemetry.latest') && r.status() === 200, { timeout: 15_000 });
    expect(refreshed.ok()).toBe(true);
    expect(await notifications()).toBe(0);
  });

  it('a list prefetches the system page (code and first data) of the links that scroll near the viewport, before any click', async () => {
    const admin = await portal.api('superuser@demo.local');
    const [{ company_cuid }] = await portal.app.db.dataSource.query<{ company_cuid: string }[]>('SELECT company_cuid FROM system WHERE asset_number = $1', [
      'DSL-0001',
    ]);
    for (let i = 0; i < 24; i++) {
      const res = await admin.mutate('system.create', { data: { company_cuid, name: `Prefetch ${String(i).padStart(2, '0')}`, timezone: 'Africa/Lagos' } });
      expect(res.status).toBe(200);
    }

    const { page } = await newPage({ width: 1280, height: 600 });
    const latest: { url: string; at: number }[] = [];
    const pageChunk: number[] = [];
    page.on('request', (r: Request) => {
      const url = decodeURIComponent(r.url());
      if (url.includes('/api/trpc/') && url.includes('telemetry.latest')) latest.push({ url, at: Date.now() });
      if (/\/assets\/SystemPage-[\w-]+\.js$/.test(new URL(r.url()).pathname)) pageChunk.push(Date.now());
    });
    // Signed in from the deep link, straight onto the list (the home page would prefetch its own links).
    await page.goto(portal.url('/system?sort=name&order=ASC&perPage=25'));
    await page.locator('[data-testid=login-email]').fill('superuser@demo.local');
    await page.locator('[data-testid=login-password]').fill('demo-password');
    await page.locator('[data-testid=login-password]').press('Enter');
    await page.waitForURL((url) => url.pathname === '/system');
    const links = page.locator('[data-testid=system-link]');
    await links.nth(20).waitFor();
    await page.waitForTimeout(1500);

    // Where each link is, and which ones are well below the viewport's 200-px margin (the list's
    // toolbar may push rows down after they first rendered: a margin of 200 px more).
    const rows = await links.evaluateAll((els) =>
      els.map((el) => ({ cuid: decodeURIComponent((el as HTMLAnchorElement).pathname.split('/').pop() ?? ''), top: el.getBoundingClientRect().top })),
    );
    const height = await page.evaluate(() => window.innerHeight);
    const near = rows.filter((r) => r.top < height + 200);
    const far = rows.filter((r) => r.top > height + 400);
    expect(near.length).toBeGreaterThan(0);
    expect(far.length).toBeGreaterThan(3);
    const prefetched = (cuid: string) => latest.some((l) => l.url.includes(cuid));
    // The links in (or near) view have prefetched their page's data and code…
    for (const r of near) expect(prefetched(r.cuid)).toBe(true);
    expect(pageChunk.length).toBeGreaterThan(0);
    // …the far ones not yet.
    for (const r of far) expect(prefetched(r.cuid)).toBe(false);

    // Scrolling brings the last one near: its data is asked for before any click.
    const last = far[far.length - 1];
    await links.last().scrollIntoViewIfNeeded();
    await eventually(
      async () => prefetched(last.cuid),
      (v) => v,
      5_000,
    );
    expect(prefetched(last.cuid)).toBe(true);
    // Once per link: scrolling away and back does not ask again.
    const count = latest.filter((l) => l.url.includes(last.cuid)).length;
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await links.last().scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    expect(latest.filter((l) => l.url.includes(last.cuid)).length).toBe(count);

    // The click shows the page from the cache at once.
    await links.last().click();
    await page.locator(`[data-testid=system-page][data-system="${last.cuid}"]`).waitFor({ timeout: 5_000 });
  });
});
