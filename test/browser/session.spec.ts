import { SESSION_MAX_FAILURES } from '../../shared/common/spec-constants';
import { screenshot } from './support/chromium';
import { type BrowserPortal, signIn, startBrowserPortal } from './support/portal';

/** Spec §4 Session and Roles loading, as the browser lives them. */
describe('the session loop in Chromium', () => {
  let portal: BrowserPortal;

  beforeAll(async () => {
    portal = await startBrowserPortal();
  });
  afterAll(async () => {
    await portal?.close();
  });

  it('sends a user deactivated by an admin to /auth/login within about 2 s', async () => {
    const { page } = await portal.newPage();
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    const admin = await portal.api('superuser@demo.local');
    const user_cuid = await portal.userCuid('basic@demo.local');
    try {
      const deactivated = await admin.mutate('user.deactivate', { user_cuid });
      expect(deactivated.status).toBe(200);
      // Checked every second: the next check or the one after answers 401.
      await page.waitForURL(/\/auth\/login$/, { timeout: 2500 });
      const notice = page.locator('[data-testid=login-notice]');
      await notice.waitFor();
      expect(['INACTIVE', 'REVOKED']).toContain(await notice.getAttribute('data-reason'));
      await screenshot(page, 'session-deactivated');
      // The cookie is gone: the shell does not come back.
      expect(await page.evaluate(async () => (await fetch('/api/auth/session')).status)).toBe(401);
    } finally {
      await admin.mutate('user.reactivate', { user_cuid });
    }
  });

  it(`signs out after more than ${SESSION_MAX_FAILURES} consecutive failed checks, not before`, async () => {
    const { page } = await portal.newPage();
    await signIn(page, portal.url('/auth/login'), 'expert@demo.local');
    let failed = 0;
    let failedWhenSignedOut = -1;
    await page.route('**/api/auth/session', async (route) => {
      failed++;
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down for a test"}' });
    });
    const loggedOut = page.waitForRequest(
      (r) => {
        if (!r.url().endsWith('/api/auth/logout')) return false;
        failedWhenSignedOut = failed;
        return true;
      },
      { timeout: (SESSION_MAX_FAILURES + 6) * 1000 },
    );
    await page.waitForURL(/\/auth\/login$/, { timeout: (SESSION_MAX_FAILURES + 6) * 1000 });
    await loggedOut;
    expect(failedWhenSignedOut).toBe(SESSION_MAX_FAILURES + 1);
    expect(failed).toBe(SESSION_MAX_FAILURES + 1);
    expect(await page.locator('[data-testid=login-notice]').getAttribute('data-reason')).toBe('FAILURES');
  });

  it('keeps the user signed in through a few failed checks (a success resets the counter)', async () => {
    const { page } = await portal.newPage();
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
    // Fail 8 checks, let 2 through, fail 8 more: never more than 10 in a row.
    let seen = 0;
    await page.route('**/api/auth/session', async (route) => {
      seen++;
      if (seen <= 8 || (seen > 10 && seen <= 18)) {
        await route.fulfill({ status: 502, contentType: 'application/json', body: '{}' });
      } else {
        await route.continue();
      }
    });
    while (seen < 19) await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.locator('[data-testid=greeting]').isVisible()).toBe(true);
  });

  it('asks for role.all once, about a second after the shell starts', async () => {
    const { page } = await portal.newPage();
    const roleCalls: number[] = [];
    let loggedInAt = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/trpc/') && r.url().includes('role.all')) roleCalls.push(Date.now());
    });
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/login') && r.status() === 200) loggedInAt = Date.now();
    });
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    await page.locator('[data-testid=roles]').waitFor({ timeout: 5000 });
    await page.waitForTimeout(2500);
    expect(roleCalls).toHaveLength(1);
    expect(roleCalls[0] - loggedInAt).toBeGreaterThanOrEqual(900);
  });
});
