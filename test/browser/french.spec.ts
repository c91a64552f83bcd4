import type { BrowserContext, Page } from 'playwright-core';
import { formatDate } from '../../client/src/i18n/format';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import type { ValidParameterRow } from '../../server/src/telemetry/ingest-validator';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { screenshot } from './support/chromium';
import { type BrowserPortal, eventually, PASSWORD, startBrowserPortal } from './support/portal';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** What Intl writes between thousands in French (U+202F), and the no-break space before a unit. */
const NNBSP = '\u202f';
const BROWSER_ZONE = 'Africa/Lagos';

/**
 * French on every screen: a user whose stored language is French signs in on a browser set to
 * American English and gets French screens, numbers (`1 235`, `87,5`) and 24-hour dates
 * (`23/11/2026 14:05`), catalogue texts in French (role names, parameter names); choosing English
 * in the app stores it with the user.
 */
describe('French screens from the stored language', () => {
  let portal: BrowserPortal;
  let farm: string;
  let battery: string;
  let inverter: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    portal = await startBrowserPortal();
    farm = await portal.systemCuid('DSL-0001');
    const entity = async (type: string) =>
      (
        await portal.app.db.dataSource.query<{ entity_cuid: string }[]>(`SELECT entity_cuid FROM entity WHERE controller_id = $1 AND entitytype_id = $2`, [
          DEMO_CONTROLLER_ID,
          type,
        ])
      )[0].entity_cuid;
    battery = await entity('pylontech-us5000');
    inverter = await entity('victron-multiplus-ii');
    const rows: ValidParameterRow[] = [];
    const last = Math.floor((Date.now() - MIN) / (5 * MIN)) * 5 * MIN;
    let index = 0;
    for (let t = last - 2 * DAY; t <= last; t += 5 * MIN) {
      rows.push({
        index: index++,
        entity_cuid: battery,
        parameter_id: 'battery_soc',
        ts: new Date(t),
        min: null,
        max: null,
        value: t === last ? 87.5 : Math.round(60 + 30 * Math.sin(t / (6 * HOUR))),
        tz: 'Africa/Nairobi',
      });
    }
    rows.push({
      index: index++,
      entity_cuid: battery,
      parameter_id: 'battery_voltage',
      ts: new Date(last),
      min: null,
      max: null,
      value: 51.25,
      tz: 'Africa/Nairobi',
    });
    rows.push({
      index,
      entity_cuid: inverter,
      parameter_id: 'ac_output_power',
      ts: new Date(last),
      min: null,
      max: null,
      value: 1234.5,
      tz: 'Africa/Nairobi',
    });
    await portal.app.app.get(TelemetryWriter).write({ rows: rows.map((row) => ({ seg: 0, row })), standard: [], states: [] });

    // The user chose French (on another device): stored with them, nothing on this browser.
    const api = await portal.api('superuser@demo.local');
    expect((await api.mutate('user.updatePreferences', { language: 'fr' })).status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
    await portal?.close();
  });

  /** A fresh browser in American English (its own storage and cookies). */
  const americanBrowser = async (): Promise<Page> => {
    const context = await portal.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: BROWSER_ZONE });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    return page;
  };

  const signInFromLoginPage = async (page: Page, email: string) => {
    await page.locator('[data-testid=login-email]').fill(email);
    await page.locator('[data-testid=login-password]').fill(PASSWORD);
    await page.locator('[data-testid=login-password]').press('Enter');
    await page.locator('[data-testid=greeting]').waitFor({ timeout: 20_000 });
  };

  const storedLanguage = async (email: string) =>
    (
      await portal.app.db.dataSource.query<{ language: string | null }[]>(`SELECT meta->'preferences'->>'language' AS language FROM "user" WHERE email = $1`, [
        email,
      ])
    )[0].language;

  it('signs in on an English browser and gets French: home, a list, the system page, roles; English once chosen stays', async () => {
    const page = await americanBrowser();
    await page.goto(portal.url('/auth/login'));
    // Before sign-in: the browser's language (nothing stored on this device).
    expect(await page.locator('#login-heading').textContent()).toBe('Sign in');
    await signInFromLoginPage(page, 'superuser@demo.local');

    // Home: French texts, the roles' French names, numbers the French way.
    await page.waitForFunction(() => document.querySelector('[data-testid=greeting]')?.textContent === 'Bonjour, Demo Superuser');
    expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('portal.locale')])).toEqual(['fr', 'fr']);
    await page.locator('[data-testid=roles] [data-testid=role-chip]').first().waitFor();
    const roleNames = await page.locator('[data-testid=roles] [data-testid=role-chip]').allTextContents();
    expect(roleNames).toEqual(['Superutilisateur', 'Installateur système', 'Expert', 'Basique']);
    const today = page.locator('[data-testid=energy-today]');
    await today.waitFor();
    await page.waitForFunction(() => /kWh$/.test(document.querySelector('[data-testid=energy-today]')?.textContent ?? ''));
    expect(await today.textContent()).toMatch(/^\d{1,3}(\u202f\d{3})*(,\d+)? kWh$/);
    await screenshot(page, 'french-home');

    // A list: the companies' creation dates day first (dd/mm/yyyy), in this browser's zone.
    await page.goto(portal.url('/company'));
    await page.locator('[data-testid=company-list] tbody tr').first().waitFor();
    const [company] = await portal.app.db.dataSource.query<{ name: string; created_at: Date }[]>(`SELECT name, created_at FROM company ORDER BY name LIMIT 1`);
    const row = page.locator('[data-testid=company-list] tbody tr', { hasText: company.name });
    expect(await row.textContent()).toContain(formatDate(company.created_at, 'fr', { timeZone: BROWSER_ZONE }));
    expect(formatDate(company.created_at, 'fr', { timeZone: BROWSER_ZONE })).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);

    // The memberships screen: role names in French.
    await page.goto(portal.url('/companyMembership'));
    await page.locator('[data-testid=membership-list] tbody tr').first().waitFor();
    // (The roles' French comes with role.all, which the shell asks for shortly after a page load.)
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid=membership-list] [data-level]')).some((c) => c.textContent === 'Superutilisateur (0)'),
    );
    const chips = new Set(await page.locator('[data-testid=membership-list] [data-level]').allTextContents());
    for (const name of ['Superutilisateur (0)', 'Installateur système (1)', 'Expert (2)', 'Basique (3)']) expect(chips).toContain(name);
    expect([...chips].some((c) => /Superuser|SystemInstaller|Basic/.test(c))).toBe(false);
    await screenshot(page, 'french-memberships');

    // The system page: latest values the French way, parameter names in French, the chart's
    // caption, axes and legend with 24-hour times and French numbers.
    await page.goto(portal.url(`/systems/${farm}`));
    const soc = page.locator(`[data-testid=device-card][data-device="${battery}"] [data-testid=latest-value][data-parameter=battery_soc]`);
    await soc.waitFor({ timeout: 20_000 });
    expect(await soc.locator('[data-testid=latest-value-text]').textContent()).toBe('87,5 %');
    expect(await soc.locator('dt').textContent()).toBe('État de charge de la batterie');
    expect(
      await page
        .locator(
          `[data-testid=device-card][data-device="${battery}"] [data-testid=latest-value][data-parameter=battery_voltage] [data-testid=latest-value-text]`,
        )
        .textContent(),
    ).toBe('51,3 V');
    expect(
      await page
        .locator(
          `[data-testid=device-card][data-device="${inverter}"] [data-testid=latest-value][data-parameter=ac_output_power] [data-testid=latest-value-text]`,
        )
        .textContent(),
    ).toBe(`1${NNBSP}235 W`);
    expect(await soc.textContent()).toMatch(/il y a/);

    const chart = page.locator('[data-testid=system-chart]');
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid=system-chart]');
        return (
          el?.getAttribute('data-loading') === 'false' &&
          Number(el.getAttribute('data-points')) > 0 &&
          !!document.querySelector('[data-testid=uplot-host]')?.getAttribute('data-ticks-x')
        );
      },
      undefined,
      { timeout: 20_000 },
    );
    expect(await chart.isVisible()).toBe(true);
    const frDateTime = '\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}';
    expect(await page.locator('[data-testid=chart-caption]').textContent()).toMatch(new RegExp(`^${frDateTime} – ${frDateTime} · `));
    const host = page.locator('[data-testid=uplot-host]');
    const xTicks = (await host.getAttribute('data-ticks-x'))!.split('|');
    expect(xTicks.length).toBeGreaterThan(2);
    for (const tick of xTicks) expect(tick).toMatch(/^\d{2}:\d{2}$/);
    expect(xTicks.some((tick) => Number(tick.slice(0, 2)) >= 13)).toBe(true); // 24 hours of ticks: some past noon, no AM/PM
    const yTicks = (await host.getAttribute('data-ticks-y'))!.split('|');
    expect(yTicks.length).toBeGreaterThan(2);
    for (const tick of yTicks) expect(tick).toMatch(/^-?\d{1,3}(\u202f\d{3})*(,\d+)?$/);
    // The legend under the pointer: the time in French.
    await page.locator('[data-testid=uplot-host] .u-over').scrollIntoViewIfNeeded();
    const plot = (await page.locator('[data-testid=uplot-host] .u-over').boundingBox())!;
    await page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height / 2, { steps: 5 });
    await page.mouse.move(plot.x + plot.width * 0.6, plot.y + plot.height / 2, { steps: 5 });
    await page
      .waitForFunction(
        (re) => new RegExp(re).test(document.querySelector('[data-testid=uplot-host] .u-legend .u-series .u-value')?.textContent ?? ''),
        `^${frDateTime}$`,
        { timeout: 10_000 },
      )
      .catch(async (error: Error) => {
        throw new Error(`${error.message}; the legend shows ${JSON.stringify(await page.locator('[data-testid=uplot-host] .u-legend').textContent())}`);
      });
    // A month: days with French month names.
    const before = await chart.getAttribute('data-from');
    await page.locator('[data-testid=range-30d]').click();
    await page.waitForFunction((prev) => {
      const el = document.querySelector('[data-testid=system-chart]');
      return el?.getAttribute('data-loading') === 'false' && el.getAttribute('data-from') !== prev;
    }, before);
    await page.waitForFunction(
      () => !/^\d{2}:\d{2}$/.test((document.querySelector('[data-testid=uplot-host]')?.getAttribute('data-ticks-x') ?? '').split('|')[0]),
    );
    const weekTicks = (await host.getAttribute('data-ticks-x'))!.split('|');
    for (const tick of weekTicks) expect(tick).toMatch(/^\d{1,2} (janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)\.?$/);
    await screenshot(page, 'french-system-page');

    // Choosing English in the app: the screens follow at once and the choice is stored with the user.
    await page.goto(portal.url('/'));
    await page.locator('[data-testid=greeting]').waitFor();
    await page.getByRole('button', { name: 'Compte' }).click();
    await page.locator('[data-testid=menu-language-en]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=greeting]')?.textContent === 'Hello, Demo Superuser');
    expect(
      await eventually(
        () => storedLanguage('superuser@demo.local'),
        (l) => l === 'en',
      ),
    ).toBe('en');
    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-testid=greeting]')?.textContent === 'Hello, Demo Superuser');
    await page.locator('[data-testid=roles] [data-testid=role-chip]').first().waitFor();
    expect(await page.locator('[data-testid=roles] [data-testid=role-chip]').allTextContents()).toEqual(['Superuser', 'SystemInstaller', 'Expert', 'Basic']);
  });

  it('the preferences page stores the language with the user, and another device follows it after sign-in', async () => {
    const page = await americanBrowser();
    await page.goto(portal.url('/auth/login'));
    await signInFromLoginPage(page, 'expert@demo.local');
    expect(await page.locator('[data-testid=greeting]').textContent()).toBe('Hello, Demo Expert');
    await page.goto(portal.url('/preferences'));
    await page.locator('[data-testid=preferences]').waitFor();
    await page.locator('[data-testid=prefs-language] [role=combobox]').click();
    await page.getByRole('option', { name: 'Français' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    expect(
      await eventually(
        () => storedLanguage('expert@demo.local'),
        (l) => l === 'fr',
      ),
    ).toBe('fr');

    // Another device: its login page in its own language, the screens in the stored one.
    const other = await americanBrowser();
    await other.goto(portal.url('/auth/login'));
    expect(await other.locator('#login-heading').textContent()).toBe('Sign in');
    await signInFromLoginPage(other, 'expert@demo.local');
    await other.waitForFunction(() => document.querySelector('[data-testid=greeting]')?.textContent === 'Bonjour, Demo Expert');
    // Signed out, that device's login page now opens in French (it remembers the choice).
    await other.evaluate(async () => {
      await fetch('/api/auth/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    });
    await other.goto(portal.url('/auth/login'));
    await other.locator('[data-testid=login-form]').waitFor();
    expect(await other.locator('#login-heading').textContent()).toBe('Connexion');
  });

  it('a superuser gives a catalogue text its French in the form; French screens show it, English ones the English', async () => {
    const page = await americanBrowser();
    await page.goto(portal.url('/auth/login'));
    await signInFromLoginPage(page, 'superuser@demo.local');
    const [param] = await portal.app.db.dataSource.query<{ translations: unknown }[]>(`SELECT translations FROM log_parameter WHERE parameter_id = 'pv_power'`);
    expect(param.translations).toEqual({ fr: { description: 'Puissance PV' } });
    await page.goto(portal.url('/logParameter/pv_power'));
    const french = page.locator('textarea[name="translations.fr.description"]');
    await french.waitFor({ timeout: 10_000 });
    expect(await french.inputValue()).toBe('Puissance PV');
    await french.fill('Puissance photovoltaïque');
    await page.getByRole('button', { name: /Save|Enregistrer/ }).click();
    await page.waitForURL(/\/logParameter\/pv_power\/show$/, { timeout: 10_000 });
    const [after] = await portal.app.db.dataSource.query<{ description: string; translations: unknown }[]>(
      `SELECT description, translations FROM log_parameter WHERE parameter_id = 'pv_power'`,
    );
    expect(after).toEqual({ description: 'PV power', translations: { fr: { description: 'Puissance photovoltaïque' } } });
    // The record page shows the text in the screen's language.
    const lang = await page.evaluate(() => document.documentElement.lang);
    await page
      .getByText(lang === 'fr' ? 'Puissance photovoltaïque' : 'PV power', { exact: true })
      .first()
      .waitFor();
  });
});
