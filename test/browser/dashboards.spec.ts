import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { type BrowserPortal, eventually, signIn, startBrowserPortal } from './support/portal';

/**
 * Issue 13 §2 in Chromium: a superuser builds a dashboard for the demo company with three widgets
 * through the forms (no JSON) and saves it for the Basic role; a Basic member of that company sees
 * it read-only (the three widgets drawn, no Edit button, no drag handle or resize corner); a member of
 * another company finds it neither in the list nor at its address.
 */
describe('dashboards in Chromium', () => {
  let portal: BrowserPortal;
  const contexts: BrowserContext[] = [];
  const name = `Basic board ${Date.now().toString(36)}`;
  let dashboardId = '';

  const sql = <T>(query: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(query, params);
  async function as(email: string): Promise<Page> {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    await signIn(page, portal.url('/auth/login'), email);
    return page;
  }
  /** Opens a select (its combobox) and picks an option. */
  async function pick(page: Page, combobox: string, option: string) {
    await page.locator(combobox).click();
    await page.locator(`[role=listbox] ${option}`).click();
    await page.locator('[role=listbox]').waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    portal = await startBrowserPortal();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await portal?.close();
  });

  it('a superuser builds a dashboard with three widgets through the forms and saves it for the Basic role', async () => {
    const page = await as('superuser@demo.local');
    await page.getByRole('menuitem', { name: 'Dashboards', exact: true }).click();
    await page.locator('[data-testid=dashboard-list]').waitFor();

    await page.locator('[data-testid=dashboard-create]').click();
    await page.locator('[data-testid=dashboard-name]').fill(name);
    await pick(page, '[data-testid=dashboard-owner]', `[role=option]:has-text("${DEMO_COMPANY_NAME}")`);
    await pick(page, '[data-testid=dashboard-role]', '[data-testid=dashboard-role-3]');
    await page.locator('[data-testid=dashboard-create-submit]').click();
    await page.locator('[data-testid=dashboard-page]').waitFor();
    dashboardId = (await page.locator('[data-testid=dashboard-page]').getAttribute('data-dashboard')) as string;
    expect(page.url()).toContain(`/dashboards/${dashboardId}`);
    await page.locator('[data-testid=dashboard-empty]').waitFor();

    await page.locator('[data-testid=dashboard-edit]').click();
    // 1: a KPI tile, the number of systems
    await page.locator('[data-testid=dashboard-add-widget]').click();
    await pick(page, '[data-testid=widget-metric]', '[data-testid=widget-metric-systems_total]');
    await page.locator('[data-testid=widget-submit]').click();
    // 2: a markdown note
    await page.locator('[data-testid=dashboard-add-widget]').click();
    await pick(page, '[data-testid=widget-type]', '[data-testid=widget-type-markdown]');
    await page.locator('[data-testid=widget-title]').fill('Welcome');
    await page.locator('[data-testid=widget-text]').fill('Hello **Basic** users');
    await page.locator('[data-testid=widget-submit]').click();
    // 3: the fleet's energy bars per day
    await page.locator('[data-testid=dashboard-add-widget]').click();
    await pick(page, '[data-testid=widget-type]', '[data-testid=widget-type-energy]');
    await page.locator('[data-testid=widget-submit]').click();
    await page.locator('[data-testid=widget-form]').waitFor({ state: 'detached' });

    const widgets = page.locator('[data-testid=dashboard-widget]');
    await eventually(
      () => widgets.count(),
      (n) => n === 3,
    );
    expect(await page.locator('[data-testid=widget-drag-handle]').count()).toBe(3);
    expect(await page.locator('.react-resizable-handle:visible').count()).toBe(3);
    // the range applies to the whole dashboard and is saved with it
    await pick(page, '[data-testid=dashboard-range]', '[data-testid=dashboard-range-this_month]');
    await page.locator('[data-testid=dashboard-save]').click();
    await page.locator('[data-testid=dashboard-edit]').waitFor();
    expect(await page.locator('[data-testid=widget-drag-handle]').count()).toBe(0);

    const [row] = await sql<{
      meta: { range: { preset: string }; widgets: { type: string; settings: Record<string, unknown>; title?: string }[] };
      level: number;
      entityowner_cuid: string;
    }>(`SELECT d.meta, r.level, d.entityowner_cuid FROM dashboard d JOIN role r ON r.role_cuid = d.role_cuid WHERE d.dashboard_cuid = $1`, [dashboardId]);
    expect(row.level).toBe(3);
    const [{ company_cuid }] = await sql<{ company_cuid: string }>(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    expect(row.entityowner_cuid).toBe(company_cuid);
    expect(row.meta.range).toEqual({ preset: 'this_month' });
    expect(row.meta.widgets.map((w) => w.type)).toEqual(['kpi', 'markdown', 'energy']);
    expect(row.meta.widgets[0].settings).toEqual({ metric: 'systems_total' });
    expect(row.meta.widgets[1]).toMatchObject({ title: 'Welcome', settings: { text: 'Hello **Basic** users' } });
    expect(row.meta.widgets[2].settings).toEqual({ granularity: 'day' });
  });

  it('a Basic member of the company sees it read-only, with the three widgets drawn', async () => {
    const page = await as('basic@demo.local');
    // on the home page as a link, and in the list
    const card = page.locator(`[data-testid=home-dashboards] [data-testid=dashboard-card][data-dashboard="${dashboardId}"]`);
    await card.waitFor();
    await page.goto(portal.url('/dashboards'));
    await page.locator(`[data-testid=dashboard-list] [data-dashboard="${dashboardId}"]`).click();
    await page.locator('[data-testid=dashboard-grid]').waitFor();
    expect(await page.locator('[data-testid=dashboard-name]').textContent()).toBe(name);

    const widget = (type: string) => page.locator(`[data-testid=dashboard-widget][data-type=${type}]`);
    await eventually(
      () => page.locator('[data-testid=dashboard-widget]').count(),
      (n) => n === 3,
    );
    // the KPI: the Basic user's systems (own and shared with the company), from fleet.overview
    const visible = await portal.api('basic@demo.local').then((api) => api.query('fleet.overview'));
    const systems = String((visible.data as { counts: { systems: number } }).counts.systems);
    await eventually(
      () =>
        widget('kpi')
          .locator('[data-testid=kpi-value]')
          .getAttribute('data-value')
          .catch(() => null),
      (v) => v === systems,
    );
    expect(Number(systems)).toBeGreaterThan(0);
    await widget('markdown').locator('strong', { hasText: 'Basic' }).waitFor();
    expect(await widget('markdown').locator('h2').textContent()).toBe('Welcome');
    await widget('energy').locator('[data-testid=energy-bars]').waitFor();
    expect(await widget('energy').locator('[data-testid=energy-bars-error]').count()).toBe(0);
    expect(await page.locator('[data-testid=widget-not-available]').count()).toBe(0);

    // read-only: no Edit, no drag handles, no resize corners
    expect(await page.locator('[data-testid=dashboard-edit]').count()).toBe(0);
    expect(await page.locator('[data-testid=widget-drag-handle]').count()).toBe(0);
    expect(await page.locator('.react-resizable-handle:visible').count()).toBe(0);
    expect(await page.locator('[data-testid=dashboard-grid]').getAttribute('data-editing')).toBe('false');
    // a drag attempt moves nothing
    const before = await widget('markdown').boundingBox();
    const title = widget('markdown').locator('h2');
    const box = (await title.boundingBox())!;
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 400, box.y + 300, { steps: 5 });
    await page.mouse.up();
    expect(await widget('markdown').boundingBox()).toEqual(before);
  });

  it('a phone shows the widgets in one column', async () => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    await page.goto(portal.url(`/dashboards/${dashboardId}`));
    const grid = page.locator('[data-testid=dashboard-grid]');
    await eventually(
      () => grid.getAttribute('data-layout').catch(() => null),
      (v) => v === 'one-column',
    );
    const boxes = await page.locator('[data-testid=dashboard-widget]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left));
    expect(boxes).toHaveLength(3);
    expect(new Set(boxes.map(Math.round)).size).toBe(1);
  });

  it('a member of another company finds it neither in the list nor at its address', async () => {
    const page = await as('other@demo.local');
    await page.goto(portal.url('/dashboards'));
    await page.locator('[data-testid=dashboard-list]').waitFor();
    await eventually(
      () => page.locator('[data-testid=dashboard-list] [role=status], [data-testid=dashboard-list] .MuiCircularProgress-root').count(),
      (n) => n === 0,
    );
    expect(await page.locator(`[data-dashboard="${dashboardId}"]`).count()).toBe(0);
    expect(await page.locator('[data-testid=dashboard-list]').textContent()).not.toContain(name);
    await page.goto(portal.url(`/dashboards/${dashboardId}`));
    await page.locator('[data-testid=dashboard-not-found]').waitFor();
    expect(await page.locator('[data-testid=dashboard-widget]').count()).toBe(0);
  });
});
