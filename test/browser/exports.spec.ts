import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { screenshot } from './support/chromium';
import { type BrowserPortal, eventually, portalPerFile, signIn } from './support/portal';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Data exports in Chromium (issue 13): the dialog on the system page, the template form, progress, the file, the exports page, French separators. */
describe('data exports in Chromium', () => {
  let portal: BrowserPortal;
  const contexts: BrowserContext[] = portalPerFile((p) => (portal = p));
  let battery: string;
  let batteryName: string;
  let systemCuid: string;
  let zone: string;
  // One hour of one-minute samples two days ago; the voltage is missing every 7th minute.
  const start = Math.floor((Date.now() - 2 * 24 * HOUR) / HOUR) * HOUR;
  const end = start + HOUR;

  const q = <T = any>(sql: string, params?: unknown[]) => portal.app.db.dataSource.query<T[]>(sql, params);
  const openAs = async (email: string, path: string, locale?: 'fr'): Promise<Page> => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    if (locale) await context.addInitScript((l) => localStorage.setItem('portal.locale', l), locale);
    await signIn(page, portal.url('/auth/login'), email);
    await page.goto(portal.url(path));
    return page;
  };
  /** `YYYY-MM-DDTHH:mm` of an instant in the system's zone, as the datetime-local inputs take it. */
  const local = async (ms: number) =>
    (await q<{ v: string }>(`SELECT to_char($1::timestamptz AT TIME ZONE $2, 'YYYY-MM-DD"T"HH24:MI') AS v`, [new Date(ms), zone]))[0].v;
  /** The database's rows of the range: local time in the system's zone, state of charge, voltage ('' when missing). */
  const dbRows = async () =>
    (
      await q<{ t: string; soc: number | null; v: number | null }>(
        `SELECT to_char(ts AT TIME ZONE $4, 'YYYY-MM-DD HH24:MI:SS') AS t,
                max(value) FILTER (WHERE parameter_id = 'battery_soc') AS soc, max(value) FILTER (WHERE parameter_id = 'battery_voltage') AS v
           FROM (SELECT "timestamp" AS ts, parameter_id, value FROM parameter_log WHERE entity_cuid = $1 AND "timestamp" >= $2 AND "timestamp" < $3) x
          GROUP BY ts ORDER BY ts`,
        [battery, new Date(start), new Date(end), zone],
      )
    ).map((r) => [r.t, r.soc === null ? '' : String(r.soc), r.v === null ? '' : String(r.v)]);
  const parse = (text: string, delimiter: string) =>
    text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split(/\r?\n/)
      .map((l) => l.split(delimiter));

  /** Custom range of the data hour, then Start; the bar shows; the download is the file's text. */
  const runExport = async (page: Page): Promise<string> => {
    const dialog = page.locator('[data-testid=export-dialog]');
    await dialog.locator('[data-testid=export-preset-custom]').click();
    await dialog.locator('[data-testid=export-from]').fill(await local(start));
    await dialog.locator('[data-testid=export-to]').fill(await local(end));
    await expect(dialog.locator('[data-testid=export-range-caption]').getAttribute('data-from')).resolves.toBe(String(start));
    await expect(dialog.locator('[data-testid=export-range-caption]').getAttribute('data-to')).resolves.toBe(String(end));
    await dialog.locator('[data-testid=export-start]').click();
    await dialog.locator('[data-testid=export-progress]').waitFor({ state: 'visible', timeout: 10_000 });
    const link = dialog.locator('[data-testid=export-download]');
    await link.waitFor({ timeout: 30_000 });
    await expect(dialog.locator('[data-testid=export-job]').getAttribute('data-status')).resolves.toBe('DONE');
    await expect(dialog.locator('[data-testid=export-progress]').getAttribute('aria-valuenow')).resolves.toBe('100');
    await expect(link.getAttribute('href')).resolves.toMatch(/^\/api\/exports\/jobs\/[^/]+\/file$/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    return readFile(await download.path(), 'utf8');
  };

  beforeAll(async () => {
    [{ entity_cuid: battery, name: batteryName, system_cuid: systemCuid }] = await q(
      `SELECT e.entity_cuid, e.name, COALESCE(e.system_cuid, c.system_cuid) AS system_cuid FROM entity e JOIN controller c ON c.controller_id = e.controller_id
        WHERE e.controller_id = $1 AND e.entitytype_id IN (SELECT entitytype_id FROM entity_type_log_parameter_assignment WHERE parameter_id = 'battery_soc')
        ORDER BY e.entity_cuid LIMIT 1`,
      [DEMO_CONTROLLER_ID],
    );
    [{ timezone: zone }] = await q(`SELECT timezone FROM system WHERE system_cuid = $1`, [systemCuid]);
    for (let ts = start; ts < end; ts += MIN) {
      const m = (ts - start) / MIN;
      await q(`INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value) VALUES ($1, 'battery_soc', $2, $3)`, [
        battery,
        new Date(ts),
        40 + m + 0.25,
      ]);
      if (m % 7 !== 3)
        await q(`INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value) VALUES ($1, 'battery_voltage', $2, $3)`, [
          battery,
          new Date(ts),
          51.5 + m / 100,
        ]);
    }
  });

  it('an installer makes a template in the dialog with the form, exports a CSV with a progress bar, and the file is the database rows', async () => {
    const page = await openAs('installer@demo.local', `/systems/${systemCuid}`);
    await page.locator('[data-testid=download-data]').click();
    const dialog = page.locator('[data-testid=export-dialog]');
    await dialog.locator('[data-testid=export-new-template]').click();
    const form = dialog.locator('[data-testid=export-template-form]');
    await form.getByRole('textbox', { name: /^Name/ }).fill('Battery hour');
    for (const [i, parameter] of [/^Battery state of charge/, /^Battery voltage/].entries()) {
      await form.locator('.button-add').click();
      await form.getByRole('combobox', { name: 'Device' }).nth(i).click();
      await page.getByRole('option', { name: batteryName, exact: true }).click();
      await form.getByRole('combobox', { name: 'Parameter' }).nth(i).click();
      await page.getByRole('option', { name: parameter }).click();
    }
    await form.getByLabel('Column title (optional)').nth(1).fill('Volts');
    // A zone the server does not know comes back as a field error on that input.
    const zoneInput = form.getByRole('textbox', { name: /^Default time zone/ });
    await zoneInput.fill('Mars/Olympus_Mons');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.MuiFormHelperText-root.Mui-error').first().waitFor({ timeout: 10_000 });
    await expect(zoneInput.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(q(`SELECT 1 FROM system_data_export_template WHERE name = 'Battery hour'`)).resolves.toHaveLength(0);
    await zoneInput.fill('');
    await screenshot(page, 'export-template-form');
    await form.getByRole('button', { name: 'Save' }).click();
    // Back on the export form with the new template picked; the stored config is typed, not free JSON.
    await expect(dialog.locator('[data-testid=export-template]').innerText()).resolves.toMatch(/Battery hour/);
    const [template] = await q(`SELECT config FROM system_data_export_template WHERE system_cuid = $1 AND name = 'Battery hour'`, [systemCuid]);
    expect(template.config).toMatchObject({
      columns: [
        { entity_cuid: battery, parameter_id: 'battery_soc', aggregate: 'avg' },
        { entity_cuid: battery, parameter_id: 'battery_voltage', label: 'Volts', aggregate: 'avg' },
      ],
      resolution: 'raw',
      schedule: null,
    });
    // An English UI defaults to the point.
    await expect(dialog.locator('[data-testid=export-decimal]').getAttribute('data-value')).resolves.toBe('.');

    const text = await runExport(page);
    const [header, ...rows] = parse(text, ',');
    expect(header).toEqual([expect.stringContaining(zone), expect.stringMatching(/state of charge \[%\]$/), 'Volts [V]']);
    const want = await dbRows();
    expect(want.length).toBe(60);
    expect(rows).toEqual(want);
    expect(rows.some((r) => r[2] === '')).toBe(true);
    await screenshot(page, 'export-dialog-done');
    const [job] = await q(
      `SELECT j.status, j.rows_done FROM export_job j JOIN system_data_export_template t USING (template_cuid) WHERE t.name = 'Battery hour'`,
    );
    expect(job).toMatchObject({ status: 'DONE', rows_done: 60 });
    // The back-office list tells what a template holds, not its JSON.
    await page.goto(portal.url('/systemDataExportTemplate'));
    await expect(page.locator('[data-testid=template-summary]').first().innerText()).resolves.toBe('2 columns · Raw (every value) · CSV');
  });

  it('a French Expert gets "," and ";" by default, continues in the background and downloads from the Exports page', async () => {
    const [existing] = await q(`SELECT template_cuid FROM system_data_export_template WHERE name = 'Battery hour'`);
    expect(existing).toBeDefined();
    const page = await openAs('expert@demo.local', `/systems/${systemCuid}`, 'fr');
    // With the keyboard: the header's button opens the dialog.
    await page.getByRole('button', { name: 'Télécharger les données' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('[data-testid=export-dialog]');
    await expect(dialog.locator('[data-testid=export-decimal]').getAttribute('data-value')).resolves.toBe(',');
    await expect(dialog.getByRole('radio', { name: /Virgule \(1,5\), champs séparés par ;/ }).isChecked()).resolves.toBe(true);
    // An Expert may run exports but not make templates (systems.edit).
    await expect(dialog.locator('[data-testid=export-new-template]').count()).resolves.toBe(0);

    const text = await runExport(page);
    const [, ...rows] = parse(text, ';');
    const want = (await dbRows()).map((r) => r.map((c, i) => (i ? c.replace('.', ',') : c)));
    expect(rows).toEqual(want);
    expect(rows[0][1]).toMatch(/^\d+,25$/);

    // The same job on the Exports page (menu), with its download link.
    await dialog.locator('[data-testid=export-background], [data-testid=export-close]').first().click();
    await page.getByRole('menuitem', { name: 'Exports' }).click();
    const row = page.locator('[data-testid=export-row]').first();
    await row.waitFor({ timeout: 10_000 });
    await expect(row.getAttribute('data-status')).resolves.toBe('DONE');
    await expect(row.innerText()).resolves.toMatch(/Battery hour[\s\S]*CSV[\s\S]*Prêt/);
    const [download] = await Promise.all([page.waitForEvent('download'), row.locator('[data-testid=export-row-download]').click()]);
    expect(await readFile(await download.path(), 'utf8')).toBe(text);
    await screenshot(page, 'exports-page-fr');
    // Only the Expert's own job is listed (the installer's is not theirs).
    const mine = await eventually(
      () => page.locator('[data-testid=export-row]').count(),
      (n) => n === 1,
    );
    expect(mine).toBe(1);
  });

  it('a Basic user exports too (exports.run is level 3): the templates come without editing rights, only their own job is listed', async () => {
    const page = await openAs('basic@demo.local', `/systems/${systemCuid}`);
    await page.locator('[data-testid=system-name]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=download-data]').click();
    const dialog = page.locator('[data-testid=export-dialog]');
    await dialog.waitFor({ timeout: 10_000 });
    // Making a template is system configuration: not for Basic users.
    await expect(dialog.locator('[data-testid=export-new-template]').count()).resolves.toBe(0);
    const text = await runExport(page);
    const [, ...rows] = parse(text, ',');
    expect(rows).toEqual(await dbRows());
    await dialog.locator('[data-testid=export-background], [data-testid=export-close]').first().click();
    await page.getByRole('menuitem', { name: 'Exports' }).click();
    const row = page.locator('[data-testid=export-row]').first();
    await row.waitFor({ timeout: 10_000 });
    // Only the Basic user's own job (not the installer's nor the Expert's).
    const mine = await eventually(
      () => page.locator('[data-testid=export-row]').count(),
      (n) => n === 1,
    );
    expect(mine).toBe(1);
    // On a phone the table scrolls in its own box; the page itself does not get wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    await expect(page.locator('[data-testid=exports-table-scroll]').evaluate((el) => el.scrollWidth > el.clientWidth)).resolves.toBe(true);
    await screenshot(page, 'exports-page-phone');
  });
});
