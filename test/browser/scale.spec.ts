import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Cluster, startDemoCluster } from '../factories/cluster';
import type { TestDatabase } from '../factories/database';
import { haproxyConfig } from '../factories/haproxy';
import { HttpClient } from '../factories/http-client';
import { assertClientBuilt, launchChromium, screenshot } from './support/chromium';
import { eventually, PASSWORD, signIn } from './support/portal';

/** A stream HAProxy has carried this long is the page's live stream (the other requests take milliseconds). */
const LIVE_STREAM_AGE_S = 2;

/**
 * Issue 15: a person's browser on two built instances behind a real HAProxy, on one PostgreSQL
 * (TEST_DATABASE_URL; `npm run build` first). The instance holding the page's live stream (SSE)
 * is killed with SIGKILL: the page stays signed in, shows no burst of errors, its live stream
 * comes back on the other instance (a toast written after the kill arrives), navigation and a
 * save work; the killed instance comes back and takes the stream when the other one dies.
 */
describe('a browser session through HAProxy across kill -9', () => {
  let db: TestDatabase;
  let cluster: Cluster;
  let browser: Browser;
  let expert: HttpClient;
  let farm: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    assertClientBuilt();
    ({ db, cluster } = await startDemoCluster());
    const [row] = await db.dataSource.query<{ system_cuid: string }[]>(`SELECT system_cuid FROM system WHERE asset_number = 'DSL-0001'`);
    farm = row.system_cuid;
    browser = await launchChromium();
    expert = new HttpClient(cluster.url);
    expect((await expert.login('expert@demo.local', PASSWORD)).status).toBe(200);
  }, 240_000);
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await cluster?.stop();
    await db?.close();
  });

  /** The proxy's address, by the host name the other browser tests use. */
  const proxied = (path: string) => `http://localhost:${cluster.proxy.port}${path}`;

  const openSession = async (email: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await signIn(page, proxied('/auth/login'), email);
    await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor({ timeout: 20_000 });
    return page;
  };

  /** Writes a changelog entry of the farm (through the proxy): every signed-in member gets a toast. */
  const changelog = async (title: string) => {
    const res = await expert.mutate('systemChangelog.create', { system_cuid: farm, title, message: 'Written during a scale test.' });
    expect(res.status).toBe(200);
  };

  const toastTitled = (page: Page, title: string) => page.locator('[data-testid=toast]').filter({ hasText: title });

  /** The one instance carrying a long-lived stream: the page's live stream. */
  const streamHolder = async (): Promise<string> => {
    const holders = await eventually(
      async () => [...new Set((await cluster.proxy.streams()).filter((s) => s.ageSeconds >= LIVE_STREAM_AGE_S).map((s) => s.server))],
      (servers) => servers.length === 1,
      30_000,
    );
    expect(holders).toHaveLength(1);
    return holders[0];
  };

  /**
   * Everything the page shows as a notice from now on (react-admin's snackbars, with their kind),
   * seen by an observer in the page so that none is missed between two looks.
   */
  const watchNotices = (page: Page) =>
    page.evaluate(() => {
      const seen: { text: string; error: boolean }[] = [];
      (window as unknown as { __notices: typeof seen }).__notices = seen;
      new MutationObserver((records) => {
        for (const r of records)
          for (const node of Array.from(r.addedNodes)) {
            if (!(node instanceof HTMLElement)) continue;
            const bars = node.matches('.MuiSnackbar-root') ? [node] : Array.from(node.querySelectorAll<HTMLElement>('.MuiSnackbar-root'));
            for (const bar of bars)
              seen.push({ text: bar.textContent ?? '', error: /error/i.test(bar.className) || !!bar.querySelector('[class*=error], [class*=Error]') });
          }
      }).observe(document.body, { childList: true, subtree: true });
    });
  const notices = (page: Page) => page.evaluate(() => (window as unknown as { __notices: { text: string; error: boolean }[] }).__notices);

  /** Kills the holder of the page's live stream and checks the page lives on through the other instance. */
  const killHolderAndCheck = async (page: Page, step: string): Promise<{ holder: string; other: string; toastMs: number }> => {
    const holder = await streamHolder();
    const other = cluster.instances.map((i) => i.name).find((n) => n !== holder)!;
    await watchNotices(page);
    const sessionFailures: number[] = [];
    const onResponse = (r: { url(): string; status(): number }) => {
      if (new URL(r.url()).pathname === '/api/auth/session' && r.status() >= 400) sessionFailures.push(r.status());
    };
    page.on('response', onResponse);

    const killed = Date.now();
    await cluster.kill(holder);

    // The live stream comes back, on the other instance.
    await eventually(
      async () => (await cluster.proxy.streams()).filter((s) => s.ageSeconds >= LIVE_STREAM_AGE_S).map((s) => s.server),
      (servers) => servers.includes(other),
      30_000,
    );
    const streamBackMs = Date.now() - killed;
    expect(await streamHolder()).toBe(other);
    await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor({ timeout: 10_000 });

    // A toast written after the kill reaches the page within a few seconds.
    const title = `After the kill of ${holder} (${step})`;
    const written = Date.now();
    await changelog(title);
    await toastTitled(page, title).first().waitFor({ timeout: 10_000 });
    const toastMs = Date.now() - written;

    // Still signed in, on the same page; a few seconds later too (the session check runs each second).
    await page.waitForTimeout(3_000);
    expect(new URL(page.url()).pathname).toBe(`/systems/${farm}`);
    expect(await page.locator('[data-testid=login-email]').count()).toBe(0);
    await page.locator('[data-testid=system-page]').waitFor();
    page.off('response', onResponse);
    // At most one failed session check (a request already on the dying instance), never a storm of notices.
    expect(sessionFailures.length).toBeLessThanOrEqual(1);
    const shown = await notices(page);
    expect(shown.filter((n) => n.error)).toEqual([]);
    expect(shown.length).toBeLessThanOrEqual(1);
    console.log(`scale: kill -9 of ${holder} (${step}): live stream back on ${other} ${streamBackMs} ms after the kill, a toast ${toastMs} ms after its write`);
    return { holder, other, toastMs };
  };

  it('kill -9 of the instance holding the live stream: signed in, stream back on the other, navigation and a save work; then the other way round', async () => {
    const page = await openSession('basic@demo.local');
    await page.goto(proxied(`/systems/${farm}`));
    await page.locator('[data-testid=system-page]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor({ timeout: 20_000 });

    // The live stream works before anything happens.
    await changelog('Before any kill');
    await toastTitled(page, 'Before any kill').first().waitFor({ timeout: 10_000 });

    const first = await killHolderAndCheck(page, 'first');

    // Navigation through the side menu (in the page: its live stream stays where it is), and back to the system.
    const toTheFarm = async () => {
      await page.getByRole('menuitem', { name: 'Systems' }).click();
      await page.waitForURL(/\/system(\?.*)?$/);
      await page.getByText('Demo Farm Mini-grid', { exact: true }).click();
      await page.waitForURL(new RegExp(`/systems/${farm}$`));
      await page.locator('[data-testid=system-name]').waitFor();
      expect(await page.locator('[data-testid=system-name]').textContent()).toBe('Demo Farm Mini-grid');
    };
    await toTheFarm();

    // A save: the toast timeout on the preferences page (its notice shows the watch sees notices).
    await page.goto(proxied('/preferences'));
    await watchNotices(page);
    await page.locator('[data-testid=prefs-timeout]').click();
    await page.locator('[data-testid=prefs-timeout-5000]').click();
    await page.locator('[data-testid=prefs-save]').click();
    await page.getByText('Preferences saved').waitFor({ timeout: 10_000 });
    expect(await notices(page)).toEqual([{ text: expect.stringContaining('Preferences saved'), error: false }]);
    const stored = await db.dataSource.query<{ meta: { preferences?: { toast_notifications?: { toast_notification_timeout?: number } } } }[]>(
      `SELECT meta FROM "user" WHERE email = 'basic@demo.local'`,
    );
    expect(stored[0].meta.preferences?.toast_notifications?.toast_notification_timeout).toBe(5000);
    await screenshot(page, 'scale-after-kill');

    // The killed instance comes back; when the other one (holding the stream now) dies, the stream moves to it.
    await cluster.restart(first.holder);
    expect(await cluster.proxy.serverStates()).toEqual({ a: expect.stringMatching(/^UP/), b: expect.stringMatching(/^UP/) });
    // Without reloading the page (a reload would open a new stream, maybe on the restarted one).
    await toTheFarm();
    await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor({ timeout: 20_000 });
    const second = await killHolderAndCheck(page, 'second');
    expect(second.other).toBe(first.holder);
    await cluster.restart(second.holder);
  }, 240_000);

  it('the live stream sends keep-alives well inside HAProxy’s idle limits, through the proxy', async () => {
    const conf = haproxyConfig(1, [], 'stats.sock');
    const limit = (name: string) => Number(new RegExp(`timeout ${name} (\\d+)s`).exec(conf)![1]) * 1000;
    const idleLimit = Math.min(limit('server'), limit('client'));

    const controller = new AbortController();
    const res = await fetch(`${cluster.url}/api/trpc/portalNotification.onEvent`, {
      headers: { cookie: expert.cookieHeader(), accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const opened = Date.now();
    const pings: number[] = [];
    let text = '';
    try {
      while (pings.length < 2 && Date.now() - opened < 60_000) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        for (let at = text.indexOf('event: ping'); at >= 0; at = text.indexOf('event: ping')) {
          pings.push(Date.now());
          text = text.slice(at + 'event: ping'.length);
        }
      }
    } finally {
      controller.abort();
    }
    // Two keep-alives on one open stream, each gap far below the idle limit (a quiet stream is never cut).
    expect(pings).toHaveLength(2);
    const gaps = [pings[0] - opened, pings[1] - pings[0]];
    for (const gap of gaps) expect(gap).toBeLessThan(idleLimit / 4);
    console.log(`scale: keep-alives after ${gaps.join(' ms and ')} ms; HAProxy idle limit ${idleLimit} ms`);
  }, 120_000);
});
