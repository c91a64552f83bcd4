import type { BrowserContext, Page } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, signIn, startBrowserPortal } from './support/portal';

/**
 * Delete confirmations say what happens to what depends on the record (`<resource>.dependents`),
 * in the user's language: a site's systems are kept and unlinked.
 */
describe('delete confirmations in Chromium: what depends on the record', () => {
  let portal: BrowserPortal;
  let page: Page;
  let context: BrowserContext;

  beforeAll(async () => {
    portal = await startBrowserPortal();
    ({ context, page } = await portal.newPage());
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await portal?.close();
  });

  async function siteWithSystems(): Promise<{ name: string; n: number }> {
    const [site] = await portal.app.db.dataSource.query<{ name: string; n: number }[]>(
      `SELECT s.name, count(*)::int AS n FROM site s JOIN system y ON y.site_cuid = s.site_cuid
        WHERE s.company_cuid = (SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd') GROUP BY s.name ORDER BY 2 DESC LIMIT 1`,
    );
    expect(site?.n).toBeGreaterThan(0);
    return site;
  }

  async function openDelete(name: string): Promise<string> {
    await page.goto(portal.url('/site'));
    const row = page.locator('tr', { hasText: name }).first();
    await row.waitFor();
    await row.getByRole('button', { name: /^(delete|supprimer)$/i }).click();
    const message = page.locator('[data-testid=dependents-message]');
    await message.waitFor({ timeout: 15_000 });
    return (await message.textContent()) ?? '';
  }

  it('a site with systems: they are kept and unlinked, in English, then in French', async () => {
    const site = await siteWithSystems();
    const en = await openDelete(site.name);
    expect(en).toContain(`Kept, but no longer linked: ${site.n} system`);
    await screenshot(page, 'delete-dependents-en');
    await page.keyboard.press('Escape');

    const status = await page.evaluate(async () => {
      const res = await fetch('/api/trpc/user.updatePreferences', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ json: { language: 'fr' } }),
      });
      return res.status;
    });
    expect(status).toBe(200);
    const fr = await openDelete(site.name);
    expect(fr).toContain(`Conservés, mais plus liés : ${site.n} système`);
    await screenshot(page, 'delete-dependents-fr');
    // Nothing was deleted by looking.
    const [left] = await portal.app.db.dataSource.query(`SELECT count(*)::int AS n FROM site WHERE name = $1`, [site.name]);
    expect(left.n).toBe(1);
  });
});
