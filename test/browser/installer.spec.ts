import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { addMember } from '../factories/users';
import { screenshot } from './support/chromium';
import { type BrowserPortal, signIn, startBrowserPortal } from './support/portal';

/**
 * Issue 4, §6 per record in the browser: a level-1 installer of the OTHER company works on the
 * demo company's systems it is given. The workshop is shared with change: the edit form saves.
 * The farm is shared read-only (like the clinic is with the demo company): no edit button in
 * the list, a disabled form without Save, and the server refuses an update sent by hand.
 */
describe('installer of a partner company in Chromium', () => {
  const EMAIL = 'installer@other-partner.local';
  let portal: BrowserPortal;
  let context: BrowserContext;
  let page: Page;
  let workshop: string;
  let farm: string;

  const sql = <T>(query: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(query, params);

  beforeAll(async () => {
    portal = await startBrowserPortal();
    const ds = portal.app.db.dataSource;
    await addMember(ds, EMAIL, OTHER_COMPANY_NAME, 1);
    workshop = (await sql<{ system_cuid: string }>(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.workshop]))[0].system_cuid;
    farm = (await sql<{ system_cuid: string }>(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]))[0].system_cuid;
    // The demo company shows its farm to the partner, read-only.
    await sql(`INSERT INTO system_sharing (company_cuid, system_cuid, change) VALUES ((SELECT company_cuid FROM company WHERE name = $1), $2, false)`, [
      OTHER_COMPANY_NAME,
      farm,
    ]);
    ({ context, page } = await portal.newPage());
    await signIn(page, portal.url('/auth/login'), EMAIL);
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await portal?.close();
  });

  const row = (name: string) => page.locator('tr', { has: page.locator('td', { hasText: name }) });

  it('sees an edit button on the shared-with-change system only, and no delete button on either', async () => {
    await page.goto(portal.url('/system'));
    await row(DEMO_SYSTEMS.workshop).locator('a[aria-label=Edit]').waitFor({ timeout: 15_000 });
    await row(DEMO_SYSTEMS.farm).waitFor();
    // Access answers come in one request per page: once the workshop's button is there, the farm's answer is too.
    expect(await row(DEMO_SYSTEMS.farm).locator('a[aria-label=Edit]').count()).toBe(0);
    expect(await row(DEMO_SYSTEMS.farm).locator('button[aria-label=Delete]').count()).toBe(0);
    // A share with change edits in place; only the owner company deletes the system (issue 9).
    expect(await row(DEMO_SYSTEMS.workshop).locator('button[aria-label=Delete]').count()).toBe(0);
    await screenshot(page, 'installer-partner-systems');
  });

  it('edits the workshop (shared with change) and the change is saved', async () => {
    await page.goto(portal.url(`/system/${workshop}`));
    const asset = page.locator('input[name=asset_number]');
    await asset.waitFor({ timeout: 15_000 });
    await page.locator('fieldset[data-readonly=false]').waitFor();
    await asset.fill('WS-PARTNER-1');
    // Keyboard only: Enter in a field submits.
    await asset.press('Enter');
    const saved = async () => (await sql<{ asset_number: string }>(`SELECT asset_number FROM system WHERE system_cuid = $1`, [workshop]))[0].asset_number;
    const end = Date.now() + 15_000;
    while ((await saved()) !== 'WS-PARTNER-1' && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    expect(await saved()).toBe('WS-PARTNER-1');
    // The owner company did not move.
    expect(
      (await sql<{ name: string }>(`SELECT c.name FROM system s JOIN company c USING (company_cuid) WHERE s.system_cuid = $1`, [workshop]))[0].name,
    ).not.toBe(OTHER_COMPANY_NAME);
    await screenshot(page, 'installer-partner-workshop-saved');
  });

  it('shows the farm (shared read-only) as a disabled form without Save, and the server refuses a forced update', async () => {
    await page.goto(portal.url(`/system/${farm}`));
    await page.locator('[data-testid=read-only-notice]').waitFor({ timeout: 15_000 });
    await page.locator('fieldset[data-readonly=true]').waitFor();
    expect(await page.locator('input[name=name]').isDisabled()).toBe(true);
    expect(await page.locator('input[name=name]').inputValue()).toBe(DEMO_SYSTEMS.farm);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await screenshot(page, 'installer-partner-farm-read-only');

    // Its sharing tab lists the shares but offers no way to change them; its metadata is read-only.
    await page.locator('[data-testid=tab-sharing]').click();
    await page.locator('[data-testid=sharing-panel]').waitFor();
    await page.locator('[data-testid=sharing-table] tr[data-company]').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid=share-add]').count()).toBe(0);
    expect(await page.locator('[data-testid=sharing-panel] button[aria-label="Stop sharing"]').count()).toBe(0);
    await page.locator('[data-testid=tab-metadata]').click();
    await page.locator('[data-testid=metadata-panel][data-readonly=true]').waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid=metadata-panel]').getByRole('button', { name: 'Save' }).count()).toBe(0);

    const api = await portal.api(EMAIL);
    const before = await sql(`SELECT name, asset_number, timezone FROM system WHERE system_cuid = $1`, [farm]);
    const res = await api.mutate('system.update', { id: farm, data: { name: 'Taken over' }, previousData: {} });
    expect([403, 404]).toContain(res.status);
    expect(await sql(`SELECT name, asset_number, timezone FROM system WHERE system_cuid = $1`, [farm])).toEqual(before);
    const access = await api.query('system.access', { ids: [farm, workshop] });
    expect(access.status).toBe(200);
    expect(access.data).toMatchObject({ data: { [farm]: { edit: false, delete: false }, [workshop]: { edit: true, delete: false } } });
  });
});
