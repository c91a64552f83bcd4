import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import type { ValidParameterRow } from '../../server/src/telemetry/ingest-validator';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { formatDateTime } from '../../client/src/i18n/format';
import { screenshot } from './support/chromium';
import { type BrowserPortal, signIn, startBrowserPortal } from './support/portal';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Issue 5 item 8: the system page (latest values, charts with presets and zoom) in Chromium. */
describe('system page in Chromium', () => {
  let portal: BrowserPortal;
  let farm: string;
  let battery: string;
  const contexts: BrowserContext[] = [];
  // Five-minute samples of the battery's state of charge over the last 40 days; the latest one is 87.5 %.
  const now = Date.now();
  const LATEST = 87.5;

  // startTestApp turns the simulator (its rows would mix with ours) and the MQTT broker off.
  beforeAll(async () => {
    portal = await startBrowserPortal();
    farm = await portal.systemCuid('DSL-0001');
    const [row] = await portal.app.db.dataSource.query<{ entity_cuid: string }[]>(
      `SELECT entity_cuid FROM entity WHERE controller_id = $1 AND entitytype_id = 'pylontech-us5000'`,
      [DEMO_CONTROLLER_ID],
    );
    battery = row.entity_cuid;
    const rows: ValidParameterRow[] = [];
    const last = Math.floor((now - MIN) / (5 * MIN)) * 5 * MIN;
    for (let t = last - 40 * DAY, index = 0; t <= last; t += 5 * MIN, index++) {
      const value = t === last ? LATEST : Math.round(60 + 30 * Math.sin(t / (6 * HOUR)));
      rows.push({ index, entity_cuid: battery, parameter_id: 'battery_soc', ts: new Date(t), min: null, max: null, value, tz: 'Africa/Nairobi' });
    }
    const writer = portal.app.app.get(TelemetryWriter);
    for (let i = 0; i < rows.length; i += 4000) {
      await writer.write({ rows: rows.slice(i, i + 4000).map((r) => ({ seg: 0, row: r })), standard: [], states: [] });
    }
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await portal?.close();
  });

  const openAs = async (email: string): Promise<Page> => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    await signIn(page, portal.url('/auth/login'), email);
    return page;
  };

  const chart = (page: Page) => page.locator('[data-testid=system-chart]');

  /** Waits until the chart shows the answer for the current range: not loading, some points, drawn. */
  const waitForChart = async (page: Page, previousFrom?: string) => {
    await page.waitForFunction(
      (prev) => {
        const el = document.querySelector('[data-testid=system-chart]');
        if (!el || el.getAttribute('data-loading') !== 'false') return false;
        if (prev !== null && el.getAttribute('data-from') === prev) return false;
        return Number(el.getAttribute('data-points')) > 0 && !!el.querySelector('canvas');
      },
      previousFrom ?? null,
      { timeout: 15_000 },
    );
    return {
      points: Number(await chart(page).getAttribute('data-points')),
      requested: Number(await chart(page).getAttribute('data-requested-points')),
      from: Number(await chart(page).getAttribute('data-from')),
      to: Number(await chart(page).getAttribute('data-to')),
      resolution: await chart(page).getAttribute('data-resolution'),
      series: Number(await chart(page).getAttribute('data-series')),
    };
  };

  it('lists the systems, opens the farm with its latest values, switches ranges, zooms and resets', async () => {
    const page = await openAs('basic@demo.local');

    // The side menu has Systems; the list has the farm; a row opens /systems/<cuid>.
    await page.getByRole('menuitem', { name: 'Systems' }).click();
    await page.waitForURL(/\/system(\?.*)?$/);
    await page.getByText('Demo Farm Mini-grid').click();
    await page.waitForURL(new RegExp(`/systems/${farm}$`));
    await page.locator('[data-testid=system-page]').waitFor();
    expect(await page.locator('[data-testid=system-name]').textContent()).toBe('Demo Farm Mini-grid');
    expect(await page.locator('[data-testid=system-timezone]').textContent()).toContain('Africa/Nairobi');

    // The latest value inserted, with its unit and age.
    const soc = page.locator(`[data-testid=device-card][data-device="${battery}"] [data-testid=latest-value][data-parameter=battery_soc]`);
    await soc.waitFor();
    // A Basic user sees values but not the controller inventory (§6: controllers view needs 2).
    expect(await page.locator('[data-testid=controller-state]').count()).toBe(0);
    expect(await soc.getAttribute('data-value')).toBe(String(LATEST));
    expect(await soc.locator('[data-testid=latest-value-text]').textContent()).toBe('87.5 %');
    expect(await soc.textContent()).toMatch(/ago/);

    // Default: 24 h of the battery's state of charge, about one point per pixel asked for.
    let state = await waitForChart(page);
    expect(state.series).toBe(1);
    expect(state.to - state.from).toBe(DAY);
    const canvasWidth = await page.locator('[data-testid=uplot-host] canvas').evaluate((c) => (c as HTMLCanvasElement).getBoundingClientRect().width);
    expect(Math.abs(state.requested - canvasWidth)).toBeLessThan(150);
    // 24 h of five-minute samples: 288 points at most (or fewer buckets).
    expect(state.points).toBeGreaterThan(100);
    expect(state.points).toBeLessThanOrEqual(Math.min(state.requested, 290));
    // uPlot drew something on the canvas (some non-transparent pixels).
    const inked = await page.locator('[data-testid=uplot-host] canvas').evaluate((c) => {
      const canvas = c as HTMLCanvasElement;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return n;
    });
    expect(inked).toBeGreaterThan(1000);
    // Times are shown in the system's zone (Nairobi, UTC+3), not the browser's (uPlot draws the
    // axis on the canvas with the same formatter, see chart-time.spec.ts): the caption's end.
    // The browser is en-GB: day/month/year and a 24-hour clock (client/src/i18n/format.ts).
    const nairobi = formatDateTime(state.to, 'en-GB', { timeZone: 'Africa/Nairobi' });
    expect(await page.locator('[data-testid=chart-caption]').textContent()).toContain(`– ${nairobi}`);
    // Hovering the plot puts the time under the pointer, in that zone, in uPlot's legend.
    await page.locator('[data-testid=uplot-host] .u-over').scrollIntoViewIfNeeded();
    const plotBox = (await page.locator('[data-testid=uplot-host] .u-over').boundingBox())!;
    await page.mouse.move(plotBox.x + plotBox.width / 2, plotBox.y + plotBox.height / 2, { steps: 5 });
    await page.mouse.move(plotBox.x + plotBox.width * 0.6, plotBox.y + plotBox.height / 2, { steps: 5 });
    await page.waitForFunction(() => /\d{2}:\d{2}/.test(document.querySelector('[data-testid=uplot-host] .u-legend .u-series .u-value')?.textContent ?? ''));

    // Presets: 1 h → about 12 points; 7 d, 30 d, 1 y: at most the points asked for.
    for (const [preset, span] of [
      ['1h', HOUR],
      ['7d', 7 * DAY],
      ['30d', 30 * DAY],
      ['1y', 365 * DAY],
    ] as const) {
      const before = String(state.from);
      await page.locator(`[data-testid=range-${preset}]`).click();
      state = await waitForChart(page, before);
      expect(state.to - state.from).toBe(span);
      // The server may add one partial bucket at an edge (7 d: 961 for 960 asked).
      expect(state.points).toBeLessThanOrEqual(state.requested + 1);
      if (preset === '1h') expect(state.points).toBeGreaterThanOrEqual(11);
      // A year holds 40 days of data: about 40/365 of the buckets.
      else expect(state.points).toBeGreaterThan(preset === '1y' ? 20 : state.requested / 4);
    }

    // Keyboard: the 6 h preset by Tab focus + Enter.
    await page.locator('[data-testid=range-6h]').focus();
    const before6h = String(state.from);
    await page.keyboard.press('Enter');
    state = await waitForChart(page, before6h);
    expect(state.to - state.from).toBe(6 * HOUR);

    // Back to 7 d, then drag across the middle of the plot: a narrower range is fetched.
    let before = String(state.from);
    await page.locator('[data-testid=range-7d]').click();
    state = await waitForChart(page, before);
    const over = page.locator('[data-testid=uplot-host] .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelector('[data-testid=system-chart]')?.getAttribute('data-zoomed') === 'true');
    before = String(state.from);
    const zoomed = await waitForChart(page, before);
    expect(zoomed.to - zoomed.from).toBeGreaterThan(1.2 * DAY);
    expect(zoomed.to - zoomed.from).toBeLessThan(1.6 * DAY);
    expect(zoomed.from).toBeGreaterThan(state.from);
    expect(['raw', '5m']).toContain(zoomed.resolution);
    await screenshot(page, 'system-page');

    await page.locator('[data-testid=reset-zoom]').click();
    state = await waitForChart(page, String(zoomed.from));
    expect(await chart(page).getAttribute('data-zoomed')).toBe('false');
    expect(state.to - state.from).toBe(7 * DAY);

    // The changelog toast's target opens the same page, on its changelog tab.
    await page.goto(portal.url(`/systems/${farm}/changelog`));
    await page.locator('[data-testid=system-changelog]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid=system-name]').textContent()).toBe('Demo Farm Mini-grid');
  });

  it('an Expert sees the controller chip: ONLINE in green', async () => {
    const page = await openAs('expert@demo.local');
    await page.goto(portal.url(`/systems/${farm}`));
    const chip = page.locator('[data-testid=controller-state]').first();
    expect(await chip.getAttribute('data-state')).toBe('ONLINE');
    expect(await chip.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(46, 125, 50)');
  });

  it('changelog tab: an Expert adds an entry (shown as text, with its author); a Basic member reads it without the form', async () => {
    const expert = await openAs('expert@demo.local');
    await expert.goto(portal.url(`/systems/${farm}/changelog`));
    await expert.locator('[data-testid=changelog-title]').waitFor({ timeout: 20_000 });
    const title = `Inverter firmware 2.4 <img src=x onerror="window.__pwned=1">`;
    await expert.locator('[data-testid=changelog-title]').fill(title);
    await expert.locator('[data-testid=changelog-message]').fill('Updated on site.\nNo downtime.');
    await expert.keyboard.press('Tab');
    await expert.keyboard.press('Enter');
    const entry = expert.locator('[data-testid=changelog-entry]', { hasText: 'Inverter firmware 2.4' });
    await entry.waitFor({ timeout: 20_000 });
    expect(await entry.textContent()).toContain(title);
    expect(await entry.textContent()).toContain('Expert');
    expect(await expert.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    const [row] = await portal.app.db.dataSource.query(`SELECT title, message FROM system_changelog WHERE system_cuid = $1 AND title = $2`, [farm, title]);
    expect(row).toEqual({ title, message: 'Updated on site.\nNo downtime.' });

    const basic = await openAs('basic@demo.local');
    await basic.goto(portal.url(`/systems/${farm}/changelog`));
    await basic.locator('[data-testid=changelog-entry]', { hasText: 'Inverter firmware 2.4' }).waitFor({ timeout: 20_000 });
    expect(await basic.locator('[data-testid=changelog-title]').count()).toBe(0);
    await screenshot(basic, 'system-changelog');
  });

  it('shows a not-found page to a user of another company', async () => {
    const page = await openAs('other@demo.local');
    await page.goto(portal.url(`/systems/${farm}`));
    await page.locator('[data-testid=system-not-found]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid=system-page]').count()).toBe(0);
    expect(await page.locator('[data-testid=system-not-found]').textContent()).toContain('does not exist');
  });
});
