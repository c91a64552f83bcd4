import type { Page } from 'playwright-core';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import type { ValidParameterRow } from '../../server/src/telemetry/ingest-validator';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { screenshot } from './support/chromium';
import { expectPhoneFit, newPhoneContext, PHONE } from './support/phone';
import { type BrowserPortal, eventually, PASSWORD, portalPerFile } from './support/portal';

const MIN = 60_000;

/**
 * The installer's day on a phone (360×740, touch, 2× screen), in English and in French (longer
 * labels): sign in, find a system through the menu drawer and the search, read its live values,
 * fix a device, add a changelog entry, all with taps. After each screen: no horizontal scrolling
 * and every visible target at least 44×44 px (support/phone.ts lists the few exceptions and why).
 */
describe('the installer on a phone', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));
  let farm = '';
  let battery = '';
  const sql = <T>(query: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(query, params);

  beforeAll(async () => {
    farm = await portal.systemCuid('DSL-0001');
    battery = (
      await sql<{ entity_cuid: string }>(`SELECT entity_cuid FROM entity WHERE controller_id = $1 AND entitytype_id = 'pylontech-us5000'`, [DEMO_CONTROLLER_ID])
    )[0].entity_cuid;
    // A day of the battery's state of charge, every five minutes: live values and a chart to read.
    const last = Math.floor((Date.now() - MIN) / (5 * MIN)) * 5 * MIN;
    const rows: ValidParameterRow[] = [];
    for (let t = last - 24 * 60 * MIN, index = 0; t <= last; t += 5 * MIN, index++) {
      rows.push({
        index,
        entity_cuid: battery,
        parameter_id: 'battery_soc',
        ts: new Date(t),
        min: null,
        max: null,
        value: t === last ? 81.5 : 70,
        tz: 'Africa/Nairobi',
      });
    }
    await portal.app.app.get(TelemetryWriter).write({ rows: rows.map((row) => ({ seg: 0, row })), standard: [], states: [] });
  });

  const openMenu = async (page: Page) => {
    await page.locator('header button:has(.RaSidebarToggleButton-menuButtonIconClosed)').tap();
    await page.locator('.MuiDrawer-paper .RaMenu-open').waitFor();
    // The drawer slides in (225 ms).
    await page.waitForTimeout(400);
  };
  /** Taps a menu entry in the drawer and checks the drawer closed again. */
  const goThroughMenu = async (page: Page, path: string) => {
    await openMenu(page);
    await page.locator(`.MuiDrawer-paper a[href="${path}"]`).tap();
    await page.waitForURL((url) => url.pathname === path);
    await page.locator('.MuiDrawer-paper .RaMenu-open').waitFor({ state: 'detached' });
  };

  describe.each([
    ['en', 'en-GB', 'Save'],
    ['fr', 'fr-FR', 'Enregistrer'],
  ] as const)('in %s', (lang, browserLocale, saveLabel) => {
    it('finds the farm, reads its live values, fixes a device and adds a changelog entry, all with taps', async () => {
      const context = await newPhoneContext(portal.browser, browserLocale);
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`page error: ${e.message}`));

      // The login page, in the language chosen there.
      await page.goto(portal.url('/auth/login'));
      await page.locator('[data-testid=login-email]').waitFor();
      await page.locator(`[data-testid=login-language-${lang}]`).tap();
      await expectPhoneFit(page, 'login');
      await page.locator('[data-testid=login-email]').tap();
      await page.locator('[data-testid=login-email]').fill('installer@demo.local');
      await page.locator('[data-testid=login-password]').fill(PASSWORD);
      await page.locator('[data-testid=login-submit]').tap();
      await page.locator('[data-testid=greeting]').waitFor({ timeout: 20_000 });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      await expectPhoneFit(page, 'home');

      // The menu is a drawer: it opens over the page, fits it, and closes after a tap on Systems.
      await openMenu(page);
      const drawer = await page.locator('.MuiDrawer-paper').boundingBox();
      expect(drawer && drawer.x >= 0 && drawer.x + drawer.width <= PHONE.width).toBe(true);
      await expectPhoneFit(page, 'menu drawer');
      await page.locator('.MuiDrawer-paper a[href="/system"]').tap();
      await page.locator('.MuiDrawer-paper .RaMenu-open').waitFor({ state: 'detached' });

      // The systems list: readable rows, no table; the search finds the farm; a tap opens it.
      const rows = page.locator('[data-testid=phone-list] a, [data-testid=phone-list] [role=button]');
      await rows.first().waitFor({ timeout: 15_000 });
      expect(await page.locator('table').count()).toBe(0);
      await expectPhoneFit(page, 'systems list');
      await page.locator('input[name=q]').tap();
      await page.locator('input[name=q]').fill('Farm');
      await page.waitForURL(/filter=.*Farm/);
      await eventually(
        () => rows.count(),
        (n) => n === 1,
      );
      const farmRow = rows.filter({ hasText: DEMO_SYSTEMS.farm });
      expect(await farmRow.locator('[data-testid=state-chip]').count()).toBe(1);
      await farmRow.tap();
      await page.waitForURL((url) => url.pathname === `/systems/${farm}`);

      // The system page: the battery's live value, cards stacked, the chart inside the phone.
      const soc = page.locator(
        `[data-testid=device-card][data-device="${battery}"] [data-testid=latest-value][data-parameter=battery_soc] [data-testid=latest-value-text]`,
      );
      await soc.waitFor({ timeout: 15_000 });
      expect((await soc.textContent())?.replace(/\s/g, ' ')).toMatch(lang === 'fr' ? /^81,5 %$/ : /^81\.5 %$/);
      await page.locator('[data-testid=system-chart] canvas').waitFor({ timeout: 15_000 });
      await expectPhoneFit(page, 'system page');
      const chart = await page.locator('[data-testid=system-chart]').boundingBox();
      expect(chart && chart.x >= 0 && chart.x + chart.width <= PHONE.width).toBe(true);
      await screenshot(page, `phone-${lang}-system-page`);

      // The changelog tab (the tabs scroll sideways inside their bar, never the page): add an entry.
      await page.locator(`a[role=tab][href="/systems/${farm}/changelog"]`).tap();
      await page.locator('[data-testid=changelog-title]').waitFor();
      await expectPhoneFit(page, 'changelog');
      const title = `Fuse replaced (${lang})`;
      await page.locator('[data-testid=changelog-title]').tap();
      await page.locator('[data-testid=changelog-title]').fill(title);
      await page.locator('[data-testid=changelog-message]').fill('On site with a phone.');
      await page.locator('[data-testid=changelog-add]').tap();
      await page.locator('[data-testid=changelog-entry]', { hasText: title }).waitFor({ timeout: 15_000 });
      expect((await sql(`SELECT 1 FROM system_changelog WHERE system_cuid = $1 AND title = $2`, [farm, title])).length).toBe(1);
      await expectPhoneFit(page, 'changelog with the new entry');
      // Dialogs take the whole phone: the entry's edit dialog, closed again with its first button (Cancel).
      await page.locator('[data-testid=changelog-entry]', { hasText: title }).locator('[data-testid=changelog-edit]').tap();
      const dialog = page.locator('.MuiDialog-paper');
      await dialog.waitFor();
      await expectPhoneFit(page, 'changelog edit dialog');
      expect(await dialog.boundingBox()).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
      await dialog.locator('.MuiDialogActions-root button').first().tap();
      await dialog.waitFor({ state: 'detached' });

      // Fix a device: Devices from the menu, search the battery, tap it, rename it, save.
      await goThroughMenu(page, '/entity');
      await rows.first().waitFor({ timeout: 15_000 });
      await expectPhoneFit(page, 'devices list');
      await page.locator('input[name=q]').tap();
      await page.locator('input[name=q]').fill('Battery bank');
      await page.waitForURL(/filter=.*Battery/);
      await eventually(
        () => rows.count(),
        (n) => n === 1,
      );
      await rows.filter({ hasText: 'Battery bank' }).tap();
      await page.waitForURL((url) => url.pathname === `/entity/${battery}`);
      const name = page.locator('input[name=name]');
      await name.waitFor({ timeout: 15_000 });
      await page.locator('fieldset[data-readonly=false]').waitFor();
      await expectPhoneFit(page, 'device form');
      const field = await page.locator('.MuiTextField-root:has(input[name=name])').boundingBox();
      // One column: the field takes the phone's width (less the page's padding).
      expect(field && field.width >= PHONE.width - 48).toBe(true);
      const renamed = `Battery bank ${lang}`;
      await name.tap();
      await name.fill(renamed);
      await page.getByRole('button', { name: saveLabel }).tap();
      const saved = await eventually(
        async () => (await sql<{ name: string }>(`SELECT name FROM entity WHERE entity_cuid = $1`, [battery]))[0].name,
        (n) => n === renamed,
      );
      expect(saved).toBe(renamed);
      await page.waitForURL((url) => url.pathname === '/entity');
      await expectPhoneFit(page, 'devices list after the save');
      // Put the name back for the other language's run.
      await sql(`UPDATE entity SET name = 'Battery bank' WHERE entity_cuid = $1`, [battery]);
    });
  });

  it('every list the installer has fits the phone as rows (sites, controllers, data processors, triggers …)', async () => {
    const context = await newPhoneContext(portal.browser);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(portal.url('/auth/login'));
    await page.locator('[data-testid=login-email]').fill('installer@demo.local');
    await page.locator('[data-testid=login-password]').fill(PASSWORD);
    await page.locator('[data-testid=login-submit]').tap();
    await page.locator('[data-testid=greeting]').waitFor({ timeout: 20_000 });
    await openMenu(page);
    const paths = await page.locator('.MuiDrawer-paper a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    await page.keyboard.press('Escape');
    const lists = paths.filter((p) => /^\/[A-Za-z]+$/.test(p) && !['/dashboards', '/exports', '/preferences', '/alarms', '/map'].includes(p));
    expect(lists.length).toBeGreaterThan(5);
    for (const path of lists) {
      await page.goto(portal.url(path));
      // A list either shows rows or says it is empty; never a table.
      // The page is there and done loading (a react-admin list, or a page of its own: alarms, inbox …).
      await page.waitForFunction(
        () => (document.querySelector('#main-content')?.textContent ?? '').trim().length > 0 && !document.querySelector('#main-content [role=progressbar]'),
        null,
        { timeout: 15_000 },
      );
      await page.waitForTimeout(500);
      if ((await page.locator('.RaList-main').count()) > 0) {
        // A react-admin list shows readable rows or says it is empty; never a table.
        await page
          .locator('[data-testid=phone-list], [data-testid=phone-list-empty], .RaEmpty-message')
          .first()
          .waitFor({ timeout: 15_000 })
          .catch((e: Error) => {
            throw new Error(`${path}: ${e.message}`);
          });
      }
      await screenshot(page, `phone-list-${path.slice(1)}`);
      expect({ path, tables: await page.locator('table').count() }).toEqual({ path, tables: 0 });
      await expectPhoneFit(page, path);
    }
  });
});
