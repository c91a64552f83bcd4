import type { Page, Response } from 'playwright-core';
import { type BrowserPortal, portalPerFile, signIn } from './support/portal';

/**
 * Every demo role walks the whole app the way a person would: each menu entry, then the first
 * record of each list (its show page) and, when the page offers it, its edit page. Nothing on
 * the way may pop an error or warning notification, throw in the page, or get a 4xx/5xx tRPC
 * answer: a screen must never call what the role may not call.
 */

/** tRPC answers that are expected on the walk, each with its reason (none today). */
const EXPECTED_ERRORS: { role: string; path: string; status: number; reason: string }[] = [];

const ROLES = ['superuser', 'installer', 'expert', 'basic', 'other'] as const;

interface Finding {
  at: string;
  what: string;
}

describe('every role walks every screen without an error', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));

  /** Watches one page: tRPC errors (batched answers included), notifications, page errors, in-flight calls. */
  async function watch(page: Page, role: string) {
    const findings: Finding[] = [];
    let inFlight = 0;
    let lastActivity = Date.now();
    const here = () => new URL(page.url()).pathname;
    const isTrpc = (url: string) => url.includes('/api/trpc/');

    page.on('request', (req) => {
      if (!isTrpc(req.url()) || req.headers()['accept'] === 'text/event-stream') return;
      inFlight++;
      lastActivity = Date.now();
    });
    const done = (url: string, headers: Record<string, string>) => {
      if (!isTrpc(url) || headers['accept'] === 'text/event-stream') return;
      inFlight = Math.max(0, inFlight - 1);
      lastActivity = Date.now();
    };
    page.on('requestfinished', (req) => done(req.url(), req.headers()));
    page.on('requestfailed', (req) => done(req.url(), req.headers()));

    page.on('response', (res: Response) => {
      if (!isTrpc(res.url())) return;
      if ((res.headers()['content-type'] ?? '').includes('text/event-stream')) {
        if (res.status() >= 400) findings.push({ at: here(), what: `subscription ${res.url()} → ${res.status()}` });
        return;
      }
      const at = here();
      const paths = decodeURIComponent(new URL(res.url()).pathname.replace(/^\/api\/trpc\//, '')).split(',');
      void res
        .json()
        .then((body: unknown) => {
          const items = Array.isArray(body) ? body : [body];
          items.forEach((item, i) => {
            const error = (item as { error?: { json?: { data?: { httpStatus?: number; path?: string; code?: string }; message?: string } } })?.error?.json;
            if (!error) return;
            const status = error.data?.httpStatus ?? res.status();
            const path = error.data?.path ?? paths[i] ?? '?';
            if (EXPECTED_ERRORS.some((e) => e.role === role && e.path === path && e.status === status)) return;
            findings.push({ at, what: `${path} → ${status} ${error.data?.code ?? ''} ${error.message ?? ''}`.trim() });
          });
          if (res.status() >= 400 && items.every((item) => !(item as { error?: unknown })?.error)) {
            findings.push({ at, what: `${paths.join(',')} → HTTP ${res.status()}` });
          }
        })
        .catch(() => {
          if (res.status() >= 400) findings.push({ at, what: `${paths.join(',')} → HTTP ${res.status()} (no JSON)` });
        });
    });
    page.on('pageerror', (error) => findings.push({ at: here(), what: `page error: ${error.message}` }));

    // Notifications are short-lived: an observer in the page reports each one as it appears.
    await page.exposeFunction('__reportNotification', (kind: string, text: string, path: string) => {
      findings.push({ at: path, what: `${kind} notification: ${text}` });
    });
    await page.addInitScript(() => {
      const seen = new WeakSet<Element>();
      const report = (window as unknown as { __reportNotification: (k: string, t: string, p: string) => void }).__reportNotification;
      const scan = () => {
        document.querySelectorAll('.RaNotification-error, .RaNotification-warning').forEach((el) => {
          if (seen.has(el)) return;
          seen.add(el);
          report(el.classList.contains('RaNotification-error') ? 'error' : 'warning', el.textContent ?? '', location.pathname);
        });
      };
      new MutationObserver(scan).observe(document, { childList: true, subtree: true });
    });

    /** Waits until no tRPC call is out and none has been for a while, and no spinner turns. */
    const settle = async () => {
      const end = Date.now() + 15_000;
      await page.waitForTimeout(250);
      while (Date.now() < end) {
        const spinning = await page.locator('.MuiCircularProgress-root, .MuiLinearProgress-root, .MuiSkeleton-root').count();
        if (inFlight === 0 && Date.now() - lastActivity > 600 && spinning === 0) return;
        await page.waitForTimeout(100);
      }
    };
    return { findings, settle };
  }

  /**
   * Opens the first record of the list on screen: a click on the row (a cell without a control
   * in it), else the row's Show or Edit button; false when there is no row or nothing opens.
   */
  async function openFirstRow(page: Page): Promise<boolean> {
    const row = page.locator('table tbody tr:not([data-walk-stale])').first();
    if (!(await row.count())) return false;
    // A list still loading shows rows without text: wait for the first row's data (a slow
    // machine took longer than a settle) before choosing where to click.
    await page
      .waitForFunction(
        () => {
          const first = document.querySelector('table tbody tr:not([data-walk-stale])');
          return !first || Array.from(first.querySelectorAll('td')).some((td) => td.textContent?.trim());
        },
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    const before = page.url();
    const moved = () =>
      page
        .waitForURL((url) => url.toString() !== before, { timeout: 3_000 })
        .then(
          () => true,
          () => false,
        );
    const cells = row.locator('td');
    const index = await cells.evaluateAll((tds) =>
      tds.findIndex((td) => td.textContent?.trim() && !td.querySelector('input, button, a, [role=button], [role=checkbox]')),
    );
    // A row that opens nothing on a click (react-admin's rowClick false: no clickableRow class) is
    // opened by its Show / Edit button at once, without waiting for a navigation that cannot come.
    const clickable = await row.evaluate((tr) => tr.classList.contains('RaDataTable-clickableRow'));
    if (clickable && index >= 0) {
      await cells.nth(index).click();
      if (await moved()) return true;
      // A busy page (late in a long browser run) may answer the click later: once more, waiting longer.
      if (page.url() !== before) return true;
      await cells
        .nth(index)
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      if (
        await page
          .waitForURL((url) => url.toString() !== before, { timeout: 10_000 })
          .then(
            () => true,
            () => false,
          )
      )
        return true;
    }
    const button = row.locator('a[aria-label="Show"], a[aria-label="Edit"]').first();
    if (!(await button.count())) return false;
    await button.click();
    return moved();
  }

  for (const role of ROLES) {
    it(`${role}: every menu entry, the first record of each list and its edit page`, async () => {
      const { context, page } = await portal.newPage();
      contexts.push(context);
      const { findings, settle } = await watch(page, role);
      await signIn(page, portal.url('/auth/login'), `${role}@demo.local`);
      await settle();

      const menu = page.locator('.RaMenu-open a[href], .RaMenu-closed a[href]');
      const entries = [...new Set(await menu.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '')))].filter((h) => h.startsWith('/'));
      expect(entries.length).toBeGreaterThan(1);
      const visited: string[] = [];

      for (const href of entries) {
        // The screen being left keeps showing while the next one's code loads (a React transition):
        // its rows are marked, so the walk never takes them for the next list's rows.
        // (Not when the entry is the screen on show, e.g. the home: nothing is left then.)
        if (new URL(page.url()).pathname !== href.split('?')[0]) {
          await page.evaluate(() => document.querySelectorAll('table tbody tr').forEach((tr) => tr.setAttribute('data-walk-stale', '')));
        }
        await page.locator(`.RaMenu-open a[href="${href}"], .RaMenu-closed a[href="${href}"]`).first().click();
        await page.waitForURL((url) => url.pathname === href.split('?')[0], { timeout: 10_000 });
        await page.waitForFunction(() => !document.querySelector('[data-walk-stale]'), undefined, { timeout: 15_000 }).catch(() => undefined);
        await settle();
        visited.push(href);
        if (!(await openFirstRow(page))) continue;
        await settle();
        visited.push(new URL(page.url()).pathname);
        const edit = page.locator('main a[aria-label="Edit"]:visible, #main-content a[aria-label="Edit"]:visible').first();
        if (await edit.count()) {
          await edit.click();
          await page.waitForURL((url) => !url.pathname.endsWith('/show'), { timeout: 5_000 }).catch(() => undefined);
          await settle();
          visited.push(new URL(page.url()).pathname);
        }
      }
      await settle();
      if (process.env.WALK_LOG) console.log(`${role} visited:\n${visited.join('\n')}`);
      // The walk went somewhere: every menu entry, and records behind lists that have some.
      expect(visited.length).toBeGreaterThan(entries.length);
      expect(findings.map((f) => `${f.at}: ${f.what}`)).toEqual([]);
    }, 300_000);
  }

  it("basic: the systems list shows each system's site and company by name, without reading sites or companies", async () => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    const { findings, settle } = await watch(page, 'basic');
    const calls: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/trpc/')) calls.push(...decodeURIComponent(new URL(req.url()).pathname.replace(/^\/api\/trpc\//, '')).split(','));
    });
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    await page.goto(portal.url('/system'));
    await page.locator('table tbody tr td.column-name').first().waitFor();
    await settle();
    const expected = await portal.app.db.dataSource.query<{ name: string; site: string | null; company: string }[]>(
      `SELECT s.name, si.name AS site, c.name AS company FROM system s LEFT JOIN site si ON si.site_cuid = s.site_cuid
         JOIN company c ON c.company_cuid = s.company_cuid
        WHERE s.company_cuid IN (SELECT m.company_cuid FROM company_membership m JOIN "user" u ON u.user_cuid = m.user_cuid WHERE u.email = 'basic@demo.local')
           OR s.system_cuid IN (SELECT sh.system_cuid FROM system_sharing sh JOIN company_membership m ON m.company_cuid = sh.company_cuid
                                  JOIN "user" u ON u.user_cuid = m.user_cuid WHERE u.email = 'basic@demo.local')
        ORDER BY s.name`,
    );
    expect(expected.filter((r) => r.site).length).toBeGreaterThan(0);
    const shown = await page.locator('table tbody tr').evaluateAll((rows) =>
      rows.map((tr) => ({
        name: tr.querySelector('td.column-name')?.textContent ?? '',
        site: tr.querySelector('td.column-site_cuid')?.textContent || null,
        company: tr.querySelector('td.column-company_cuid')?.textContent ?? '',
      })),
    );
    expect(shown).toEqual(expected);
    expect(calls.filter((c) => /^(site|company)\./.test(c))).toEqual([]);
    expect(findings).toEqual([]);
  });
});
