import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, eventually, PASSWORD, portalPerFile, signIn } from './support/portal';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/** Runs axe-core (injected from node_modules) on the page and returns its serious and critical violations. */
async function seriousViolations(page: Page): Promise<{ id: string; impact: string | null; help: string; targets: string[] }[]> {
  // Evaluated through the DevTools protocol: the page keeps its own Content-Security-Policy (script-src 'self').
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`) }));
}

/** Whether the focused element shows a ring: an outline or a box shadow of its own. */
async function focusRing(page: Page): Promise<{ tag: string; text: string; visible: boolean }> {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    if (!focused || focused === document.body) return { tag: 'body', text: '', visible: false };
    // An invisible <input> (MUI's checkbox, radio, switch) is drawn by the control around it: the ring is there.
    // A text field draws the ring round the whole field (.MuiInputBase-root).
    const el =
      getComputedStyle(focused).opacity === '0' && focused.parentElement
        ? focused.parentElement
        : (focused.closest<HTMLElement>('.MuiInputBase-root') ?? focused);
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    const shadow = s.boxShadow !== 'none' && s.boxShadow !== '';
    return {
      tag: focused.tagName.toLowerCase(),
      text: (focused.getAttribute('aria-label') || focused.getAttribute('name') || focused.textContent || '').trim().slice(0, 40),
      visible: outline || shadow,
    };
  });
}

/** Presses Tab (or Shift+Tab) until the focused element matches `selector`; every stop on the way shows its focus ring. */
async function tabTo(page: Page, selector: string, options: { back?: boolean; max?: number } = {}): Promise<void> {
  for (let i = 0; i < (options.max ?? 80); i++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    // The ring is drawn within a frame or two (and the app bar's refresh button is re-rendered while data loads).
    const ring = await eventually(
      () => focusRing(page),
      (r) => r.tag === 'body' || r.visible,
      1_000,
    );
    if (ring.tag !== 'body') expect({ focused: ring.text || ring.tag, visible: ring.visible }).toEqual({ focused: ring.text || ring.tag, visible: true });
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/**
 * Accessibility: axe-core finds no serious or critical violation on the login page, the home, the
 * systems list, a site form and the system page (a signed-in installer); and the keyboard alone
 * signs in, opens a system from the list, changes a tab, opens a form and saves it, with a focus
 * ring on every element it stops at.
 */
describe('accessibility', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));
  const sql = <T>(query: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(query, params);

  it.each(['en', 'fr'])('axe finds no serious or critical violation on the installer screens (%s)', async (lang) => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    const farm = await portal.systemCuid('DSL-0001');
    const site = (await sql<{ site_cuid: string }>(`SELECT site_cuid FROM site WHERE name = 'Nairobi Demo Farm'`))[0].site_cuid;
    await page.goto(portal.url('/auth/login'));
    await page.locator(`[data-testid=login-language-${lang}]`).click();
    await page.locator('[data-testid=login-email]').waitFor();
    const found: Record<string, unknown> = { login: await seriousViolations(page) };
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
    found.home = await seriousViolations(page);
    const screens: [string, string, string][] = [
      ['systems list', '/system', '[data-testid=system-link]'],
      ['site form', `/site/${site}`, 'input[name=name]'],
      ['site create', '/site/create', 'input[name=name]'],
      ['system page', `/systems/${farm}`, '[data-testid=device-card]'],
      ['changelog', `/systems/${farm}/changelog`, '[data-testid=changelog-title]'],
    ];
    for (const [name, path, ready] of screens) {
      await page.goto(portal.url(path));
      await page.locator(ready).first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(300);
      found[name] = await seriousViolations(page);
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });

  it('the keyboard alone signs in, opens a system from the list, changes a tab, opens a form and saves it', async () => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    const farm = await portal.systemCuid('DSL-0001');
    await page.goto(portal.url('/auth/login'));
    await page.locator('[data-testid=login-email]').waitFor();
    await tabTo(page, '[data-testid=login-email]');
    await page.keyboard.type('installer@demo.local');
    await tabTo(page, '[data-testid=login-password]');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=greeting]').waitFor({ timeout: 20_000 });

    // The menu: Tab to Systems, Enter.
    await tabTo(page, 'a[href="/system"]');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/system');
    await page.locator('[data-testid=system-link]').first().waitFor({ timeout: 15_000 });
    // The farm's name is a link: Tab to it, Enter opens the system page.
    await tabTo(page, `[data-testid=system-link][href="/systems/${farm}"]`, { max: 120 });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/systems/${farm}`);
    await page.locator('[data-testid=device-card]').first().waitFor({ timeout: 15_000 });

    // The tabs: Tab reaches the selected one, the right arrow the next (changelog), Enter opens it.
    await tabTo(page, '[role=tab][aria-selected=true]');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(`/systems/${farm}/changelog`);
    expect((await focusRing(page)).visible).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/systems/${farm}/changelog`);
    await page.locator('[data-testid=changelog-title]').waitFor();

    // The settings form: back to its link, Enter; change the asset number; Tab to Save, Space.
    await tabTo(page, '[data-testid=system-settings-link]', { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/system/${farm}`);
    await page.locator('fieldset[data-readonly=false] input[name=asset_number]').waitFor({ timeout: 15_000 });
    await tabTo(page, 'input[name=asset_number]');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('DSL-KEYS');
    await tabTo(page, 'button[type=submit]');
    await page.keyboard.press('Space');
    const saved = await eventually(
      async () => (await sql<{ asset_number: string }>(`SELECT asset_number FROM system WHERE system_cuid = $1`, [farm]))[0].asset_number,
      (v) => v === 'DSL-KEYS',
    );
    expect(saved).toBe('DSL-KEYS');
    await screenshot(page, 'a11y-keyboard-saved');
    await sql(`UPDATE system SET asset_number = 'DSL-0001' WHERE system_cuid = $1`, [farm]);
  });
});
