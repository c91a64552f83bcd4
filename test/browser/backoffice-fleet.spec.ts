import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { screenshot } from './support/chromium';
import { type BrowserPortal, eventually, signIn, startBrowserPortal } from './support/portal';

/**
 * Issue 4, fleet screens in Chromium as the demo company's installer (level 1, company admin):
 * a site, a system at that site, a controller on it with two devices, all through the forms;
 * 200 systems imported from a CSV file, a file with 3 bad rows (report, nothing written, then
 * only the valid rows), and the imported systems bulk-deleted. The database is checked after
 * every step.
 */
describe('back office: fleet screens in Chromium', () => {
  let portal: BrowserPortal;
  let page: Page;
  let context: BrowserContext;
  let demoCompany: string;
  const tag = `T${Date.now().toString(36)}`;
  let nextFile: { name: string; mimeType: string; buffer: Buffer } | undefined;

  beforeAll(async () => {
    portal = await startBrowserPortal();
    demoCompany = (await sql<{ company_cuid: string }>(`SELECT company_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]))[0].company_cuid;
    ({ context, page } = await portal.newPage());
    // File choosers are answered from the start (interception on before any dialog opens).
    page.on('filechooser', (chooser) => {
      if (nextFile) void chooser.setFiles(nextFile);
      nextFile = undefined;
    });
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await portal?.close();
  });

  function sql<T>(query: string, params: unknown[] = []): Promise<T[]> {
    return portal.app.db.dataSource.query<T[]>(query, params);
  }

  /** Types into an autocomplete and picks the option whose text contains `text`. */
  async function pick(source: string, text: string): Promise<void> {
    return pickOn(page, source, text);
  }
  async function pickOn(page: Page, source: string, text: string): Promise<void> {
    const input = page.locator(`input[name=${source}]`);
    await input.click();
    await input.fill(text);
    const option = page.getByRole('option', { name: new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')) }).first();
    await option.waitFor({ timeout: 10_000 });
    await option.click();
  }

  const SITE = `Site ${tag} <b>not bold</b>`;

  it('creates a site (latitude checked in the form), shown as text', async () => {
    await page.goto(portal.url('/site/create'));
    await page.locator('input[name=name]').fill(SITE);
    await page.locator('input[name=lat]').fill('123');
    await page.locator('input[name=long]').fill('36.8');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Latitude is between -90 and 90').waitFor();
    expect(await sql(`SELECT 1 FROM site WHERE name = $1`, [SITE])).toHaveLength(0);

    await page.locator('input[name=lat]').fill('-1.25');
    // Enter in a field submits the form: no mouse needed.
    await page.locator('input[name=name]').press('Enter');
    await page.waitForURL((url) => url.pathname === '/site');
    const rows = await eventually(
      () => sql<{ lat: number; long: number; company_cuid: string }>(`SELECT lat, long, company_cuid FROM site WHERE name = $1`, [SITE]),
      (r) => r.length === 1,
    );
    expect(rows[0]).toMatchObject({ lat: -1.25, long: 36.8, company_cuid: demoCompany });
    await page.locator('input[name=q]').fill(tag);
    const cell = page.locator('td', { hasText: `Site ${tag}` }).first();
    await cell.waitFor();
    // User text is text: the markup is shown, not obeyed.
    expect(await cell.textContent()).toContain('<b>not bold</b>');
    expect(await cell.locator('b').count()).toBe(0);
    await screenshot(page, 'backoffice-fleet-sites');
  });

  const SYSTEM = `System ${tag}`;

  it('creates a system at that site with a time zone and a deployment date, shares it with a partner, lets it change, stops sharing', async () => {
    await page.goto(portal.url('/system/create'));
    await page.locator('input[name=name]').fill(SYSTEM);
    await pick('site_cuid', `Site ${tag}`);
    await pick('timezone', 'Africa/Lagos');
    await page.locator('input[name=deployment_date]').fill('2025-06-01');
    await page.locator('input[name=asset_number]').fill(`A-${tag}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => /^\/system\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/create'));
    const rows = await eventually(
      () =>
        sql<{ system_cuid: string; site: string; timezone: string; d: string; company_cuid: string }>(
          `SELECT s.system_cuid, site.name AS site, s.timezone, s.deployment_date::text AS d, s.company_cuid
             FROM system s LEFT JOIN site ON site.site_cuid = s.site_cuid WHERE s.name = $1`,
          [SYSTEM],
        ),
      (r) => r.length === 1,
    );
    expect(rows[0]).toMatchObject({ site: SITE, timezone: 'Africa/Lagos', d: '2025-06-01', company_cuid: demoCompany });
    // The edit page has its details, sharing and metadata tabs.
    await page.locator('[data-testid=tab-sharing]').waitFor();
    await screenshot(page, 'backoffice-fleet-system-edit');

    // Sharing: the owner shares with a partner by its identifier, lets it change, then stops.
    const system = rows[0].system_cuid;
    const partner = (await sql<{ company_cuid: string }>(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]))[0].company_cuid;
    const shares = () => sql<{ company_cuid: string; change: boolean }>(`SELECT company_cuid, change FROM system_sharing WHERE system_cuid = $1`, [system]);
    await page.locator('[data-testid=tab-sharing]').click();
    await page.locator('[data-testid=share-company]').fill(partner);
    await page.locator('[data-testid=share-company]').press('Enter');
    expect(await eventually(shares, (r) => r.length === 1)).toEqual([{ company_cuid: partner, change: false }]);
    const shareRow = page.locator(`[data-testid=sharing-table] tr[data-company="${partner}"]`);
    await shareRow.getByText(OTHER_COMPANY_NAME).waitFor();
    // The switch follows the server (pessimistic): click, then the database, then the switch.
    const mayChange = shareRow.locator('input[type=checkbox][aria-label="May change"]');
    await mayChange.click();
    expect(await eventually(shares, (r) => r[0]?.change === true)).toEqual([{ company_cuid: partner, change: true }]);
    await page.waitForFunction((el) => (el as HTMLInputElement).checked, await mayChange.elementHandle(), { timeout: 10_000 });
    await shareRow.getByRole('button', { name: 'Stop sharing' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect(await eventually(shares, (r) => r.length === 0)).toEqual([]);
  });

  const CONTROLLER = `ctl-${tag.toLowerCase()}`;

  it('adds a controller on the system (its id checked against the MQTT-safe pattern) and two devices', async () => {
    // Spec §6: controllers are created at level 0 only; the installer's list offers no "Create".
    await page.goto(portal.url('/controller'));
    await page.locator('[data-testid=export-csv]').waitFor();
    expect(await page.locator('a[href="/controller/create"]').count()).toBe(0);

    const admin = await portal.newPage();
    try {
      const su = admin.page;
      await signIn(su, portal.url('/auth/login'), 'superuser@demo.local');
      await su.goto(portal.url('/controller/create'));
      await su.locator('input[name=controller_id]').fill('bad id/with#');
      await su.locator('input[name=name]').fill(`Controller ${tag}`);
      await pickOn(su, 'company_cuid', 'Demo Solar Ltd');
      await pickOn(su, 'controllertype_cuid', 'Cerbo GX');
      await pickOn(su, 'system_cuid', SYSTEM);
      await su.getByRole('button', { name: 'Save' }).click();
      await su.getByText('Letters, digits, "_", "." or "-"').first().waitFor();
      await su.locator('input[name=controller_id]').fill(CONTROLLER);
      await su.getByRole('button', { name: 'Save' }).click();
      await su.waitForURL((url) => url.pathname === '/controller');
    } finally {
      await admin.context.close();
    }
    const controllers = await eventually(
      () =>
        sql<{ system: string; company_cuid: string; controller_info: unknown }>(
          `SELECT s.name AS system, c.company_cuid, c.controller_info FROM controller c JOIN system s ON s.system_cuid = c.system_cuid WHERE c.controller_id = $1`,
          [CONTROLLER],
        ),
      (r) => r.length === 1,
    );
    expect(controllers[0]).toMatchObject({ system: SYSTEM, company_cuid: demoCompany, controller_info: {} });

    // Devices: the installer configures them (devices.configure, level 1).
    for (const [name, type, config] of [
      [`Inverter ${tag}`, 'MultiPlus-II', '{"interface": "ve-can", "address": 0}'],
      [`Battery ${tag}`, 'US5000', '{"modules": 4}'],
    ] as const) {
      await page.goto(portal.url('/entity/create'));
      await page.locator('input[name=name]').fill(name);
      await pick('system_cuid', SYSTEM);
      await pick('entitytype_id', type);
      await pick('controller_id', `Controller ${tag}`);
      await page.getByRole('textbox', { name: /^Configuration \(JSON\)/ }).fill(config);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL((url) => url.pathname === '/entity');
    }
    const devices = await eventually(
      () =>
        sql<{ name: string; controller_id: string; config: Record<string, unknown> }>(
          `SELECT e.name, e.controller_id, e.config FROM entity e JOIN system s ON s.system_cuid = e.system_cuid WHERE s.name = $1 ORDER BY e.name`,
          [SYSTEM],
        ),
      (r) => r.length === 2,
    );
    expect(devices).toEqual([
      { name: `Battery ${tag}`, controller_id: CONTROLLER, config: { modules: 4 } },
      { name: `Inverter ${tag}`, controller_id: CONTROLLER, config: { interface: 've-can', address: 0 } },
    ]);
    await page.locator('input[name=q]').fill(tag);
    await page.locator('td', { hasText: `Battery ${tag}` }).waitFor();
    await screenshot(page, 'backoffice-fleet-devices');
  });

  const IMPORTED = `Imported ${tag}`;
  const countImported = async () => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM system WHERE name LIKE $1`, [`${IMPORTED}%`]))[0].n);

  function csvOf(rows: string[][]): Buffer {
    const header = 'company_cuid,name,timezone,deployment_date,asset_number,colour';
    return Buffer.from([header, ...rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))].join('\r\n') + '\r\n');
  }

  /**
   * Opens the import dialog with the keyboard; with `keyboard` the file goes through the file
   * chooser the focused button opens on Enter, otherwise straight into the file input.
   */
  async function chooseFile(name: string, content: Buffer, keyboard = false): Promise<void> {
    await page.goto(portal.url('/system'));
    const open = page.locator('[data-testid=import-button]');
    await open.focus();
    await page.keyboard.press('Enter');
    const choose = page.locator('[data-testid=import-choose]');
    await choose.waitFor();
    // The "choose a file" button has the focus: Enter opens the file chooser.
    expect(await choose.evaluate((el) => el === document.activeElement)).toBe(true);
    if (keyboard) {
      nextFile = { name, mimeType: 'text/csv', buffer: content };
      await page.keyboard.press('Enter');
      await page.locator('[data-testid=import-columns]').waitFor({ timeout: 15_000 });
    } else {
      await page.locator('[data-testid=import-file]').setInputFiles({ name, mimeType: 'text/csv', buffer: content });
    }
  }

  it('imports 200 systems from a CSV file after checking every row', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => [
      demoCompany,
      `${IMPORTED} ${String(i).padStart(3, '0')}`,
      'Africa/Nairobi',
      '2025-02-01',
      `IMP-${tag}-${i}`,
      'blue',
    ]);
    await chooseFile('systems.csv', csvOf(rows), true);
    // Column mapping: known columns are imported, an unknown one is named and left out.
    await page.locator('[data-testid=import-columns] [data-column=colour][data-kind=unknown]').waitFor();
    expect(await page.locator('[data-testid=import-columns] [data-kind=mapped]').count()).toBe(5);
    await page.locator('[data-testid=import-valid]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=import-valid]').textContent()).toContain('All 200 rows are valid');
    expect(await countImported()).toBe(0);
    await screenshot(page, 'backoffice-fleet-import-valid');
    await page.locator('[data-testid=import-all]').click();
    await page.getByText('200 records imported').waitFor({ timeout: 30_000 });
    expect(await countImported()).toBe(200);
    const sample = await sql<{ timezone: string; d: string; company_cuid: string }>(
      `SELECT timezone, deployment_date::text AS d, company_cuid FROM system WHERE name = $1`,
      [`${IMPORTED} 042`],
    );
    expect(sample).toEqual([{ timezone: 'Africa/Nairobi', d: '2025-02-01', company_cuid: demoCompany }]);
  });

  it('reports the 3 bad rows of a file with their line numbers and imports nothing, then only the valid rows on request', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => [demoCompany, `${IMPORTED} bad-file ${String(i).padStart(2, '0')}`, 'UTC', '', '', '']);
    rows[3][2] = 'Mars/Olympus_Mons'; // line 5
    rows[9][1] = ''; // line 11: no name
    rows[15][3] = 'next Tuesday'; // line 17
    await chooseFile('systems-bad.csv', csvOf(rows));
    const table = page.locator('[data-testid=import-errors]');
    await table.waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=import-has-errors]').textContent()).toContain('3 rows have errors');
    const lines = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-line'))));
    expect([...new Set(lines)].sort((a, b) => a - b)).toEqual([5, 11, 17]);
    const fields = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(fields).toEqual(expect.arrayContaining(['timezone', 'name', 'deployment_date']));
    // No "import all" while the file has errors, and nothing was written.
    expect(await page.locator('[data-testid=import-all]').count()).toBe(0);
    expect(await countImported()).toBe(200);
    await screenshot(page, 'backoffice-fleet-import-errors');

    await page.locator('[data-testid=import-cancel]').click();
    await page.locator('[data-testid=import-dialog]').waitFor({ state: 'hidden' });
    expect(await countImported()).toBe(200);

    await chooseFile('systems-bad.csv', csvOf(rows));
    const valid = page.locator('[data-testid=import-valid-rows]');
    await valid.waitFor({ timeout: 30_000 });
    expect(await valid.textContent()).toBe('Import the 17 valid rows');
    await valid.click();
    await page.getByText('17 records imported').waitFor({ timeout: 30_000 });
    expect(await countImported()).toBe(217);
    const names = await sql<{ name: string }>(`SELECT name FROM system WHERE name LIKE $1 ORDER BY name`, [`${IMPORTED} bad-file%`]);
    expect(names.map((n) => n.name)).not.toContain(`${IMPORTED} bad-file 03`);
    expect(names.map((n) => n.name)).not.toContain(`${IMPORTED} bad-file 15`);
    expect(names).toHaveLength(17);
  });

  it('exports the filtered list as CSV, then bulk-deletes every imported system', async () => {
    await page.goto(portal.url('/system'));
    await page.locator('input[name=q]').fill(IMPORTED);
    await page
      .getByText(/of 217$/)
      .first()
      .waitFor({ timeout: 15_000 });

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=export-csv]').click()]);
    const path = await download.path();
    const text = (await import('node:fs')).readFileSync(path, 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines).toHaveLength(1 + 217);
    expect(lines[0].split(',')).toEqual(expect.arrayContaining(['id', 'system_cuid', 'name', 'timezone', 'company_cuid']));

    await page.locator('thead input[type=checkbox]').first().check();
    await page.getByRole('button', { name: /select all/i }).click();
    await page.getByText('217 items selected').waitFor();
    await page.locator('[data-testid=bulk-delete]').click();
    await page.getByText('Delete 217 records?').waitFor();
    await screenshot(page, 'backoffice-fleet-bulk-delete');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('217 records deleted').waitFor({ timeout: 30_000 });
    expect(await countImported()).toBe(0);
    // The systems made by hand are still there.
    expect(await sql(`SELECT 1 FROM system WHERE name = $1`, [SYSTEM])).toHaveLength(1);
    expect(await sql(`SELECT 1 FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm])).toHaveLength(1);
  });
});
