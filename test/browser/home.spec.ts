import type { Page } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, portalPerFile, signIn } from './support/portal';

/**
 * Issue 13, home by role: every demo role lands on a home that shows its sections and not the
 * others' — Basic their systems and the energy; Expert + status (counts, attention) and the map;
 * Installer + active alarms and recent commands; Superuser the whole fleet.
 */
const SECTIONS = ['home-systems', 'home-energy', 'home-status', 'home-attention', 'home-map', 'home-alarms', 'home-commands'] as const;
type Section = (typeof SECTIONS)[number];

const EXPECTED: Record<string, Section[]> = {
  basic: ['home-systems', 'home-energy'],
  expert: ['home-systems', 'home-energy', 'home-status', 'home-attention', 'home-map'],
  installer: ['home-energy', 'home-status', 'home-attention', 'home-map', 'home-alarms', 'home-commands'],
  superuser: ['home-energy', 'home-status', 'home-attention', 'home-map', 'home-alarms', 'home-commands'],
};

describe('the home page by role in Chromium', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));

  async function home(email: string): Promise<Page> {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    await signIn(page, portal.url('/auth/login'), email);
    // The overview has answered once the energy figure is a number.
    await page.locator('[data-testid=energy-today]', { hasText: 'kWh' }).waitFor({ timeout: 20_000 });
    return page;
  }

  for (const [role, expected] of Object.entries(EXPECTED)) {
    it(`${role}: the sections of the role, none of the others`, async () => {
      const page = await home(`${role}@demo.local`);
      await page.locator(`[data-testid=${expected[expected.length - 1]}]`).waitFor({ timeout: 15_000 });
      const shown: Section[] = [];
      for (const s of SECTIONS) if ((await page.locator(`[data-testid=${s}]`).count()) > 0) shown.push(s);
      expect(shown).toEqual(expected);
      // The greeting stays, and the age of the data is shown.
      expect(await page.locator('[data-testid=greeting]').textContent()).toMatch(/^Hello, /);
      expect(await page.locator('[data-testid=overview-age]').textContent()).toMatch(/Updated|Refreshing/);
      await page.locator('[data-testid=energy-bars]').waitFor();
      await screenshot(page, `home-${role}`);
    });
  }

  it('a status tile is a link to the systems list with its filter (keyboard: Tab to it, Enter)', async () => {
    const page = await home('expert@demo.local');
    const tile = page.locator('[data-testid=tile-offline]');
    await tile.waitFor();
    expect(await tile.evaluate((el) => el.tagName)).toBe('A');
    expect(decodeURIComponent((await tile.getAttribute('href')) ?? '')).toBe('/system?filter={"state":"OFFLINE"}');
    expect(decodeURIComponent((await page.locator('[data-testid=tile-in_alarm]').getAttribute('href')) ?? '')).toBe('/system?filter={"in_alarm":true}');
    await tile.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/system');
    expect(decodeURIComponent(new URL(page.url()).search)).toContain('"state":"OFFLINE"');
  });

  it('the attention list rows open the system page; the French home has French sections', async () => {
    const farm = await portal.systemCuid('DSL-0001');
    const page = await home('superuser@demo.local');
    const rows = page.locator('[data-testid=attention-row]');
    await page.locator('[data-testid=home-attention]').waitFor();
    if ((await rows.count()) > 0) {
      const href = await rows.first().getAttribute('href');
      expect(href).toMatch(/^\/systems\/[a-z0-9]+$/);
    }
    // The demo farm is on the list (no data yet → stale or offline) and opens by keyboard.
    const farmRow = page.locator(`[data-testid=attention-row][data-system="${farm}"]`);
    await farmRow.waitFor({ timeout: 10_000 });
    await farmRow.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/systems/${farm}`);
  });
});
