import type { BrowserContext, Page } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, signIn, startBrowserPortal } from './support/portal';

/** Markup that runs code when a page parses it as HTML instead of showing it as text. */
const IMG = '<img src=x onerror="window.__xss=1;alert(1)">';
const SCRIPT = '<script>window.__xss=2;alert(2)</script>';
const BOTH = `Pump ${IMG} ${SCRIPT}`;

/**
 * Issue 4: names, descriptions and JSON holding markup (set through the API, as any client
 * could) are shown as inert text on lists, edit forms, the system page and the Markdown preview;
 * the page carries a Content-Security-Policy that refuses inline scripts.
 */
describe('stored markup stays text in Chromium', () => {
  let portal: BrowserPortal;
  const contexts: BrowserContext[] = [];
  let dialogs: string[] = [];
  let systemCuid = '';
  let templateId = '';
  let companyId = '';
  let documentationId = '';

  beforeAll(async () => {
    portal = await startBrowserPortal();
    const api = await portal.api('superuser@demo.local');

    systemCuid = await portal.systemCuid(
      (await portal.app.db.dataSource.query('SELECT asset_number FROM system ORDER BY asset_number LIMIT 1'))[0].asset_number,
    );
    const renamed = await api.mutate('system.update', { id: systemCuid, data: { name: BOTH }, previousData: {} });
    expect(renamed.error).toBeUndefined();

    const [type] = await portal.app.db.dataSource.query<{ entitytype_id: string }[]>('SELECT entitytype_id FROM entity_type ORDER BY entitytype_id LIMIT 1');
    const template = await api.mutate('notificationTemplateAssignment.create', {
      data: {
        name: `T ${IMG}`,
        message: `M ${SCRIPT}`,
        description: BOTH,
        args: { kind: 'state', key: IMG, op: 'equals', value: SCRIPT },
        entitytype_id: type.entitytype_id,
        severity_level: 'WARNING',
      },
    });
    expect(template.error).toBeUndefined();
    templateId = String(template.data.data.id);

    const company = await api.mutate('company.create', { data: { name: `Co ${IMG}`, meta: { note: SCRIPT } } });
    expect(company.error).toBeUndefined();
    companyId = String(company.data.data.id);

    // Creating a company changes the caller's memberships: a fresh session for the next call.
    const api2 = await portal.api('superuser@demo.local');
    const doc = await api2.mutate('documentation.create', {
      data: {
        documentation_type: 'CONTROLPHILOSOPHY',
        is_active: false,
        content: `# Heading ${IMG}\n\nParagraph ${SCRIPT}\n\n${IMG}\n\n[bad link](javascript:window.__xss=3) [good link](https://example.com/)\n`,
      },
    });
    expect(doc.error).toBeUndefined();
    documentationId = String(doc.data.data.id);
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await portal?.close();
  });

  const openAsSuperuser = async (): Promise<Page> => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    dialogs = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signIn(page, portal.url('/auth/login'), 'superuser@demo.local');
    return page;
  };

  /** Nothing ran: no alert, no global set by the payload, no element made from it. */
  const expectInert = async (page: Page) => {
    // Give an onerror a moment to fire if an <img src=x> had been created.
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
  };

  it('lists and edit forms show names, descriptions and JSON literally', async () => {
    const page = await openAsSuperuser();

    await page.goto(portal.url('/notificationTemplateAssignment'));
    await page.locator('[data-testid=template-list]').waitFor();
    await page.getByText(`T ${IMG}`, { exact: true }).waitFor();
    // JSON in a list: shown as its text.
    expect(await page.locator('[data-testid=template-list]').textContent()).toContain('"key":"<img src=x onerror=\\"window.__xss=1;alert(1)\\">"');
    await expectInert(page);

    await page.goto(portal.url(`/notificationTemplateAssignment/${encodeURIComponent(templateId)}`));
    await page.locator('input[name=name]').waitFor();
    expect(await page.locator('input[name=name]').inputValue()).toBe(`T ${IMG}`);
    expect(await page.locator('textarea[name=description]').inputValue()).toBe(BOTH);
    // The rule form shows the state rule's key and value as text in their inputs.
    expect(await page.locator('input[name="args.key"]').inputValue()).toBe(IMG);
    expect(await page.locator('input[name="args.value"]').inputValue()).toBe(SCRIPT);
    await screenshot(page, 'xss-template-edit');
    await expectInert(page);

    await page.goto(portal.url('/company'));
    await page.locator('[data-testid=company-list]').waitFor();
    await page.getByText(`Co ${IMG}`, { exact: true }).waitFor();
    await expectInert(page);

    await page.goto(portal.url(`/company/${encodeURIComponent(companyId)}`));
    await page.locator('input[name=name]').waitFor();
    expect(await page.locator('input[name=name]').inputValue()).toBe(`Co ${IMG}`);
    expect(JSON.parse(await page.locator('[data-testid=json-input-meta] textarea').first().inputValue())).toEqual({ note: SCRIPT });
    await expectInert(page);
  });

  it('the system list and the system page show a marked-up name as text', async () => {
    const page = await openAsSuperuser();
    await page.goto(portal.url('/system'));
    await page.getByText(BOTH, { exact: true }).first().waitFor();
    await expectInert(page);

    await page.goto(portal.url(`/systems/${systemCuid}`));
    await page.locator('[data-testid=system-name]').waitFor();
    expect(await page.locator('[data-testid=system-name]').textContent()).toBe(BOTH);
    await screenshot(page, 'xss-system-page');
    await expectInert(page);
  });

  it('the Markdown preview keeps raw HTML as text and drops javascript: links', async () => {
    const page = await openAsSuperuser();
    await page.goto(portal.url(`/documentation/${encodeURIComponent(documentationId)}`));
    await page.locator('[data-testid=markdown-input-content]').waitFor();
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.locator('[data-testid=markdown-preview] [data-testid=markdown-view]');
    await preview.waitFor();
    // Markdown is rendered (a heading), the HTML inside it is not.
    expect(await preview.locator('h1').textContent()).toBe(`Heading ${IMG}`);
    const text = (await preview.textContent()) ?? '';
    expect(text).toContain(SCRIPT);
    expect(await preview.locator('img, script').count()).toBe(0);
    // The javascript: link has no address; the https one keeps it, opening without an opener.
    expect(await preview.getByText('bad link').evaluate((el) => el.closest('a')?.getAttribute('href') ?? null)).toBeNull();
    const good = preview.getByRole('link', { name: 'good link' });
    expect(await good.getAttribute('href')).toBe('https://example.com/');
    expect(await good.getAttribute('rel')).toContain('noopener');
    await preview.getByText('bad link').click();
    await screenshot(page, 'xss-markdown-preview');
    await expectInert(page);
  });

  it('pages carry a Content-Security-Policy that refuses inline scripts', async () => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    for (const path of ['/auth/login', '/', '/company']) {
      const response = await page.goto(portal.url(path));
      const csp = (await response?.allHeaders())?.['content-security-policy'] ?? '';
      const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? /(?:^|;)\s*default-src ([^;]*)/.exec(csp)?.[1];
      expect(scriptSrc).toBeDefined();
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).not.toContain("'unsafe-eval'");
    }
    // The browser enforces it: an inline script added at run time does not run.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.body.appendChild(s);
    });
    expect(await page.evaluate(() => (window as unknown as { __inline?: unknown }).__inline)).toBeUndefined();
  });
});
