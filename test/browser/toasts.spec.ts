import type { BrowserContext, Page } from 'playwright-core';
import { SEVERITY_COLOURS, TOAST_MAX_VISIBLE, TOAST_VIEWPORT_WIDTH_PX } from '../../shared/common/spec-constants';
import type { HttpClient } from '../factories/http-client';
import { screenshot } from './support/chromium';
import { type BrowserPortal, signIn, startBrowserPortal } from './support/portal';

const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

/** Spec §4 Toasts and §9: live changelog notifications as the user sees them. */
describe('live toasts in Chromium', () => {
  let portal: BrowserPortal;
  let expert: HttpClient;
  let farm: string;
  let workshop: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    portal = await startBrowserPortal();
    expert = await portal.api('expert@demo.local');
    farm = await portal.systemCuid('DSL-0001');
    workshop = await portal.systemCuid('DSL-0002');
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await portal?.close();
  });

  /** basic@demo.local (Demo Solar Ltd, level 3) signed in, live events connected. */
  const openSession = async (): Promise<Page> => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    // The page's own clock (it runs as usual until a test pauses it): timers are checked on it,
    // never against the machine's clock, so a busy machine cannot make a toast look late.
    await page.clock.install();
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor({ timeout: 10_000 });
    return page;
  };

  /**
   * Pauses the page's clock 200 ms ahead of its present (pausing moves it forward, never back; the
   * page's time goes on while the call travels). From here it moves only with runFor.
   */
  const pauseClock = async (page: Page) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 200);
        return;
      } catch (e) {
        if (attempt >= 3 || !/past/.test(String(e))) throw e;
      }
    }
  };

  /** Saves toast preferences the way the page does, then waits for the session to carry them. */
  const setPreferences = async (page: Page, prefs: { toast_notifications_disabled?: boolean; toast_notification_timeout?: number | null }) => {
    const status = await page.evaluate(async (json) => {
      const res = await fetch('/api/trpc/user.updatePreferences', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ json }),
      });
      return res.status;
    }, prefs);
    expect(status).toBe(200);
    // A check already out may carry the old cookie: wait for two fresh ones.
    for (let i = 0; i < 2; i++) await page.waitForResponse((r) => r.url().endsWith('/api/auth/session') && r.status() === 200);
  };

  const changelog = async (system_cuid: string, title: string, message = 'Written by the expert for a browser test.') => {
    const res = await expert.mutate('systemChangelog.create', { system_cuid, title, message });
    expect(res.status).toBe(200);
  };

  const toasts = (page: Page, state: 'open' | 'closed' | 'any' = 'open') =>
    page.locator(state === 'any' ? '[data-testid=toast]' : `[data-testid=toast][data-state=${state}]`);

  const waitForOpen = (page: Page, n: number) =>
    page.waitForFunction((count) => document.querySelectorAll('[data-testid=toast][data-state=open]').length === count, n, { timeout: 10_000 });

  it('pops a toast for a changelog entry written by another user, coloured by severity, its time in its timezone', async () => {
    const page = await openSession();
    await setPreferences(page, { toast_notifications_disabled: false, toast_notification_timeout: null });
    const before = new Date().setMilliseconds(0);
    await changelog(farm, 'Inverter firmware updated');
    const toast = toasts(page).first();
    await toast.waitFor();
    const after = Date.now();
    const severity = (await toast.getAttribute('data-severity')) as keyof typeof SEVERITY_COLOURS;
    expect(severity).toBe('INFO');
    expect(await toast.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe(rgb(SEVERITY_COLOURS[severity]));
    expect(await toast.locator('.toast-title').textContent()).toMatch(/Inverter firmware updated$/);
    expect(await toast.locator('[data-testid=toast-timezone]').textContent()).toBe('Africa/Nairobi');
    // the entry's own time: written between the call and the toast
    const when = Date.parse((await toast.locator('time').getAttribute('datetime'))!);
    expect(when).toBeGreaterThanOrEqual(before);
    expect(when).toBeLessThanOrEqual(after);

    // The area: 450 px wide at the bottom right, a labelled region.
    const viewport = page.locator('[data-testid=toast-viewport]');
    expect(await viewport.getAttribute('aria-label')).toBe('Notifications (F8)');
    const box = (await viewport.boundingBox())!;
    expect(box.width).toBe(TOAST_VIEWPORT_WIDTH_PX);
    expect(box.x + box.width).toBe(1280);
    expect(box.y + box.height).toBe(800);

    // Click-through: to the target page, and the toast closes.
    await toast.locator('.toast-message').click();
    await page.waitForURL(new RegExp(`/systems/${farm}/changelog$`));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=toast]').length === 0);
  });

  it('pauses the timers while the pointer is over the toasts, and resumes with the time left', async () => {
    const page = await openSession();
    // Through the preferences page: 5 s.
    await page.goto(portal.url('/preferences'));
    await page.locator('[data-testid=prefs-timeout]').click();
    await page.locator('[data-testid=prefs-timeout-5000]').click();
    await page.locator('[data-testid=prefs-save]').click();
    await page.getByText('Preferences saved').waitFor();
    await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor();

    await changelog(farm, 'Battery bank balanced');
    const toast = toasts(page).first();
    await toast.waitFor();
    // From here the page's time moves only when the test moves it.
    await pauseClock(page);
    await toast.hover();
    expect(await page.locator('[data-testid=toast-viewport]').getAttribute('data-paused')).toBe('true');
    await page.clock.runFor(6500);
    expect(await toast.getAttribute('data-state')).toBe('open');

    await page.mouse.move(200, 300);
    expect(await page.locator('[data-testid=toast-viewport]').getAttribute('data-paused')).toBe('false');
    await page.clock.runFor(1500);
    expect(await toast.getAttribute('data-state')).toBe('open');
    // It closes by itself with the time it had left (< 5 s), then leaves the page.
    // less than the 3.5 s a fresh 5 s timer would still have: it went on with the time it had left
    await page.clock.runFor(3400);
    expect(await page.locator('[data-testid=toast][data-state=open]').count()).toBe(0);
    await page.clock.resume();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=toast]').length === 0);

    // Without the pointer, a toast closes after the chosen 5 s: open at 4.9 s, closed at 5 s.
    // paused before the entry is written, so the toast's 5 s start on the paused clock
    await pauseClock(page);
    await changelog(farm, 'PV array cleaned');
    await toasts(page).first().waitFor();
    await page.clock.runFor(4900);
    expect(await toasts(page).first().getAttribute('data-state')).toBe('open');
    await page.clock.runFor(200);
    expect(await page.locator('[data-testid=toast][data-state=open]').count()).toBe(0);
    await page.clock.resume();
  });

  it(`keeps a sixth toast waiting while ${TOAST_MAX_VISIBLE} are open; Close all closes them`, async () => {
    const page = await openSession();
    await setPreferences(page, { toast_notifications_disabled: false, toast_notification_timeout: null });
    for (let i = 1; i <= TOAST_MAX_VISIBLE + 1; i++) await changelog(i % 2 ? farm : workshop, `Maintenance step ${i}`);
    await waitForOpen(page, TOAST_MAX_VISIBLE);
    const viewport = page.locator('[data-testid=toast-viewport]');
    await page.waitForFunction(() => document.querySelector('[data-testid=toast-viewport]')?.getAttribute('data-queued') === '1');
    expect(await page.locator('[data-testid=toast-waiting]').textContent()).toBe('1 more waiting');
    expect(await toasts(page).allTextContents()).not.toContainEqual(expect.stringContaining('Maintenance step 6'));
    await page.mouse.move(100, 100);
    await page.waitForTimeout(400); // let the slide-in end
    await screenshot(page, 'toast-stack');

    // Closing one lets the sixth in.
    await toasts(page).first().locator('[data-testid=toast-close]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=toast-viewport]')?.getAttribute('data-queued') === '0');
    await waitForOpen(page, TOAST_MAX_VISIBLE);
    expect((await toasts(page).allTextContents()).some((t) => t.includes('Maintenance step 6'))).toBe(true);

    // Close all (shown from two open toasts on).
    await page.locator('[data-testid=toast-close-all]').click();
    expect(await viewport.getAttribute('data-open')).toBe('0');
    // Removed from the page 300 ms after closing.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=toast]').length === 0, undefined, { timeout: 2000 });
    expect(await page.locator('[data-testid=toast-close-all]').count()).toBe(0);
  });

  it('F8 moves the keyboard focus to the toasts, and Escape closes the focused one', async () => {
    const page = await openSession();
    await setPreferences(page, { toast_notifications_disabled: false, toast_notification_timeout: null });
    await changelog(farm, 'Genset serviced');
    await changelog(workshop, 'Meter replaced');
    await waitForOpen(page, 2);
    await page.locator('body').click({ position: { x: 600, y: 400 } });
    await page.keyboard.press('F8');
    const focused = await page.evaluate(() => ({
      testid: document.activeElement?.getAttribute('data-testid'),
      inRegion: !!document.activeElement?.closest('[role=region][aria-label="Notifications (F8)"]'),
      id: document.activeElement?.getAttribute('data-toast-id'),
    }));
    expect(focused).toMatchObject({ testid: 'toast', inRegion: true });
    await page.keyboard.press('Escape');
    await waitForOpen(page, 1);
    expect(await page.locator(`[data-toast-id="${focused.id}"]`).count()).toBeLessThanOrEqual(1);
    // The focus stays in the toast area, on the remaining toast.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-state'))).toBe('open');
    await page.keyboard.press('Escape');
    await waitForOpen(page, 0);
  });

  it('a swipe of 50 px to the right dismisses a toast; a shorter one does not', async () => {
    const page = await openSession();
    await setPreferences(page, { toast_notifications_disabled: false, toast_notification_timeout: null });
    await changelog(farm, 'Cables checked');
    const toast = toasts(page).first();
    await toast.waitFor();
    const box = (await toast.boundingBox())!;
    const y = box.y + box.height / 2;
    const x = box.x + 60;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 30, y, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(400);
    expect(await toast.getAttribute('data-state')).toBe('open');
    expect(new URL(page.url()).pathname).toBe('/'); // a drag is no click-through

    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 80, y, { steps: 8 });
    await page.mouse.up();
    await waitForOpen(page, 0);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('Acknowledge marks the notification read; Mute silences that system for this user', async () => {
    const page = await openSession();
    await setPreferences(page, { toast_notifications_disabled: false, toast_notification_timeout: null });
    await changelog(farm, 'Firmware 3.1 installed');
    const first = toasts(page).first();
    await first.waitFor();
    const notificationId = await first.getAttribute('data-toast-id');
    await first.locator('[data-testid=toast-acknowledge]').click();
    await waitForOpen(page, 0);
    // The acknowledge call runs after the toast closed: wait for it to land.
    const readState = async () => {
      const recent = await page.evaluate(async () => {
        const input = encodeURIComponent(JSON.stringify({ json: { limit: 20 } }));
        return (await fetch(`/api/trpc/portalNotification.recent?input=${input}`)).json();
      });
      return (recent.result.data.json as { notification_cuid: string; read: boolean }[]).find((n) => n.notification_cuid === notificationId)?.read;
    };
    let read = await readState();
    for (let i = 0; i < 20 && !read; i++) {
      await page.waitForTimeout(100);
      read = await readState();
    }
    expect(read).toBe(true);

    await changelog(workshop, 'Workshop tidy-up');
    const second = toasts(page).first();
    await second.waitFor();
    await second.locator('[data-testid=toast-mute]').click();
    await waitForOpen(page, 0);
    await page.getByText('Muted: you will no longer get these notifications for this system.').waitFor();
    const blacklist = await page.evaluate(async () => (await (await fetch('/api/auth/session')).json()).portalNotificationBlacklist);
    expect(blacklist).toEqual([expect.objectContaining({ system_cuid: workshop, notification_type: 'CHANGELOG' })]);

    // The muted system stays quiet; the other one still speaks.
    await changelog(workshop, 'Should stay silent');
    await changelog(farm, 'Farm still reports');
    await toasts(page).first().waitFor();
    await page.waitForTimeout(1000);
    const titles = await toasts(page).locator('.toast-title').allTextContents();
    expect(titles).toHaveLength(1);
    expect(titles[0]).toMatch(/Farm still reports$/);
  });

  it('drops notification toasts when the user turned them off, and never puts react-admin notices over the toasts', async () => {
    const page = await openSession();
    await setPreferences(page, { toast_notifications_disabled: false, toast_notification_timeout: null });
    await changelog(farm, 'Visible before turning off');
    await toasts(page).first().waitFor();

    // Turn them off on the preferences page: react-admin's notice shows top-center, the toast bottom-right.
    await page.goto(portal.url('/preferences'));
    await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor();
    await changelog(farm, 'Still visible');
    await toasts(page).first().waitFor();
    await page.locator('[data-testid=prefs-disabled]').check();
    await page.locator('[data-testid=prefs-save]').click();
    const notice = page.locator('.MuiSnackbar-root').filter({ hasText: 'Preferences saved' });
    await notice.waitFor();
    const a = (await notice.boundingBox())!;
    const b = (await toasts(page).first().boundingBox())!;
    const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap).toBe(false);
    expect(a.y).toBeLessThan(100);
    await page.waitForTimeout(400);
    await screenshot(page, 'toast-and-notice');

    await page.locator('[data-testid=toast-close-all], [data-testid=toast-close]').first().click();
    await waitForOpen(page, 0);
    await changelog(farm, 'Nobody should see this');
    await page.waitForTimeout(2000);
    expect(await toasts(page, 'any').count()).toBe(0);
    expect(await page.locator('[data-testid=toast-viewport]').getAttribute('data-queued')).toBe('0');
    await setPreferences(page, { toast_notifications_disabled: false });
  });
});
