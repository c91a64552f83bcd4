import type { Page } from 'playwright-core';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { screenshot } from './support/chromium';
import { type BrowserPortal, portalPerFile, signIn, openAs as openPageAs } from './support/portal';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Issue 13, lists that tell the state and the system page: the systems list shows state and energy
 * columns and a row opens the system page by keyboard; the system page shows energy bars, a decoded
 * device state ("Inverting", not 9) and links to the settings form, which links back.
 */
describe('systems list and system page in Chromium', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));
  let farm: string;

  const q = (sql: string, params?: unknown[]) => portal.app.db.dataSource.query(sql, params);
  const openAs = (email: string, path: string): Promise<Page> => openPageAs(portal, contexts, email, path);

  beforeAll(async () => {
    farm = await portal.systemCuid('DSL-0001');
    const [{ entity_cuid: inverter }] = (await q(`SELECT entity_cuid FROM entity WHERE controller_id = $1 AND entitytype_id = 'victron-multiplus-ii'`, [
      DEMO_CONTROLLER_ID,
    ])) as {
      entity_cuid: string;
    }[];
    await q(`INSERT INTO device_state (entity_cuid, "timestamp", state_bundle) VALUES ($1, $2, $3)`, [
      inverter,
      new Date(Date.now() - 5 * 60_000),
      JSON.stringify({ inverter_state: 9, faults: [] }),
    ]);
    // A PV counter over the last days: 10 kWh a day.
    const today = Math.floor(Date.now() / DAY) * DAY;
    for (let d = 3; d >= 0; d--) {
      await q(`INSERT INTO system_standard_value_log (system_cuid, "timestamp", total_pv_kwh) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
        farm,
        new Date(today - d * DAY - 12 * HOUR),
        1000 + (3 - d) * 10,
      ]);
    }
  });

  it('the systems list shows state, last contact, alarms, SoC and energy columns; Tab to a row’s link and Enter opens the system page', async () => {
    const page = await openAs('expert@demo.local', '/system');
    const link = page.locator('[data-testid=system-link]', { hasText: 'Demo Farm' }).first();
    await link.waitFor({ timeout: 20_000 });
    const headers = (await page.locator('thead th').allTextContents()).map((t) => t.trim());
    for (const h of ['State', 'Last contact', 'Active alarms', 'SoC', 'Energy today']) expect(headers.join('|')).toContain(h);
    // Every row carries its state.
    await page.locator('tbody tr [data-testid=state-chip]').first().waitFor({ timeout: 10_000 });
    expect(await page.locator('tbody tr [data-testid=state-chip]').count()).toBe(await page.locator('tbody tr').count());
    await screenshot(page, 'system-list-states');
    expect(await link.evaluate((el) => el.tagName)).toBe('A');
    // Keyboard: Tab from the previous focusable element lands on the link.
    await link.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('system-link');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.startsWith('/systems/'));
    await page.locator('[data-testid=system-page]').waitFor();
  });

  it('the state filter narrows the list', async () => {
    const page = await openAs('expert@demo.local', `/system?filter=${encodeURIComponent(JSON.stringify({ state: 'UNKNOWN' }))}`);
    const chips = page.locator('tbody tr [data-testid=state-chip]');
    await chips.first().waitFor({ timeout: 20_000 });
    const all = await portal.app.db.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM system s JOIN company c ON c.company_cuid = s.company_cuid`,
    );
    const states = await chips.evaluateAll((els) => els.map((el) => el.getAttribute('data-state')));
    expect(states.length).toBeGreaterThan(0);
    expect(states.length).toBeLessThan(all[0].n);
    for (const s of states) expect(s).toBe('UNKNOWN');
    // The Demo Farm reports (ONLINE): not in the list.
    expect(await page.locator('[data-testid=system-link]', { hasText: 'Demo Farm' }).count()).toBe(0);
  });

  it('the system page shows the energy bars with a total, the decoded device state, and (for those who may change it) links to the settings form and back', async () => {
    const page = await openAs('expert@demo.local', `/systems/${farm}`);
    const bars = page.locator('[data-testid=system-energy] [data-testid=energy-bars]');
    await bars.waitFor({ timeout: 20_000 });
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=system-energy] [data-testid=energy-bars]')?.getAttribute('data-total')) > 0,
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.locator('[data-testid=system-energy] [data-testid=energy-total]').textContent()).toMatch(/^Total \d[\d,.]* kWh$/);
    // One bar per day of this month so far, in the system's zone (Nairobi).
    const dayOfMonth = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Nairobi', day: 'numeric' }).format(new Date()));
    expect(await page.locator('[data-testid=system-energy] [data-testid=energy-bar]').count()).toBe(dayOfMonth);
    // Months.
    await page.locator('[data-testid=energy-months]').click();
    await page.waitForFunction(() => {
      const bars = document.querySelector('[data-testid=system-energy] [data-testid=energy-bars]');
      return bars?.getAttribute('data-granularity') === 'month' && bars.getAttribute('data-loading') === 'false';
    });
    expect(await page.locator('[data-testid=system-energy] [data-testid=energy-bar]').count()).toBe(12);
    // The device state, with the entity type's label.
    const state = page.locator('[data-testid=device-state-value][data-key=inverter_state]');
    await state.waitFor();
    expect(await state.textContent()).toBe('Inverter stateInverting');
    // The site card.
    await page.locator('[data-testid=system-site] [data-testid=site-map]').waitFor();
    await screenshot(page, 'system-page-energy');
    // An Expert may not change the system: no link to the settings form.
    expect(await page.locator('[data-testid=system-settings-link]').count()).toBe(0);
    // An installer goes to the settings form and back.
    const installer = await openAs('installer@demo.local', `/systems/${farm}`);
    await installer.locator('[data-testid=system-settings-link]').click();
    await installer.waitForURL((url) => url.pathname === `/system/${farm}`);
    await installer.locator('[data-testid=system-monitoring-link]').click();
    await installer.waitForURL((url) => url.pathname === `/systems/${farm}`);
    await installer.locator('[data-testid=system-page]').waitFor();
  });

  it('French: energy written with a comma and kWh', async () => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    await page.goto(portal.url('/auth/login'));
    await page.locator('[data-testid=login-language-fr]').click();
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    await page.goto(portal.url(`/systems/${farm}`));
    const total = page.locator('[data-testid=system-energy] [data-testid=energy-total]');
    await total.waitFor({ timeout: 20_000 });
    await page.waitForFunction(
      () => /Total [1-9]/.test(document.querySelector('[data-testid=system-energy] [data-testid=energy-total]')?.textContent ?? ''),
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.locator('#energy-heading').textContent()).toBe('Énergie');
    expect(await total.textContent()).toMatch(/^Total \d+(,\d+)? kWh$/);
  });
});
