import { loadConfig } from '../../../server/src/api/app-config';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../factories/app';
import { HttpClient } from '../../factories/http-client';
import { assertClientBuilt, launchChromium } from './chromium';

export const PASSWORD = 'demo-password';

/** The built app on a random port plus one Chromium; pages get fresh contexts (own cookies). */
export interface BrowserPortal {
  app: TestApp;
  browser: Browser;
  /** http://<host>:<port>; the server picks the brand from the host name. */
  url(path?: string, host?: 'localhost' | '127.0.0.1'): string;
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
  /** An API client signed in as another user (the tRPC wire, as the HTTP tests use it). */
  api(email: string): Promise<HttpClient>;
  systemCuid(assetNumber: string): Promise<string>;
  userCuid(email: string): Promise<string>;
  close(): Promise<void>;
}

export async function startBrowserPortal(env: Record<string, string> = {}, options: { liveOverPostgres?: boolean } = {}): Promise<BrowserPortal> {
  assertClientBuilt();
  // People click: the per-session brake at its default, so these tests show the portal never trips it.
  const app = await startTestApp({ REQUESTS_PER_SESSION_PER_SECOND: String(loadConfig({}).REQUESTS_PER_SESSION_PER_SECOND), ...env }, options);
  const browser = await launchChromium();
  const port = new URL(app.baseUrl).port;
  const contexts: BrowserContext[] = [];
  return {
    app,
    browser,
    url: (path = '/', host = 'localhost') => `http://${host}:${port}${path}`,
    async newPage() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
      return { context, page };
    },
    async api(email: string) {
      const client = new HttpClient(app.baseUrl);
      const res = await client.login(email, PASSWORD);
      if (res.status !== 200) throw new Error(`API login of ${email} failed: ${res.status} ${res.text}`);
      return client;
    },
    async systemCuid(assetNumber: string) {
      const rows = await app.db.dataSource.query<{ system_cuid: string }[]>('SELECT system_cuid FROM system WHERE asset_number = $1', [assetNumber]);
      if (!rows[0]) throw new Error(`No system ${assetNumber} in the demo data`);
      return rows[0].system_cuid;
    },
    async userCuid(email: string) {
      const rows = await app.db.dataSource.query<{ user_cuid: string }[]>('SELECT user_cuid FROM "user" WHERE email = $1', [email]);
      if (!rows[0]) throw new Error(`No user ${email} in the demo data`);
      return rows[0].user_cuid;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await app.close();
    },
  };
}

/** Signs in through the login page and waits for the shell's home page. */
export async function signIn(page: Page, loginUrl: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(loginUrl);
  await page.locator('[data-testid=login-email]').fill(email);
  await page.locator('[data-testid=login-password]').fill(password);
  await page.locator('[data-testid=login-password]').press('Enter');
  await page.locator('[data-testid=greeting], [data-testid=preferences]').first().waitFor({ timeout: 20_000 });
}

/** Polls `read` until `check` holds or the time is up (the UI answers before or after the write lands). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeout = 15_000): Promise<T> {
  const end = Date.now() + timeout;
  let value = await read();
  while (!check(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

/**
 * One portal for a test file (Jest hooks): started before the first test and handed to `set`,
 * the contexts a test pushes into the returned list closed after it, everything closed at the end.
 */
export function portalPerFile(set: (portal: BrowserPortal) => void): BrowserContext[] {
  let portal: BrowserPortal | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    portal = await startBrowserPortal();
    set(portal);
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await portal?.close();
  });
  return contexts;
}

/** A new page signed in as `email` and opened at `path`; its context goes in `contexts` (closed after the test, see portalPerFile). */
export async function openAs(portal: BrowserPortal, contexts: BrowserContext[], email: string, path: string): Promise<Page> {
  const { context, page } = await portal.newPage();
  contexts.push(context);
  await signIn(page, portal.url('/auth/login'), email);
  await page.goto(portal.url(path));
  return page;
}
