import { SmtpPeer } from '../factories/smtp-peer';
import { screenshot } from './support/chromium';
import { HoldingProxy } from './support/holding-proxy';
import { type BrowserPortal, eventually, signIn, startBrowserPortal } from './support/portal';

/**
 * Accounts people recover on their own, in Chromium against the built app, a real SMTP server and
 * the test database: "Forgot password?" on the login page → the neutral confirmation → the mail's
 * link → a new password (twice, with its strength) → back on the login with a message → signed
 * in; a dead link says so; the French pages; "Change password" on the preferences page.
 */
jest.setTimeout(180_000);

let portal: BrowserPortal;
let smtp: SmtpPeer;

/** The /auth/reset link of the last mail to `email` (path and query: the mail names PUBLIC_URL). */
const resetPathOf = (email: string): string | undefined => {
  const mail = [...smtp.messages].reverse().find((m) => m.to.includes(email));
  if (!mail) return undefined;
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = /http:\/\/portal\.test(\/auth\/reset\?token=[A-Za-z0-9._-]+(?:&welcome=1)?)/.exec(text);
  return m?.[1];
};

beforeAll(async () => {
  smtp = await SmtpPeer.start();
  portal = await startBrowserPortal({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://portal.test' });
});
afterAll(async () => {
  await portal?.close();
  await smtp?.close();
});

describe('accounts in Chromium', () => {
  it('forgot password from the login page → mail → link → new password → sign in', async () => {
    const { page } = await portal.newPage();
    await page.goto(portal.url('/auth/login'));
    await page.locator('[data-testid=login-forgot]').click();
    await page.waitForURL(/\/auth\/forgot$/);
    expect(await page.title()).toBe('Forgot password · Demo Solar Portal');
    // checked before anything is sent
    await page.locator('[data-testid=forgot-submit]').click();
    expect(await page.locator('#forgot-email-error').textContent()).toBe('Enter your email address.');

    await page.locator('[data-testid=forgot-email]').fill('expert@demo.local');
    await page.locator('[data-testid=forgot-submit]').click();
    const sent = await page.locator('[data-testid=forgot-sent]').textContent();
    expect(sent).toMatch(/If an active account uses this address/);
    await screenshot(page, 'accounts-forgot-sent');

    // an unknown address gets the very same confirmation
    await page.locator('[data-testid=forgot-again]').click();
    await page.locator('[data-testid=forgot-email]').fill('nobody@demo.local');
    await page.locator('[data-testid=forgot-submit]').click();
    expect(await page.locator('[data-testid=forgot-sent]').textContent()).toBe(sent);

    const path = await eventually(
      async () => resetPathOf('expert@demo.local'),
      (p) => !!p,
    );
    expect(smtp.messages.filter((m) => m.to.includes('nobody@demo.local'))).toEqual([]);
    await page.goto(portal.url(path));
    await page.locator('[data-testid=reset-form]').waitFor();
    await page.locator('[data-testid=reset-password]').fill('short');
    await page.locator('[data-testid=reset-submit]').click();
    expect(await page.locator('#reset-password-error').textContent()).toBe('At least 8 characters.');
    await page.locator('[data-testid=reset-password]').fill('Sunny-Kisumu-2026');
    expect(await page.locator('[data-testid=password-strength]').getAttribute('data-level')).toBe('strong');
    await page.locator('[data-testid=reset-repeat]').fill('Sunny-Kisumu-2025');
    await page.locator('[data-testid=reset-submit]').click();
    expect(await page.locator('#reset-repeat-error').textContent()).toBe('The two passwords are not the same.');
    await page.locator('[data-testid=reset-repeat]').fill('Sunny-Kisumu-2026');
    await screenshot(page, 'accounts-reset-form');
    await page.locator('[data-testid=reset-submit]').click();

    await page.waitForURL(/\/auth\/login$/);
    expect(await page.locator('[data-testid=login-password-set]').textContent()).toBe('Your password is set. Sign in with it.');
    await page.locator('[data-testid=login-email]').fill('expert@demo.local');
    await page.locator('[data-testid=login-password]').fill('Sunny-Kisumu-2026');
    await page.locator('[data-testid=login-password]').press('Enter');
    await page.locator('[data-testid=greeting]').waitFor({ timeout: 20_000 });

    // the link worked once: opened again, it says so and offers a new one
    const { page: again } = await portal.newPage();
    await again.goto(portal.url(path));
    await again.locator('[data-testid=reset-password]').fill('Another-password-1');
    await again.locator('[data-testid=reset-repeat]').fill('Another-password-1');
    await again.locator('[data-testid=reset-submit]').click();
    expect(await again.locator('[data-testid=reset-invalid-link]').textContent()).toMatch(/not valid any more/);
    await again.locator('[data-testid=reset-ask-new]').click();
    await again.waitForURL(/\/auth\/forgot$/);
  });

  it('an admin invites a user from the user form (password left empty, French); the invitation link lets them choose a password and sign in', async () => {
    const email = 'invited.operator@demo.local';
    const { page: admin } = await portal.newPage();
    await signIn(admin, portal.url('/auth/login'), 'installer@demo.local');
    await admin.goto(portal.url('/user/create'));
    await admin.locator('input[name=email]').fill(email);
    await admin.locator('input[name=name]').fill('Invited Operator');
    await admin.locator('input[name=email]').waitFor();
    await screenshot(admin, 'accounts-invitation-form');
    await admin.getByRole('combobox', { name: 'Language of the invitation' }).click();
    await admin.getByRole('option', { name: 'Français' }).click();
    await admin.locator('input[name=company_cuid]').fill('Demo');
    await admin.getByRole('option', { name: 'Demo Solar Ltd' }).click();
    await admin.locator('#role_cuid').focus();
    await admin.keyboard.press('Enter');
    await admin.getByRole('option', { name: /Basic/ }).click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText(`An invitation was mailed to ${email}.`).waitFor({ timeout: 15_000 });
    await admin.waitForURL(/\/user$/);
    await screenshot(admin, 'accounts-invitation-sent');

    const path = await eventually(
      async () => resetPathOf(email),
      (p) => !!p,
    );
    const { page } = await portal.newPage();
    await page.goto(portal.url(path));
    // the invitation's heading; the page itself follows this device's language (English here)
    expect(await page.locator('#account-heading').textContent()).toBe('Welcome! Choose your password');
    await page.locator('[data-testid=reset-password]').fill('Invited-operator-2026');
    await page.locator('[data-testid=reset-repeat]').fill('Invited-operator-2026');
    await page.locator('[data-testid=reset-submit]').click();
    await page.waitForURL(/\/auth\/login$/);
    await page.locator('[data-testid=login-email]').fill(email);
    await page.locator('[data-testid=login-password]').fill('Invited-operator-2026');
    await page.locator('[data-testid=login-password]').press('Enter');
    await page.locator('[data-testid=greeting]').waitFor({ timeout: 20_000 });
    const mail = [...smtp.messages].reverse().find((m) => m.to.includes(email))!;
    expect(mail.raw.replace(/=\r?\n/g, '')).toMatch(/Choisir mon mot de passe/);
  });

  it('the pages speak French when French is chosen', async () => {
    const { page } = await portal.newPage();
    await page.goto(portal.url('/auth/forgot'));
    await page.locator('[data-testid=account-language-fr]').click();
    expect(await page.locator('#account-heading').textContent()).toBe('Mot de passe oublié ?');
    await page.locator('[data-testid=forgot-email]').fill('basic@demo.local');
    await page.locator('[data-testid=forgot-submit]').click();
    expect(await page.locator('[data-testid=forgot-sent]').textContent()).toMatch(/Si un compte actif utilise cette adresse/);
    await page.goto(portal.url('/auth/reset'));
    expect(await page.locator('[data-testid=reset-invalid-link]').textContent()).toMatch(/Cette page a besoin du lien/);
    await page.goto(portal.url('/auth/login'));
    expect(await page.locator('[data-testid=login-forgot]').textContent()).toBe('Mot de passe oublié ?');
    // the mail went out in French too (the device's language, the user has no choice of their own)
    const path = await eventually(
      async () => resetPathOf('basic@demo.local'),
      (p) => !!p,
    );
    expect(path).toBeDefined();
    const mail = [...smtp.messages].reverse().find((m) => m.to.includes('basic@demo.local'))!;
    expect(mail.raw).toMatch(/r=C3=A9initialiser|réinitialiser/);
  });

  it('"Change password" on the preferences page: a wrong current password shows on its field; the right one keeps this session', async () => {
    const { page } = await portal.newPage();
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
    await page.goto(portal.url('/preferences'));
    await page.locator('[data-testid=change-password]').click();
    await page.locator('[data-testid=change-current]').fill('not-my-password');
    await page.locator('[data-testid=change-new]').fill('Installer-new-2026');
    await page.locator('[data-testid=change-repeat]').fill('Installer-new-2026');
    await page.locator('[data-testid=change-submit]').click();
    await page.getByText('The current password is not right.').waitFor();
    await screenshot(page, 'accounts-change-wrong-current');
    await page.locator('[data-testid=change-current]').fill('demo-password');
    await page.locator('[data-testid=change-submit]').click();
    await page.getByText('Your password is changed. Your other sessions were signed out.').waitFor();
    await page.goto(portal.url('/preferences'));
    await page.locator('[data-testid=preferences]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/preferences');
    const api = portal.app.baseUrl;
    const r = await fetch(`${api}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'installer@demo.local', password: 'Installer-new-2026' }),
    });
    expect(r.status).toBe(200);
  });
  it('on a slow link, a session check that left while the change was out (old cookie, 401) does not sign this session out', async () => {
    const proxy = await HoldingProxy.start(portal.app.baseUrl);
    try {
      const { page } = await portal.newPage();
      await signIn(page, proxy.url('/auth/login'), 'other@demo.local');
      await page.goto(proxy.url('/preferences'));
      await page.locator('[data-testid=preferences]').waitFor();
      // The server changes the password at once; its answer (with this session's new cookie) reaches
      // the page only after a session check, sent meanwhile with the old cookie, was answered 401.
      const checked401 = () => proxy.passed.some((p) => p.path === '/api/auth/session' && p.status === 401);
      proxy.holdAnswers(
        (path) => path.includes('account.changePassword'),
        () =>
          eventually(
            async () => checked401(),
            (ok) => ok,
          ).then(() => undefined),
      );
      await page.locator('[data-testid=change-password]').click();
      await page.locator('[data-testid=change-current]').fill('demo-password');
      await page.locator('[data-testid=change-new]').fill('Other-new-2026');
      await page.locator('[data-testid=change-repeat]').fill('Other-new-2026');
      await page.locator('[data-testid=change-submit]').click();
      await page.getByText('Your password is changed. Your other sessions were signed out.').waitFor();
      expect(checked401()).toBe(true);
      // The checks after it hold (a 304 is the unchanged context, conditional GET).
      const after = proxy.passed.length;
      const later = () => proxy.passed.slice(after).filter((p) => p.path === '/api/auth/session');
      await eventually(
        async () => later().length,
        (n) => n >= 2,
      );
      expect(later().length).toBeGreaterThanOrEqual(2);
      expect(later().every((p) => p.status === 200 || p.status === 304)).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/preferences');
      await page.locator('[data-testid=preferences]').waitFor();
    } finally {
      await proxy.close();
    }
  });
});
