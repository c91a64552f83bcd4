import type { Page } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, portalPerFile, signIn } from './support/portal';

const TYPE_ID = 'irradiance-sensor-x1';
const MODEL = 'Irradiance sensor X1';
const NEW_PARAMETER = 'solar_irradiance';
const NEW_UNIT = 'W/m²';
const EXISTING_PARAMETER = 'battery_soc';

/** Polls until the value is the expected one (10 s), then checks it (a clear diff on failure). */
async function until<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const end = Date.now() + 10_000;
  let value = await read();
  while (value !== expected && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  expect(value).toBe(expected);
}

/**
 * Issue 4, catalogue screens: a superuser builds a device type with two log parameters (one
 * created on the way, with a new unit); an Expert (level 2) sees it all but may change nothing.
 */
describe('catalogue screens in Chromium', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));

  const openAs = async (email: string): Promise<Page> => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    await signIn(page, portal.url('/auth/login'), email);
    return page;
  };
  const db = <T>(sql: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(sql, params);
  const assignmentRow = (page: Page, parameter: string) => page.locator('[data-testid=parameter-assignments] tbody tr', { hasText: parameter });

  it('a superuser adds a device type with a new log parameter (and unit) and an existing one', async () => {
    const page = await openAs('superuser@demo.local');

    // From the menu to the list, then its Create button.
    await page.getByRole('menuitem', { name: 'Device types' }).click();
    await page.locator('[data-testid=entity-type-list]').waitFor();
    await page.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(/\/entityType\/create$/);

    // Keyboard: type, Tab to the next field.
    await page.locator('input[name=entitytype_id]').fill(TYPE_ID);
    await page.keyboard.press('Tab');
    await page.keyboard.type(MODEL);
    expect(await page.locator('input[name=model]').inputValue()).toBe(MODEL);
    // The kind: a select, opened and chosen with the keyboard.
    await page.getByRole('combobox', { name: 'Kind' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Data source' }).waitFor();
    await page.keyboard.press('ArrowDown'); // Device → State machine
    await page.keyboard.press('ArrowDown'); // → Calculated value
    await page.keyboard.press('ArrowDown'); // → Data source
    await page.keyboard.press('Enter');
    await expect(page.getByRole('combobox', { name: 'Kind' }).textContent()).resolves.toBe('Data source');
    // The manufacturer: an autocomplete.
    await page.locator('input[name=manufacturer_cuid]').fill('Victron');
    await page.getByRole('option', { name: 'Victron Energy' }).click();
    await page.locator('textarea[name=description]').fill('Pyranometer on the array plane');
    await screenshot(page, 'catalogue-entity-type-create');
    // Enter in a text field saves; the new type's page opens for its parameters.
    await page.locator('input[name=model]').press('Enter');
    await page.waitForURL(new RegExp(`/entityType/${TYPE_ID}$`), { timeout: 15_000 });

    await page.locator('[data-testid=tab-parameters]').click();
    await page.locator('[data-testid=parameter-assignments]').waitFor();
    await page.getByText('No log parameters yet.').waitFor();

    // A parameter that does not exist yet: "Create …" opens the small form.
    const add = page.locator('#add-parameter-input');
    await add.fill(NEW_PARAMETER);
    await page.getByRole('option', { name: `Create the parameter "${NEW_PARAMETER}"` }).click();
    const dialog = page.getByRole('dialog', { name: 'New log parameter' });
    await dialog.waitFor();
    expect(await dialog.locator('input[name=parameter_id]').inputValue()).toBe(NEW_PARAMETER);
    await dialog.locator('textarea[name=description]').fill('Solar irradiance on the array plane');
    // Its unit does not exist either: typed, then "Create …" in the unit autocomplete.
    await dialog.locator('input[name=unit_cuid]').fill(NEW_UNIT);
    await page.getByRole('option', { name: `Create ${NEW_UNIT}` }).click();
    await until(() => dialog.locator('input[name=unit_cuid]').inputValue(), NEW_UNIT);
    await screenshot(page, 'catalogue-new-log-parameter');
    // Enter in the id field saves the parameter; it becomes the autocomplete's choice.
    await dialog.locator('input[name=parameter_id]').press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    await until(() => add.inputValue(), NEW_PARAMETER);
    await page.locator('[data-testid=add-parameter]').getByRole('button', { name: 'Add' }).click();
    await assignmentRow(page, NEW_PARAMETER).waitFor({ timeout: 10_000 });
    await assignmentRow(page, NEW_PARAMETER).filter({ hasText: NEW_UNIT }).waitFor({ timeout: 10_000 });

    // An existing parameter, with the keyboard only: type, ArrowDown and Enter pick, Tab and Enter add.
    await add.click();
    await add.pressSequentially(EXISTING_PARAMETER);
    // The server-side search is debounced: wait until the list is filtered down to the match.
    await until(() => page.getByRole('option').first().textContent(), EXISTING_PARAMETER);
    await add.press('ArrowDown');
    await add.press('Enter');
    await until(() => add.inputValue(), EXISTING_PARAMETER);
    // Tab leaves the autocomplete for the Add button; Enter presses it.
    await add.press('Tab');
    await until(() => page.evaluate(() => document.activeElement?.textContent ?? ''), 'Add');
    await page.keyboard.press('Enter');
    await assignmentRow(page, EXISTING_PARAMETER).waitFor({ timeout: 10_000 });
    await assignmentRow(page, EXISTING_PARAMETER).filter({ hasText: '%' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'catalogue-entity-type-parameters');

    // The database holds exactly what the screens said.
    const [type] = await db<{ model: string; entity_type: string; manufacturer: string; description: string }>(
      `SELECT t.model, t.entity_type::text AS entity_type, m.name AS manufacturer, t.description
         FROM entity_type t JOIN manufacturer m ON m.manufacturer_cuid = t.manufacturer_cuid WHERE t.entitytype_id = $1`,
      [TYPE_ID],
    );
    expect(type).toEqual({ model: MODEL, entity_type: 'DataSource', manufacturer: 'Victron Energy', description: 'Pyranometer on the array plane' });
    const assigned = await db<{ parameter_id: string }>(
      'SELECT parameter_id FROM entity_type_log_parameter_assignment WHERE entitytype_id = $1 ORDER BY parameter_id',
      [TYPE_ID],
    );
    expect(assigned.map((r) => r.parameter_id)).toEqual([EXISTING_PARAMETER, NEW_PARAMETER]);
    const [parameter] = await db<{ description: string; type: string; unit: string; unit_description: string | null }>(
      `SELECT p.description, p.type::text AS type, u.unit, u.description AS unit_description
         FROM log_parameter p JOIN unit u ON u.unit_cuid = p.unit_cuid WHERE p.parameter_id = $1`,
      [NEW_PARAMETER],
    );
    expect(parameter).toEqual({ description: 'Solar irradiance on the array plane', type: 'FloatLogParameter', unit: NEW_UNIT, unit_description: null });
  });

  it('every catalogue list, record page, edit form and create form opens for a superuser without an API error', async () => {
    const page = await openAs('superuser@demo.local');
    const failures: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/trpc/') && r.status() >= 400) failures.push(`${r.status()} ${decodeURIComponent(r.url()).slice(0, 200)}`);
    });
    const lists = ['entityType', 'controllerType', 'manufacturer', 'entityCategory', 'logParameter', 'unit', 'interfaceType'];
    for (const resource of lists) {
      await page.goto(portal.url(`/${resource}`));
      const rows = page.locator('tbody tr');
      await rows.first().waitFor({ timeout: 10_000 });
      // Every sortable column header sorts without the server refusing it.
      const headers = page.locator('thead [data-field] .MuiTableSortLabel-root, thead .MuiTableSortLabel-root');
      const sortable = await headers.count();
      expect([resource, sortable > 0]).toEqual([resource, true]);
      for (let i = 0; i < sortable; i++) {
        await headers.nth(i).click();
        await rows.first().waitFor();
      }
      // The pointer leaves the headers: their "Sort by" tooltip would cover the first row.
      await page.mouse.move(0, 0);
      await page.waitForFunction(() => !document.querySelector('[role=tooltip]'), undefined, { timeout: 5_000 });
      // The first data cell (after the selection box; other cells may hold links).
      await rows.first().locator('td').nth(1).click();
      await page.waitForURL(new RegExp(`/${resource}/[^/]+/show$`));
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.waitForURL(new RegExp(`/${resource}/[^/]+$`));
      await page.getByRole('button', { name: 'Save' }).waitFor({ timeout: 10_000 });
      await page.goto(portal.url(`/${resource}/create`));
      await page.getByRole('button', { name: 'Save' }).waitFor({ timeout: 10_000 });
    }
    await screenshot(page, 'catalogue-create-unit');
    expect(failures).toEqual([]);
  });

  it('a superuser changes a unit with the keyboard; its { unit, factor } variants stay as they were', async () => {
    const page = await openAs('superuser@demo.local');
    const [kwh] = await db<{ unit_cuid: string; unit_variants: unknown }>(`SELECT unit_cuid, unit_variants FROM unit WHERE unit = 'kWh'`);
    await page.goto(portal.url(`/unit/${kwh.unit_cuid}`));
    const description = page.locator('textarea[name=description]');
    await description.waitFor({ timeout: 10_000 });
    await page.getByText('Wh ×1000').waitFor();
    await description.fill('Kilowatt-hour (energy)');
    // Tab past the variants to Save, Enter saves.
    await page.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/unit/${kwh.unit_cuid}/show$`), { timeout: 10_000 });
    await page.getByText('Kilowatt-hour (energy)').waitFor();
    const [after] = await db<{ description: string; unit_variants: unknown }>('SELECT description, unit_variants FROM unit WHERE unit_cuid = $1', [
      kwh.unit_cuid,
    ]);
    expect(after).toEqual({ description: 'Kilowatt-hour (energy)', unit_variants: kwh.unit_variants });
  });

  it('a superuser adds and changes a controller type interface, and adds a meta version to a device type', async () => {
    const page = await openAs('superuser@demo.local');
    const [cerbo] = await db<{ controllertype_cuid: string }>(`SELECT controllertype_cuid FROM controller_type WHERE model = 'Cerbo GX'`);
    await page.goto(portal.url(`/controllerType/${cerbo.controllertype_cuid}`));
    await page.locator('[data-testid=tab-interfaces]').click();
    const interfaces = page.locator('[data-testid=interface-assignments]');
    await interfaces.locator('tbody tr').first().waitFor({ timeout: 10_000 });
    const before = await interfaces.locator('tbody tr').count();

    const form = page.locator('[data-testid=add-interface]');
    await form.locator('input[name=alias]').fill('RS485 port 2');
    await page.keyboard.press('Tab');
    await page.keyboard.type('/dev/ttyUSB1');
    await form.locator('input[name=interfacetype_id]').fill('modbus');
    await page.getByRole('option', { name: 'modbus-tcp' }).click();
    await form.getByRole('button', { name: 'Add' }).click();
    const added = interfaces.locator('tbody tr', { hasText: 'RS485 port 2' });
    await added.waitFor({ timeout: 10_000 });
    await until(() => interfaces.locator('tbody tr').count(), before + 1);

    // A row opens its edit dialog; Enter in a field saves.
    await added.locator('td').first().click();
    const dialog = page.getByRole('dialog', { name: 'Change the interface' });
    await dialog.locator('input[name=alias]').fill('RS485 port B');
    await dialog.locator('input[name=alias]').press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    await interfaces.locator('tbody tr', { hasText: 'RS485 port B' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'catalogue-controller-type-interfaces');
    const rows = await db<{ alias: string; interface_address: string; interfacetype_id: string }>(
      `SELECT alias, interface_address, interfacetype_id FROM interface_type_controller_type_assignment WHERE controllertype_cuid = $1 AND alias LIKE 'RS485%'`,
      [cerbo.controllertype_cuid],
    );
    expect(rows).toEqual([{ alias: 'RS485 port B', interface_address: '/dev/ttyUSB1', interfacetype_id: 'modbus-tcp' }]);

    // Meta versions of a device type: JSON text, newest first.
    await page.goto(portal.url('/entityType/pylontech-us5000'));
    await page.locator('[data-testid=tab-meta]').click();
    const meta = page.locator('[data-testid=add-meta] textarea').first();
    await meta.waitFor({ timeout: 10_000 });
    await meta.fill('{ "cells": 15, ');
    await page
      .getByText(/line 1/i)
      .first()
      .waitFor();
    await meta.fill('{ "cells": 15, "nominal_voltage": 48 }');
    await page.locator('[data-testid=add-meta]').getByRole('button', { name: 'Add the version' }).click();
    await page.locator('[data-testid=meta-versions] tbody tr').first().filter({ hasText: 'nominal_voltage' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'catalogue-entity-type-meta');
    const versions = await db<{ meta: unknown }>(`SELECT meta FROM entity_type_meta WHERE entitytype_id = 'pylontech-us5000' ORDER BY datetime DESC LIMIT 1`);
    expect(versions[0].meta).toEqual({ cells: 15, nominal_voltage: 48 });
  });

  it('a superuser imports log parameters from CSV: the bad row is reported with its line, then only the valid rows go in', async () => {
    const page = await openAs('superuser@demo.local');
    const [volt] = await db<{ unit_cuid: string }>(`SELECT unit_cuid FROM unit WHERE unit = 'V'`);
    const csv = [
      'parameter_id,description,unit_cuid,type',
      `pv_string_1_voltage,PV string 1 voltage,${volt.unit_cuid},FloatLogParameter`,
      `pv_string_2_voltage,PV string 2 voltage,${volt.unit_cuid},Fuzzy`,
      'grid_available,Grid available,,BoolLogParameter',
      '',
    ].join('\r\n');
    await page.goto(portal.url('/logParameter'));
    await page.locator('[data-testid=import-button]').click();
    await page.locator('[data-testid=import-choose]').waitFor();
    await page.locator('[data-testid=import-file]').setInputFiles({ name: 'parameters.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const errors = page.locator('[data-testid=import-errors]');
    await errors.waitFor({ timeout: 30_000 });
    const lines = await errors.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-line'))));
    expect([...new Set(lines)]).toEqual([3]);
    expect(await page.locator('[data-testid=import-all]').count()).toBe(0);
    await screenshot(page, 'catalogue-import-errors');
    const imported = () =>
      db<{ parameter_id: string; type: string; unit_cuid: string | null }>(
        `SELECT parameter_id, type::text AS type, unit_cuid FROM log_parameter WHERE parameter_id IN ('pv_string_1_voltage', 'pv_string_2_voltage', 'grid_available') ORDER BY parameter_id`,
      );
    expect(await imported()).toEqual([]);
    await page.locator('[data-testid=import-valid-rows]').click();
    await page.getByText('2 records imported').waitFor({ timeout: 30_000 });
    expect(await imported()).toEqual([
      { parameter_id: 'grid_available', type: 'BoolLogParameter', unit_cuid: null },
      { parameter_id: 'pv_string_1_voltage', type: 'FloatLogParameter', unit_cuid: volt.unit_cuid },
    ]);
  });

  it('an Expert sees the new type and its parameters but no button to change them, and the server refuses a forced update', async () => {
    const page = await openAs('expert@demo.local');

    await page.getByRole('menuitem', { name: 'Device types' }).click();
    const list = page.locator('[data-testid=entity-type-list]');
    await list.waitFor();
    await page.getByPlaceholder('Search').fill('Irradiance');
    const row = list.locator('tbody tr', { hasText: MODEL });
    // The search is debounced: wait until the list holds the one match.
    await until(() => list.locator('tbody tr').count(), 1);
    await row.waitFor({ timeout: 10_000 });
    await expect(row.textContent()).resolves.toContain('Data source');
    await expect(row.textContent()).resolves.toContain('Victron Energy');
    // No create, no export-less trap: create is hidden, rows have no selection boxes (bulk delete).
    await expect(page.getByRole('link', { name: 'Create' }).count()).resolves.toBe(0);
    await expect(list.locator('input[type=checkbox]').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Export' }).count()).resolves.toBe(1);
    await expect(page.locator('[data-testid=import-button]').count()).resolves.toBe(0);
    await screenshot(page, 'catalogue-expert-list');

    // The show page: details, then the parameters with unit and type, and no way to change them.
    await row.click();
    await page.waitForURL(new RegExp(`/entityType/${TYPE_ID}/show$`));
    await page.getByText('Pyranometer on the array plane').waitFor();
    await expect(page.getByRole('link', { name: 'Edit' }).count()).resolves.toBe(0);
    await page.locator('[data-testid=tab-parameters]').click();
    await assignmentRow(page, NEW_PARAMETER).waitFor({ timeout: 10_000 });
    await assignmentRow(page, NEW_PARAMETER).filter({ hasText: NEW_UNIT }).waitFor({ timeout: 10_000 });
    await assignmentRow(page, EXISTING_PARAMETER).filter({ hasText: 'Number' }).waitFor({ timeout: 10_000 });
    await expect(page.locator('[data-testid=parameter-assignments] button', { hasText: 'Remove' }).count()).resolves.toBe(0);
    await expect(page.locator('[data-testid=add-parameter]').count()).resolves.toBe(0);
    await screenshot(page, 'catalogue-expert-show');

    // The edit address typed by hand: the read-only page with a notice, no form.
    await page.goto(portal.url(`/entityType/${TYPE_ID}`));
    await page.locator('[data-testid=read-only-notice]').waitFor({ timeout: 10_000 });
    await page.getByText(MODEL, { exact: true }).waitFor();
    await expect(page.locator('form').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Save' }).count()).resolves.toBe(0);
    await screenshot(page, 'catalogue-expert-edit-url');

    // The create address: react-admin's access-denied page, not a form.
    await page.goto(portal.url('/entityType/create'));
    await page.waitForURL(/access-denied/, { timeout: 10_000 });
    await expect(page.locator('input[name=entitytype_id]').count()).resolves.toBe(0);

    // Forced through the API: 403, and nothing changed.
    const api = await portal.api('expert@demo.local');
    const update = await api.mutate('entityType.update', { id: TYPE_ID, data: { model: 'Hacked' } });
    expect(update.status).toBe(403);
    const unassign = await api.mutate('entityTypeLogParameterAssignment.create', { data: { entitytype_id: TYPE_ID, parameter_id: 'pv_power' } });
    expect(unassign.status).toBe(403);
    const [type] = await db<{ model: string }>('SELECT model FROM entity_type WHERE entitytype_id = $1', [TYPE_ID]);
    expect(type.model).toBe(MODEL);
    const assigned = await db<{ n: string }>('SELECT count(*) AS n FROM entity_type_log_parameter_assignment WHERE entitytype_id = $1', [TYPE_ID]);
    expect(Number(assigned[0].n)).toBe(2);
  });
});
