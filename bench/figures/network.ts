import type { Browser } from 'playwright-core';
import { type BenchContext, type FigureResult, median } from '../lib';
import { freshPage, withPortal } from './frontend';
import { kb, sumOf, tapWire, type WireTap } from './wire';

/**
 * The portal over a poor link and left open:
 * - `slow_link_login`, `slow_link_first_screen`, `slow_link_second_visit`: Chromium throttled
 *   through the DevTools protocol (400 kbit/s = 50,000 bytes/s each way, 400 ms latency), cache
 *   empty (a new context), opening `/` as a bookmark does: ms to a usable login form (the email
 *   field visible and enabled); then, signed in as the demo installer, ms from the click on Sign in
 *   to the home's status tiles; then ms to the same tiles when `/` is opened again from the cache.
 *   Each with the bytes transferred in that phase (`kb`) and the same run unthrottled as its
 *   baseline; medians of BENCH_ROUNDS rounds.
 * - `idle_tab`: a signed-in home left open for BENCH_SECONDS (60 s by default here): requests and
 *   KB transferred per minute.
 */
const SLOW = { downloadBytesPerSecond: 50_000, uploadBytesPerSecond: 50_000, latencyMs: 400 };
const GOALS = { login: 5_000, first: 10_000, second: 2_000 };
const INSTALLER = { email: 'installer@demo.local', password: 'demo-password' };
const HOME_READY = '[data-testid=home-status]';
const IDLE_GOAL_KB_PER_MINUTE = 10;

interface Round {
  loginMs: number;
  loginKb: number;
  firstMs: number;
  firstKb: number;
  secondMs: number;
  secondKb: number;
}

async function oneRound(browser: Browser, baseUrl: string, throttled: boolean): Promise<Round> {
  const { context, page } = await freshPage(browser);
  try {
    const wire = await tapWire(context, page);
    await wire.throttle(throttled ? SLOW : null);
    const timeout = 120_000;

    let started = Date.now();
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit', timeout });
    const email = page.locator('[data-testid=login-email]');
    await email.waitFor({ state: 'visible', timeout });
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid=login-email]')?.disabled === false, undefined, {
      timeout,
    });
    const loginMs = Date.now() - started;
    const loginKb = await settledKb(wire);

    wire.reset();
    await email.fill(INSTALLER.email);
    await page.locator('[data-testid=login-password]').fill(INSTALLER.password);
    started = Date.now();
    await page.locator('[data-testid=login-submit]').click();
    await page.locator(HOME_READY).waitFor({ state: 'visible', timeout });
    const firstMs = Date.now() - started;
    const firstKb = await settledKb(wire);

    wire.reset();
    started = Date.now();
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit', timeout });
    await page.locator(HOME_READY).waitFor({ state: 'visible', timeout });
    const secondMs = Date.now() - started;
    const secondKb = await settledKb(wire);
    return { loginMs, loginKb, firstMs, firstKb, secondMs, secondKb };
  } finally {
    await context.close();
  }
}

/** KB transferred so far in this phase, counted once the requests it started have finished. */
async function settledKb(wire: WireTap): Promise<number> {
  await new Promise((r) => setTimeout(r, 300));
  return kb(sumOf(wire.requests(), 'transferred'));
}

export async function slowLinkFigures(ctx: BenchContext): Promise<FigureResult[]> {
  return withPortal(ctx, 'slow_link', async ({ baseUrl, browser }) => {
    await oneRound(browser, baseUrl, false); // warm-up: server caches, Chromium's first-run costs
    const slow: Round[] = [];
    const fast: Round[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      const s = await oneRound(browser, baseUrl, true);
      const f = await oneRound(browser, baseUrl, false);
      slow.push(s);
      fast.push(f);
      ctx.log(
        `slow_link round ${round}: login ${s.loginMs} ms (${s.loginKb} KB), first screen ${s.firstMs} ms (${s.firstKb} KB), second visit ${s.secondMs} ms (${s.secondKb} KB); unthrottled ${f.loginMs} / ${f.firstMs} / ${f.secondMs} ms`,
      );
    }
    const m = (rs: Round[], k: keyof Round) => Math.round(median(rs.map((r) => r[k])) * 10) / 10;
    const line = (figure: string, ms: keyof Round, kbKey: keyof Round, goal: number, what: string): FigureResult => {
      const value = Math.round(m(slow, ms));
      const baseline = Math.round(m(fast, ms));
      return {
        figure,
        value,
        unit: 'ms',
        p50_ms: value,
        kb: m(slow, kbKey),
        goal,
        baseline,
        ratio: Number((value / Math.max(1, baseline)).toFixed(3)),
        notes: `${what} at 400 kbit/s each way, 400 ms latency; ${m(slow, kbKey)} KB transferred; goal ≤ ${goal} ms; baseline = unthrottled; median of ${ctx.rounds}`,
      };
    };
    return [
      line('slow_link_login', 'loginMs', 'loginKb', GOALS.login, 'bookmark `/` with an empty cache → usable login form'),
      line('slow_link_first_screen', 'firstMs', 'firstKb', GOALS.first, "Sign in clicked → the home's status tiles"),
      line('slow_link_second_visit', 'secondMs', 'secondKb', GOALS.second, '`/` opened again, signed in, from the cache → status tiles'),
    ];
  });
}

export async function idleTabFigures(ctx: BenchContext): Promise<FigureResult[]> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 60);
  return withPortal(ctx, 'idle_tab', async ({ baseUrl, browser }) => {
    const { context, page } = await freshPage(browser);
    try {
      const wire = await tapWire(context, page);
      await page.goto(`${baseUrl}/auth/login`);
      await page.locator('[data-testid=login-email]').fill(INSTALLER.email);
      await page.locator('[data-testid=login-password]').fill(INSTALLER.password);
      await page.locator('[data-testid=login-submit]').click();
      await page.locator(HOME_READY).waitFor({ state: 'visible', timeout: 60_000 });
      // Let the first screen's own loading end before the idle minute starts.
      await page.waitForTimeout(5_000);
      wire.reset();
      await page.waitForTimeout(seconds * 1000);
      const requests = wire.requests();
      const perMinute = 60 / seconds;
      const count = Math.round(requests.length * perMinute);
      const kbPerMinute = kb(sumOf(requests, 'transferred') * perMinute);
      const byPath = new Map<string, { n: number; bytes: number; notModified: number }>();
      for (const r of requests) {
        const path = new URL(r.url).pathname;
        const e = byPath.get(path) ?? { n: 0, bytes: 0, notModified: 0 };
        e.n++;
        e.bytes += r.transferred;
        if (r.status === 304 || r.fromCache) e.notModified++;
        byPath.set(path, e);
      }
      for (const [path, e] of byPath) ctx.log(`idle_tab: ${path} ${e.n} requests, ${kb(e.bytes)} KB (${e.notModified} answered from the cache / 304)`);
      return [
        {
          figure: 'idle_tab',
          value: kbPerMinute,
          unit: 'KB/min',
          kb: kbPerMinute,
          goal: IDLE_GOAL_KB_PER_MINUTE,
          baseline: IDLE_GOAL_KB_PER_MINUTE,
          ratio: Number((kbPerMinute / IDLE_GOAL_KB_PER_MINUTE).toFixed(3)),
          notes: `signed-in home open ${seconds} s: ${count} requests and ${kbPerMinute} KB transferred per minute (CDP); baseline = goal ${IDLE_GOAL_KB_PER_MINUTE} KB/min`,
        },
        {
          figure: 'idle_tab_requests',
          value: count,
          unit: 'req/min',
          notes: `requests per minute of the same idle tab (the session check each second is most of them)`,
        },
      ];
    } finally {
      await context.close();
    }
  });
}
