import type { Route } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, portalPerFile, signIn } from './support/portal';

/**
 * Issue 13, the map without internet: every request to a host other than the portal's is aborted
 * (and recorded); the map still draws the bundled country borders and the sites' pins, coloured by
 * state, and a pin opens the site's systems from the keyboard.
 */
describe('the site map with the network to the outside cut off', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));

  it('draws country borders and pins with no outside request, and a pin opens its site’s systems by keyboard', async () => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    const outside: string[] = [];
    await context.route('**/*', (route: Route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === 'localhost' || host === '127.0.0.1') return route.continue();
      outside.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const sites = await portal.app.db.dataSource.query<{ site_cuid: string; name: string }[]>(
      `SELECT site_cuid, name FROM site WHERE lat IS NOT NULL AND long IS NOT NULL ORDER BY name`,
    );
    expect(sites.length).toBeGreaterThan(0);

    await signIn(page, portal.url('/auth/login'), 'superuser@demo.local');
    const map = page.locator('[data-testid=home-map] [data-testid=site-map]');
    await map.waitFor({ timeout: 20_000 });
    // Pins (or clusters) for every visible site.
    await page.locator('[data-testid=map-pin], [data-testid=map-cluster]').first().waitFor({ timeout: 15_000 });
    expect(Number(await map.getAttribute('data-pins'))).toBe(sites.length);
    const pins = page.locator('[data-testid=map-pin]');
    const drawn =
      (await pins.count()) +
      Number(await page.locator('[data-testid=map-cluster]').evaluateAll((els) => els.reduce((n, el) => n + Number(el.getAttribute('data-count')), 0)));
    expect(drawn).toBe(sites.length);
    // Country shapes from the bundled borders: many SVG paths in the overlay pane.
    const paths = await map.locator('.leaflet-overlay-pane svg path').count();
    expect(paths).toBeGreaterThan(100);
    // Pins are coloured by state and named for screen readers.
    const first = pins.first();
    expect(['ALARM', 'OFFLINE', 'UNSTABLE', 'ONLINE', 'UNKNOWN']).toContain(await first.getAttribute('data-state'));
    expect(await first.getAttribute('aria-label')).toMatch(/: (alarm|offline|unstable|online|unknown), \d+ systems?$/);
    expect(await first.getAttribute('tabindex')).toBe('0');
    // No tile server configured: no tile layer.
    expect(await map.getAttribute('data-tiles')).toBe('false');
    expect(await map.locator('.leaflet-tile').count()).toBe(0);
    await screenshot(page, 'home-map-offline');

    const site = await first.getAttribute('data-site');
    await first.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/system');
    expect(decodeURIComponent(new URL(page.url()).search)).toContain(`"site_cuid":"${site}"`);
    expect(outside).toEqual([]);
  });
});
