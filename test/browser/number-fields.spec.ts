import type { BrowserContext, Page } from 'playwright-core';
import { type BrowserPortal, eventually, signIn, startBrowserPortal } from './support/portal';

/**
 * Number fields as a French user types them: "3,3792" is 3.3792, never 33792; what cannot be read
 * unambiguously gets a field error and nothing is saved. Checked in the database.
 */
describe('number fields take a decimal comma and never change the number', () => {
  let portal: BrowserPortal;
  let page: Page;
  let context: BrowserContext;
  const tag = `N${Date.now().toString(36)}`;

  beforeAll(async () => {
    portal = await startBrowserPortal();
    ({ context, page } = await portal.newPage());
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await portal?.close();
  });

  const sql = <T>(query: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(query, params);

  const SITE = `Site ${tag}`;
  const site = () => sql<{ site_cuid: string; lat: number | null; long: number | null }>(`SELECT site_cuid, lat, long FROM site WHERE name = $1`, [SITE]);

  it('a site typed with decimal commas (lat "3,3792", long "0,5") is saved as 3.3792 and 0.5', async () => {
    await page.goto(portal.url('/site/create'));
    await page.locator('input[name=name]').fill(SITE);
    await page.locator('input[name=lat]').pressSequentially('3,3792');
    await page.locator('input[name=long]').pressSequentially('0,5');
    expect(await page.locator('input[name=lat]').inputValue()).toBe('3,3792');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname === '/site');
    const rows = await eventually(site, (r) => r.length === 1);
    expect(rows.map((r) => ({ lat: r.lat, long: r.long }))).toEqual([{ lat: 3.3792, long: 0.5 }]);
  });

  it('an ambiguous number ("1,234.5", "1.2.3") gets a field error and the record keeps its value', async () => {
    const [{ site_cuid }] = await site();
    await page.goto(portal.url(`/site/${site_cuid}`));
    const lat = page.locator('input[name=lat]');
    await lat.waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name=lat]')?.value === '3.3792');
    for (const typed of ['1,234.5', '1.2.3', '12 abc']) {
      await lat.fill('');
      await lat.pressSequentially(typed);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Not a number: digits with at most one decimal separator (3.14 or 3,14)').waitFor();
      expect(await lat.inputValue()).toBe(typed);
    }
    await page.waitForTimeout(500);
    expect((await site()).map((r) => r.lat)).toEqual([3.3792]);

    // "-1,25" is read and saved.
    await lat.fill('');
    await lat.pressSequentially('-1,25');
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await eventually(site, (r) => r[0]?.lat === -1.25)).map((r) => r.lat)).toEqual([-1.25]);
  });

  it('a whole-number field (a controller SSH port) refuses "2,2" instead of saving 22', async () => {
    const [controller] = await sql<{ controller_id: string; ssh_port: number | null }>(
      `SELECT c.controller_id, c.ssh_port FROM controller c JOIN system s ON s.system_cuid = c.system_cuid
         JOIN company co ON co.company_cuid = s.company_cuid JOIN company_membership m ON m.company_cuid = co.company_cuid
         JOIN "user" u ON u.user_cuid = m.user_cuid WHERE u.email = 'installer@demo.local' ORDER BY c.controller_id LIMIT 1`,
    );
    expect(controller).toBeDefined();
    await page.goto(portal.url(`/controller/${encodeURIComponent(controller.controller_id)}`));
    const port = page.locator('input[name=ssh_port]');
    await port.waitFor();
    await page.locator('input[name=name]').waitFor();
    await port.fill('');
    await port.pressSequentially('2,2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('A whole number expected: digits only').waitFor();
    await page.waitForTimeout(500);
    expect((await sql<{ ssh_port: number | null }>(`SELECT ssh_port FROM controller WHERE controller_id = $1`, [controller.controller_id]))[0].ssh_port).toBe(
      controller.ssh_port,
    );
    await port.fill('2222');
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = await eventually(
      () => sql<{ ssh_port: number | null }>(`SELECT ssh_port FROM controller WHERE controller_id = $1`, [controller.controller_id]),
      (r) => r[0]?.ssh_port === 2222,
    );
    expect(saved[0].ssh_port).toBe(2222);
  });
});
