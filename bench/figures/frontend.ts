import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../test/factories/chromium';
import { type BenchContext, type FigureResult, median, scratchDatabase, startServer } from '../lib';
import { kb, sumOf, tapWire } from './wire';

/**
 * Figures of the browser app, measured in headless Chromium against the built server:
 * - `login_js`: KB of JavaScript transferred until /auth/login's form is usable (CDP
 *   encodedDataLength: the precompressed br/gzip bytes the server sent for Chromium's own
 *   accept-encoding; goal ≤ 150 KB), and `login_js_background`: the shell's code the page then
 *   fetches while the browser is idle;
 * - `shell_js`: the same for the first shell page after signing in (goal ≤ 350 KB);
 * - `login_tti`: navigation start → the email field is enabled and a keystroke lands in it (ms,
 *   median of 5 cold loads).
 * Needs `npm run build` (the client in dist/client) and Debian's chromium (CHROMIUM_PATH).
 */
const LOGIN_BUDGET_KB = 150;
const SHELL_BUDGET_KB = 350;
const TTI_RUNS = 5;

interface Portal {
  baseUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function withPortal<T>(ctx: BenchContext, label: string, work: (portal: Portal) => Promise<T>): Promise<T> {
  if (!existsSync(resolve(process.cwd(), 'dist', 'client', 'index.html'))) {
    throw new Error('dist/client is missing: run npm run build (the browser app) before these figures');
  }
  const db = await scratchDatabase(ctx.serverUrl, label);
  const server = await startServer({
    DATABASE_URL: db.url,
    SEED_DEMO: 'true',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  });
  const browser = await launchChromium();
  // The demo brand lives on "localhost".
  const baseUrl = server.baseUrl.replace('127.0.0.1', 'localhost');
  try {
    return await work({ baseUrl, browser, close: async () => undefined });
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
    await db.drop();
  }
}

/**
 * Sums the scripts a page loaded as they crossed the wire (CDP encodedDataLength: what the server
 * sent, compressed as the browser's own accept-encoding obtained it), and their decoded size.
 */
async function collectScripts(context: BrowserContext, page: Page): Promise<() => Promise<{ kb: number; files: number; rawKb: number; encodings: string }>> {
  const wire = await tapWire(context, page);
  return async () => {
    const seen = new Set<string>();
    const scripts = wire.requests().filter((r) => {
      const isScript = r.type === 'Script' || /\.m?js(\?|$)/.test(new URL(r.url).pathname);
      if (!isScript || r.status !== 200 || seen.has(r.url)) return false;
      seen.add(r.url);
      return true;
    });
    const encodings = [...new Set(scripts.map((r) => r.encoding))].join('+');
    return { kb: kb(sumOf(scripts, 'transferred')), rawKb: kb(sumOf(scripts, 'decoded')), files: scripts.length, encodings };
  };
}

export async function freshPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  return { context, page: await context.newPage() };
}

export async function loginJsFigure(ctx: BenchContext): Promise<FigureResult[]> {
  return withPortal(ctx, 'login_js', async ({ baseUrl, browser }) => {
    const { context, page } = await freshPage(browser);
    try {
      const total = await collectScripts(context, page);
      // What the login needs: the scripts transferred by the time its form is usable.
      await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'domcontentloaded' });
      await page.locator('[data-testid=login-email]:enabled').waitFor();
      const { kb: sent, rawKb, files, encodings } = await total();
      ctx.log(`login_js: ${sent} KB transferred (${encodings}), ${rawKb} KB raw, in ${files} scripts`);
      // Then, while the user types, the page fetches the shell's code in the background.
      await page.waitForLoadState('networkidle');
      const all = await total();
      const background = Number((all.kb - sent).toFixed(1));
      ctx.log(`login_js_background: ${background} KB more, in ${all.files - files} scripts, once the form is usable`);
      return [
        {
          figure: 'login_js',
          value: sent,
          unit: 'KB',
          raw_kb: rawKb,
          baseline: LOGIN_BUDGET_KB,
          ratio: Number((sent / LOGIN_BUDGET_KB).toFixed(3)),
          notes: `${files} scripts transferred until /auth/login's form is usable (${encodings}; ${rawKb} KB raw); baseline = budget ${LOGIN_BUDGET_KB} KB`,
        },
        {
          figure: 'login_js_background',
          value: background,
          unit: 'KB',
          notes: `the shell's scripts the login page fetches when the browser is idle, after its form is usable (${all.files - files} scripts)`,
        },
      ];
    } finally {
      await context.close();
    }
  });
}

export async function shellJsFigure(ctx: BenchContext): Promise<FigureResult> {
  return withPortal(ctx, 'shell_js', async ({ baseUrl, browser }) => {
    const { context, page } = await freshPage(browser);
    try {
      // Signed in (cookie in this context), then a cold load of the first shell page.
      const login = await context.request.post(`${baseUrl}/api/auth/login`, {
        data: { email: 'basic@demo.local', password: 'demo-password' },
      });
      if (login.status() !== 200) throw new Error(`bench login failed: ${login.status()}`);
      const total = await collectScripts(context, page);
      await page.goto(`${baseUrl}/`);
      await page.locator('[data-testid=greeting]').waitFor({ timeout: 30_000 });
      // Roles arrive about a second after start; anything lazy would have loaded by then.
      await page.locator('[data-testid=roles]').waitFor({ timeout: 10_000 });
      await page.waitForTimeout(500);
      const { kb: sent, rawKb, files, encodings } = await total();
      ctx.log(`shell_js: ${sent} KB transferred (${encodings}), ${rawKb} KB raw, in ${files} scripts`);
      return {
        figure: 'shell_js',
        value: sent,
        unit: 'KB',
        raw_kb: rawKb,
        baseline: SHELL_BUDGET_KB,
        ratio: Number((sent / SHELL_BUDGET_KB).toFixed(3)),
        notes: `${files} scripts of the first shell page (home) after sign-in, as transferred (${encodings}; ${rawKb} KB raw); baseline = budget ${SHELL_BUDGET_KB} KB`,
      };
    } finally {
      await context.close();
    }
  });
}

export async function loginTtiFigure(ctx: BenchContext): Promise<FigureResult> {
  return withPortal(ctx, 'login_tti', async ({ baseUrl, browser }) => {
    // One warm-up load (server caches, Chromium's first-run costs) that is not counted.
    const runs: number[] = [];
    for (let run = 0; run <= TTI_RUNS; run++) {
      const { context, page } = await freshPage(browser);
      try {
        await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'commit' });
        const email = page.locator('[data-testid=login-email]');
        await email.waitFor({ state: 'visible' });
        if (!(await email.isEnabled())) await page.waitForFunction(() => !document.querySelector<HTMLInputElement>('#login-email')?.disabled);
        await email.press('a');
        // performance.now() counts from the navigation start of this page.
        const ms = await page.evaluate(() => ((document.querySelector('#login-email') as HTMLInputElement).value === 'a' ? performance.now() : -1));
        if (ms < 0) throw new Error('the keystroke did not land in the email field');
        if (run > 0) runs.push(ms);
      } finally {
        await context.close();
      }
    }
    const value = Math.round(median(runs));
    ctx.log(`login_tti runs: ${runs.map((r) => Math.round(r)).join(', ')} ms`);
    return {
      figure: 'login_tti',
      value,
      unit: 'ms',
      notes: `navigation start → email field enabled and a keystroke landed, median of ${TTI_RUNS} cold loads`,
    };
  });
}
