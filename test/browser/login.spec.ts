import type { Page } from 'playwright-core';
import { screenshot } from './support/chromium';
import { type BrowserPortal, PASSWORD, signIn, startBrowserPortal } from './support/portal';

/** The login page, the branded shell per host, returning to the page asked for, sign-out, languages. */
describe('login and the branded app shell in Chromium', () => {
  let portal: BrowserPortal;

  beforeAll(async () => {
    // A low per-account ceiling so "too many attempts" comes after three failures (no slow-down before).
    portal = await startBrowserPortal({ LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '3', LOGIN_FREE_ATTEMPTS: '20' });
  });
  afterAll(async () => {
    await portal?.close();
  });

  const errorOf = async (page: Page) => {
    const error = page.locator('[data-testid=login-error]');
    await error.waitFor();
    return { kind: await error.getAttribute('data-kind'), text: (await error.textContent())?.trim() };
  };

  const submit = async (page: Page, email: string, password: string) => {
    await page.locator('[data-testid=login-email]').fill(email);
    await page.locator('[data-testid=login-password]').fill(password);
    await page.locator('[data-testid=login-password]').press('Enter');
  };

  it('sends / to /auth/login, focuses the email field, and refuses a wrong password with a clear message', async () => {
    const { page } = await portal.newPage();
    await page.goto(portal.url('/'));
    await page.waitForURL(/\/auth\/login$/);
    await page.locator('[data-testid=login-form]').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('login-email');
    expect(await page.title()).toBe('Sign in · Demo Solar Portal');
    // Sent here by the session check, with why.
    expect(await page.locator('[data-testid=login-notice]').getAttribute('data-reason')).toBe('MISSING');
    expect(await page.locator('[data-testid=login-notice]').textContent()).toBe('Sign in to continue.');
    await screenshot(page, 'login-page');

    await submit(page, 'basic@demo.local', 'not-the-password');
    expect(await errorOf(page)).toEqual({ kind: 'wrong-credentials', text: 'Wrong email or password.' });
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    // The password is cleared and focused for the next try.
    expect(await page.locator('[data-testid=login-password]').inputValue()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('login-password');
    await screenshot(page, 'login-wrong-password');
  });

  it('checks the fields before sending anything', async () => {
    const { page } = await portal.newPage();
    const logins: string[] = [];
    page.on('request', (r) => r.url().endsWith('/api/auth/login') && logins.push(r.url()));
    await page.goto(portal.url('/auth/login'));
    await page.locator('[data-testid=login-submit]').click();
    expect(await page.locator('#login-email-error').textContent()).toBe('Enter your email address.');
    expect(await page.locator('#login-password-error').textContent()).toBe('Enter your password.');
    expect(logins).toEqual([]);
  });

  it('says so when the portal cannot be reached', async () => {
    const { page } = await portal.newPage();
    await page.goto(portal.url('/auth/login'));
    await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
    await submit(page, 'basic@demo.local', PASSWORD);
    expect(await errorOf(page)).toEqual({
      kind: 'network',
      text: 'The portal cannot be reached. Check your connection and try again.',
    });
  });

  it('tells an inactive account apart from wrong credentials', async () => {
    const admin = await portal.api('superuser@demo.local');
    const user_cuid = await portal.userCuid('other@demo.local');
    expect((await admin.mutate('user.deactivate', { user_cuid })).status).toBe(200);
    try {
      const { page } = await portal.newPage();
      await page.goto(portal.url('/auth/login'));
      await submit(page, 'other@demo.local', PASSWORD);
      expect(await errorOf(page)).toEqual({
        kind: 'inactive',
        text: 'This account is inactive. Ask an administrator of your company to reactivate it.',
      });
    } finally {
      await admin.mutate('user.reactivate', { user_cuid });
    }
  });

  it('after too many attempts says when to try again and disables the button', async () => {
    const { page } = await portal.newPage();
    await page.goto(portal.url('/auth/login'));
    let error = { kind: '' as string | null, text: '' as string | undefined };
    for (let attempt = 0; attempt < 5 && error.kind !== 'too-many'; attempt++) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
      await submit(page, 'expert@demo.local', `wrong-${attempt}`);
      await answered;
      error = await errorOf(page);
    }
    expect(error.kind).toBe('too-many');
    // The window is 15 minutes: shown in minutes, with the clock time (en-GB: 24-hour).
    expect(error.text).toMatch(/^Too many attempts\. You can try again in 1[45] min \(at \d{2}:\d{2}:\d{2}\)\.$/);
    expect(await page.locator('[data-testid=login-submit]').isDisabled()).toBe(true);
  });

  it('signs in and goes back to the page first asked for', async () => {
    const { page } = await portal.newPage();
    await page.goto(portal.url('/preferences'));
    await page.waitForURL(/\/auth\/login$/);
    await submit(page, 'basic@demo.local', PASSWORD);
    await page.waitForURL(/\/preferences$/);
    await page.locator('[data-testid=preferences]').waitFor();
    expect(await page.title()).toBe('Preferences');

    // ?next= works too, and a foreign target is ignored.
    const second = await portal.newPage();
    await second.page.goto(portal.url('/auth/login?next=%2F%2Fevil.example%2F'));
    await submit(second.page, 'basic@demo.local', PASSWORD);
    await second.page.locator('[data-testid=greeting]').waitFor();
    expect(new URL(second.page.url()).pathname).toBe('/');
  });

  it('shows the shell with the brand of localhost: title, favicon, colours, the user and the roles', async () => {
    const { page } = await portal.newPage();
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
    expect(await page.title()).toBe('Demo Solar Portal');
    expect(await page.locator('link[rel~="icon"]').getAttribute('href')).toBe('/brand/favicon.svg');
    expect(await page.locator('[data-testid=greeting]').textContent()).toBe('Hello, Demo Installer');
    expect(await page.locator('[data-testid=membership]').allTextContents()).toEqual(['Demo Solar LtdSystemInstallerCompany admin']);
    const appBar = page.locator('header').first();
    expect(await appBar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(12, 91, 116)'); // #0c5b74
    // role.all arrives about a second after start.
    await page.locator('[data-testid=roles] [data-testid=role-chip]').first().waitFor({ timeout: 5000 });
    expect(await page.locator('[data-testid=roles] [data-testid=role-chip]').allTextContents()).toEqual(['Superuser', 'SystemInstaller', 'Expert', 'Basic']);
    await screenshot(page, 'shell-home');
  });

  it('writes title and sharing metadata per host into the HTML, readable without JavaScript', async () => {
    const context = await portal.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const expected = {
        localhost: { title: 'Demo Solar Portal', icon: '/brand/favicon.svg', description: /Demo Solar/ },
        '127.0.0.1': { title: 'Other Energy Portal', icon: '/brand/favicon-other.svg', description: /Other Energy/ },
      } as const;
      for (const host of ['localhost', '127.0.0.1'] as const) {
        await page.goto(portal.url('/systems', host));
        const meta = (p: string) => page.locator(`meta[property="${p}"]`).getAttribute('content');
        expect(await page.title()).toBe(expected[host].title);
        expect(await page.locator('link[rel~="icon"]').getAttribute('href')).toBe(expected[host].icon);
        expect(await meta('og:title')).toBe(expected[host].title);
        expect(await meta('og:description')).toMatch(expected[host].description);
        expect(await meta('og:url')).toMatch(new RegExp(`^http://${host.replace(/\./g, '\\.')}(:\\d+)?/systems$`));
        expect(await meta('og:image')).toMatch(/^http:\/\/.+\.png$/);
        expect(await meta('og:image:width')).toBe('1200');
        expect(await meta('og:image:height')).toBe('630');
        expect(await meta('og:image:type')).toBe('image/png');
        expect(await meta('og:type')).toBe('article');
      }
    } finally {
      await context.close();
    }
  });

  it('brands the app by host: another domain gets its own title, favicon and colours', async () => {
    const { page } = await portal.newPage();
    await page.goto(portal.url('/auth/login', '127.0.0.1'));
    await page.locator('[data-testid=login-form]').waitFor();
    expect(await page.title()).toBe('Sign in · Other Energy Portal');
    expect(await page.locator('[data-testid=login-portal-name]').textContent()).toBe('Other Energy Portal');
    await signIn(page, portal.url('/auth/login', '127.0.0.1'), 'other@demo.local');
    expect(await page.title()).toBe('Other Energy Portal');
    expect(await page.locator('link[rel~="icon"]').getAttribute('href')).toBe('/brand/favicon-other.svg');
    expect(
      await page
        .locator('header')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(59, 29, 94)'); // #3b1d5e
    await screenshot(page, 'shell-other-host');
  });

  it('signs out to /auth/login, and the session is gone', async () => {
    const { page } = await portal.newPage();
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.locator('[data-testid=menu-sign-out]').click();
    await page.waitForURL(/\/auth\/login$/);
    await page.locator('[data-testid=login-form]').waitFor();
    const check = await page.evaluate(async () => (await fetch('/api/auth/session')).status);
    expect(check).toBe(401);
    await page.goto(portal.url('/'));
    await page.waitForURL(/\/auth\/login$/);
  });

  it('switches between English and French at runtime and remembers the choice', async () => {
    const { page } = await portal.newPage();
    await page.goto(portal.url('/auth/login'));
    await page.locator('[data-testid=login-language-fr]').click();
    expect(await page.locator('#login-heading').textContent()).toBe('Connexion');
    expect(await page.locator('[data-testid=login-submit]').textContent()).toBe('Se connecter');
    await page.locator('[data-testid=login-email]').fill('basic@demo.local');
    await page.locator('[data-testid=login-password]').fill(PASSWORD);
    await page.locator('[data-testid=login-password]').press('Enter');
    await page.locator('[data-testid=greeting]').waitFor();
    expect(await page.locator('[data-testid=greeting]').textContent()).toBe('Bonjour, Demo Basic');
    await page.reload();
    await page.locator('[data-testid=greeting]').waitFor();
    expect(await page.locator('[data-testid=greeting]').textContent()).toBe('Bonjour, Demo Basic');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByRole('button', { name: 'Compte' }).click();
    await page.locator('[data-testid=menu-language-en]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=greeting]')?.textContent === 'Hello, Demo Basic');
  });
});
