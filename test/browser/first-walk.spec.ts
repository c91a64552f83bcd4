import type { Page } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, portalPerFile, openAs as openPageAs } from './support/portal';

/**
 * What a new user stumbled on in a first walk through the portal: a list with many columns on a
 * 1280 px laptop pushed the page wider than the window (Create and Export off screen, the app bar
 * shorter than the page), and the inbox and the alarm history paged in English on French screens.
 */
describe('a first walk: wide lists and French pagers', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));

  const openAs = (email: string, path: string): Promise<Page> => openPageAs(portal, contexts, email, path);
  const pageWiderThanWindow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it.each(['/system'])('%s at 1280 px: the table scrolls, the page does not, Create is on screen', async (path) => {
    const page = await openAs('superuser@demo.local', path);
    await page.locator('table tbody tr').first().waitFor();
    const create = page.getByRole('link', { name: 'Create' });
    await create.waitFor();
    await screenshot(page, `first-walk${path.replace(/\//g, '-')}`);
    expect(await pageWiderThanWindow(page)).toBe(0);
    const box = await create.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(1280);
    // The columns on the right are still there: the table's own scroll reaches them.
    const wrapper = page.locator('.RaDataTable-tableWrapper').first();
    expect(await wrapper.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  });

  it('the inbox and the alarm history page in French', async () => {
    const api = await portal.api('expert@demo.local');
    expect((await api.mutate('user.updatePreferences', { language: 'fr' })).status).toBe(200);
    const farm = await portal.systemCuid('DSL-0001');
    for (const path of ['/inbox', `/systems/${farm}/alarms`]) {
      const page = await openAs('expert@demo.local', path);
      const pager = page.locator('.MuiTablePagination-root').first();
      await pager.waitFor();
      await screenshot(page, `first-walk-french-pager${path.split('/').pop()}`);
      expect(await pager.innerText()).toContain('Lignes par page');
      expect(await pager.innerText()).not.toContain('Rows per page');
      expect(await pager.innerText()).not.toMatch(/\bof\b/);
      await expect(pager.getByRole('button', { name: 'Aller à la prochaine page' }).count()).resolves.toBe(1);
    }
  });
});
