import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { mailHeader, SmtpPeer, type ReceivedMail } from '../factories/smtp-peer';
import { AccountsService } from '../../server/src/accounts/accounts.service';
import { hashPassword } from '../../server/src/auth/password';
import { newCuid } from '../../server/src/common/ids';

/**
 * Accounts people recover on their own, over real HTTP against the whole application, a real
 * SMTP server (smtp-server on a local port) and the test database (PostgreSQL with
 * TEST_DATABASE_URL): invitations, "forgot password", links used once, expired, replaced,
 * concurrent; the brake; sessions ended by a reset and by a change; the guards of the public
 * endpoints.
 */

const PUBLIC_URL = 'http://portal.test';
const PER_EMAIL = 3;
const PER_ADDRESS = 40;

let t: TestApp;
let smtp: SmtpPeer;
let superuser: HttpClient;
let installer: HttpClient;
let accounts: AccountsService;
let demo: string;
let other: string;
const role: Record<number, string> = {};

/** The reset / invitation link of a mail (as sent: PUBLIC_URL), or undefined. */
const linkOf = (raw: string): string | undefined =>
  /https?:\/\/[^\s"<>]+\/auth\/reset\?token=[A-Za-z0-9._-]+(&amp;welcome=1|&welcome=1)?/.exec(textOf(raw))?.[0]?.replace('&amp;', '&');
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const mailsTo = (email: string): ReceivedMail[] => smtp.messages.filter((m) => m.to.includes(email));

const newClient = () => new HttpClient(t.baseUrl);
const forgot = (email: unknown, headers: Record<string, string> = {}) => newClient().json('POST', '/api/auth/forgot', { email }, headers);
const reset = (token: string, password: string, headers: Record<string, string> = {}) =>
  newClient().json('POST', '/api/auth/reset', { token, password }, headers);

let seq = 0;
let firstHash: string;
/**
 * A Basic member of the demo company whose password is 'first-password-1', written by SQL (the
 * admin's password-change brake allows 10 a minute; how users are made is not under test here).
 */
async function makeUser(): Promise<{ user_cuid: string; email: string }> {
  const email = `acct${++seq}-${Date.now()}@accounts.test`;
  const user_cuid = newCuid();
  await t.db.dataSource.query(`INSERT INTO "user" (user_cuid, email, password, name) VALUES ($1, $2, $3, $4)`, [user_cuid, email, firstHash, `Account ${seq}`]);
  await t.db.dataSource.query(`INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid) VALUES ($1, $2, $3, $4)`, [
    newCuid(),
    role[3],
    user_cuid,
    demo,
  ]);
  return { user_cuid, email };
}

/** A mail's text: quoted-printable undone into bytes, read as UTF-8. */
const textOf = (raw: string): string =>
  Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

beforeAll(async () => {
  smtp = await SmtpPeer.start();
  t = await startTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Portal <accounts@portal.test>',
    PUBLIC_URL,
    RESET_REQUESTS_PER_HOUR: String(PER_EMAIL),
    RESET_REQUESTS_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS),
  });
  accounts = t.app.get(AccountsService);
  firstHash = await hashPassword('first-password-1');
  superuser = newClient();
  installer = newClient();
  expect((await superuser.login('superuser@demo.local')).status).toBe(200);
  expect((await installer.login('installer@demo.local')).status).toBe(200);
  [{ company_cuid: demo }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
  [{ company_cuid: other }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Other Energy Co'`);
  for (const r of await t.db.dataSource.query<{ role_cuid: string; level: number }[]>(`SELECT role_cuid, level FROM role`)) role[r.level] = r.role_cuid;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  // The per-address ceiling is tested on its own; the other tests start below it.
  await t.db.dataSource.query(`DELETE FROM account_request`);
});

describe('invitation', () => {
  it('a user created without a password gets a mail in the language the admin picked; the link sets the password once and activates the account', async () => {
    const email = `invited-${Date.now()}@accounts.test`;
    const before = smtp.messages.length;
    const created = await installer.mutate('user.create', {
      data: { email, name: 'Amina <Invited>', company_cuid: demo, role_cuid: role[3], password: '', language: 'fr' },
    });
    expect(created.status).toBe(200);
    expect(created.data.invitation).toEqual({ sent: true, message: expect.stringContaining(email) });
    expect(created.data.data).toMatchObject({ email, inactive: true, inactivated_by_user_cuid: null });
    const [stored] = await t.db.dataSource.query(`SELECT password, meta FROM "user" WHERE email = $1`, [email]);
    expect(stored.password).toBeNull();
    expect(stored.meta).toEqual({ preferences: { language: 'fr' } });

    const mail = await smtp.waitFor(before + 1);
    expect(mail.to).toEqual([email]);
    expect(mail.from).toBe('accounts@portal.test');
    expect(mailHeader(mail.raw, 'subject')).toBeDefined();
    const body = textOf(mail.raw);
    expect(body).toMatch(/text\/plain/);
    expect(body).toMatch(/text\/html/);
    expect(body).toContain('Energy Portal');
    expect(body).toContain('72 heures');
    expect(body).toContain('Choisir mon mot de passe');
    // the name is escaped in the HTML part
    expect(body).toContain('Amina &lt;Invited&gt;');
    const link = linkOf(mail.raw)!;
    expect(link.startsWith(`${PUBLIC_URL}/auth/reset?token=`)).toBe(true);
    // only a hash of the link's secret is stored
    const secret = tokenOf(link).split('.')[1];
    const rows = await t.db.dataSource.query(`SELECT data::text AS data FROM url_request WHERE data->>'user_cuid' = $1`, [created.data.data.user_cuid]);
    expect(rows).toHaveLength(1);
    expect(rows[0].data).not.toContain(secret);

    // not signed in before the password is set
    expect((await newClient().login(email, 'my-own-password-1')).status).toBe(401);
    const done = await reset(tokenOf(link), 'my-own-password-1');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ok: true, message: expect.any(String), redirectTo: '/auth/login' });
    expect(done.setCookies.filter((c) => c.startsWith('liuc='))).toEqual([]);
    const [after] = await t.db.dataSource.query(`SELECT inactive, inactivated_at FROM "user" WHERE email = $1`, [email]);
    expect(after).toEqual({ inactive: false, inactivated_at: null });
    const signIn = newClient();
    expect((await signIn.login(email, 'my-own-password-1')).status).toBe(200);
    expect((await signIn.request('GET', '/api/auth/session')).status).toBe(200);

    // the link works once
    const again = await reset(tokenOf(link), 'another-password-2');
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_LINK');
    expect((await newClient().login(email, 'my-own-password-1')).status).toBe(200);
  });

  it("without a picked language the mail is in the admin's language", async () => {
    const email = `invited-en-${Date.now()}@accounts.test`;
    const before = smtp.messages.length;
    const created = await installer.mutate('user.create', { data: { email, name: 'Ben', company_cuid: demo, role_cuid: role[3] } });
    expect(created.status).toBe(200);
    const body = textOf((await smtp.waitFor(before + 1)).raw);
    expect(body).toContain('72 hours');
    expect(body).toContain('Choose my password');
    const [stored] = await t.db.dataSource.query(`SELECT meta FROM "user" WHERE email = $1`, [email]);
    expect(stored.meta).toEqual({});
  });

  it('a mail that cannot be sent does not fail the creation: the answer says so, and the admin re-sends it; the older link dies', async () => {
    const email = `invited-late-${Date.now()}@accounts.test`;
    smtp.refuseNext(451);
    const created = await installer.mutate('user.create', { data: { email, name: 'Late', company_cuid: demo, role_cuid: role[3] } });
    expect(created.status).toBe(200);
    expect(created.data.invitation.sent).toBe(false);
    expect(created.data.invitation.message).toMatch(/could not be sent/);
    const user_cuid = created.data.data.user_cuid;
    expect(mailsTo(email)).toHaveLength(0);

    const first = await installer.mutate('account.resendInvitation', { user_cuid });
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ sent: true, message: expect.stringContaining(email) });
    await smtp.waitFor(smtp.messages.length);
    const firstLink = linkOf(mailsTo(email)[0].raw)!;
    const second = await installer.mutate('account.resendInvitation', { user_cuid });
    expect(second.status).toBe(200);
    const end = Date.now() + 10_000;
    while (mailsTo(email).length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const secondLink = linkOf(mailsTo(email)[1].raw)!;
    expect(secondLink).not.toBe(firstLink);
    expect((await reset(tokenOf(firstLink), 'a-good-password-1')).body.code).toBe('INVALID_LINK');
    expect((await reset(tokenOf(secondLink), 'a-good-password-1')).status).toBe(200);
    // now the user has a password: no more invitations
    const after = await installer.mutate('account.resendInvitation', { user_cuid });
    expect(after.status).toBe(400);
    expect(after.error?.message).toMatch(/Forgot password/);
  });

  it('resendInvitation: a foreign user or an unknown id is NOT_FOUND; a non-admin colleague is FORBIDDEN', async () => {
    const foreign = await superuser.mutate('user.create', {
      data: { email: `foreign-${Date.now()}@accounts.test`, name: 'Foreign', company_cuid: other, role_cuid: role[3] },
    });
    expect(foreign.status).toBe(200);
    const r = await installer.mutate('account.resendInvitation', { user_cuid: foreign.data.data.user_cuid });
    expect(r.status).toBe(404);
    const unknown = await installer.mutate('account.resendInvitation', { user_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe(r.text.replace(/"path":"[^"]*"/, '"path":"account.resendInvitation"'));
    const basic = newClient();
    await basic.login('basic@demo.local');
    const mine = await installer.mutate('user.create', {
      data: { email: `colleague-${Date.now()}@accounts.test`, name: 'Colleague', company_cuid: demo, role_cuid: role[3] },
    });
    expect((await basic.mutate('account.resendInvitation', { user_cuid: mine.data.data.user_cuid })).status).toBe(403);
  });

  it('an invited user whom an admin deactivated cannot use the invitation', async () => {
    const email = `invited-stopped-${Date.now()}@accounts.test`;
    const before = smtp.messages.length;
    const created = await installer.mutate('user.create', { data: { email, name: 'Stopped', company_cuid: demo, role_cuid: role[3] } });
    const link = linkOf((await smtp.waitFor(before + 1)).raw)!;
    expect((await installer.mutate('user.deactivate', { user_cuid: created.data.data.user_cuid })).status).toBe(200);
    expect((await reset(tokenOf(link), 'a-good-password-1')).body.code).toBe('INVALID_LINK');
    expect((await installer.mutate('account.resendInvitation', { user_cuid: created.data.data.user_cuid })).status).toBe(400);
  });
});

describe('forgot password', () => {
  it('answers the same for a known, an unknown and an inactive address, and mails only the known active one', async () => {
    const known = await makeUser();
    const inactive = await makeUser();
    expect((await superuser.mutate('user.deactivate', { user_cuid: inactive.user_cuid })).status).toBe(200);
    const unknownEmail = `nobody-${Date.now()}@accounts.test`;
    const before = smtp.messages.length;
    const answers = [];
    for (const email of [known.email, unknownEmail, inactive.email, known.email.toUpperCase()]) answers.push(await forgot(email));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).toBe(answers[0].text);
      expect(a.headers.get('cache-control')).toBe('no-store');
    }
    expect(answers[0].body).toEqual({ ok: true, message: expect.stringMatching(/If an active account uses this address/) });
    await accounts.settled();
    const sent = smtp.messages.slice(before);
    expect(sent.map((m) => m.to)).toEqual([[known.email], [known.email]]);
    expect(mailsTo(unknownEmail)).toEqual([]);
    expect(mailsTo(inactive.email)).toEqual([]);
    const body = textOf(sent[0].raw);
    expect(body).toContain('30 minutes');
    expect(body).toContain('Energy Portal');
    // a newer request invalidates the older link
    const older = linkOf(sent[0].raw)!;
    const newer = linkOf(sent[1].raw)!;
    expect((await reset(tokenOf(older), 'a-good-password-1')).body.code).toBe('INVALID_LINK');
    expect((await reset(tokenOf(newer), 'a-good-password-1')).status).toBe(200);
    expect((await newClient().login(known.email, 'a-good-password-1')).status).toBe(200);
  });

  it('answers a known address exactly as an unknown one, before the address is even looked up (the lookup and the mail run after the answer)', async () => {
    const known = await Promise.all(Array.from({ length: 4 }, () => makeUser()));
    const unknown = known.map((_, i) => `nobody-order-${i}-${Date.now()}@accounts.test`);
    // The lookup-and-mail step waits behind a gate the test opens: both answers must come while it
    // is closed (an order, not a time; the answer's time is in `npm run bench`).
    const service = accounts as unknown as { mailReset: (...a: unknown[]) => Promise<void> };
    const original = service.mailReset.bind(accounts);
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let looked = 0;
    const spy = jest.spyOn(service, 'mailReset').mockImplementation(async (...a: unknown[]) => {
      await gate;
      looked++;
      return original(...a);
    });
    try {
      const answers = [];
      for (let i = 0; i < known.length; i++) answers.push(await forgot(known[i].email), await forgot(unknown[i]));
      expect(looked).toBe(0);
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      // the same body for both kinds of address
      expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
      expect(known.every((x) => mailsTo(x.email).length === 0)).toBe(true);
    } finally {
      open();
      await accounts.settled();
      spy.mockRestore();
    }
    expect(looked).toBe(2 * known.length);
    expect(known.every((x) => mailsTo(x.email).length === 1)).toBe(true);
    expect(unknown.every((x) => mailsTo(x).length === 0)).toBe(true);
  });

  it("answers in the browser's language; the mail follows the user's own choice first", async () => {
    const u = await makeUser();
    const fr = await forgot(u.email, { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' });
    expect(fr.body.message).toMatch(/Si un compte actif/);
    await accounts.settled();
    expect(textOf(mailsTo(u.email).at(-1)!.raw)).toContain('réinitialiser votre mot de passe');
    const chooser = newClient();
    await chooser.login(u.email, 'first-password-1');
    expect((await chooser.mutate('user.updatePreferences', { language: 'en' })).status).toBe(200);
    await forgot(u.email, { 'accept-language': 'fr' });
    await accounts.settled();
    expect(textOf(mailsTo(u.email).at(-1)!.raw)).toContain('reset your password');
  });

  it(`past ${PER_EMAIL} requests an hour for one address: the same answer, no more mails (known and unknown alike)`, async () => {
    const u = await makeUser();
    const unknownEmail = `nobody-limit-${Date.now()}@accounts.test`;
    const answers = [];
    for (let i = 0; i < PER_EMAIL + 2; i++) answers.push(await forgot(u.email), await forgot(unknownEmail));
    for (const a of answers) expect([a.status, a.text]).toEqual([200, answers[0].text]);
    await accounts.settled();
    expect(mailsTo(u.email)).toHaveLength(PER_EMAIL);
    // an hour later the address may ask again
    await t.db.dataSource.query(`UPDATE account_request SET at = at - interval '61 minutes'`);
    await forgot(u.email);
    await accounts.settled();
    expect(mailsTo(u.email)).toHaveLength(PER_EMAIL + 1);
  });

  it(`past ${PER_ADDRESS} requests an hour from one client address: the same answer, no mail`, async () => {
    const u = await makeUser();
    await t.db.dataSource.query(
      `INSERT INTO account_request (request_cuid, account, address, at) SELECT 'fill' || g, 'x' || g || '@accounts.test', '127.0.0.1', now() FROM generate_series(1, $1) g`,
      [PER_ADDRESS],
    );
    const a = await forgot(u.email);
    expect(a.status).toBe(200);
    expect(a.body.ok).toBe(true);
    await accounts.settled();
    expect(mailsTo(u.email)).toHaveLength(0);
  });

  it('a link past its validity is refused; the password stays', async () => {
    const u = await makeUser();
    await forgot(u.email);
    await accounts.settled();
    const link = linkOf(mailsTo(u.email)[0].raw)!;
    await t.db.dataSource.query(`UPDATE url_request SET expires_at = now() - interval '1 second' WHERE data->>'user_cuid' = $1`, [u.user_cuid]);
    const r = await reset(tokenOf(link), 'a-good-password-1');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 'INVALID_LINK', message: expect.stringMatching(/not valid any more/) });
    expect((await newClient().login(u.email, 'first-password-1')).status).toBe(200);
  });

  it('a reset ends every session of the user and does not sign anybody in', async () => {
    const u = await makeUser();
    const a = newClient();
    const b = newClient();
    await a.login(u.email, 'first-password-1');
    await b.login(u.email, 'first-password-1');
    await forgot(u.email);
    await accounts.settled();
    const link = linkOf(mailsTo(u.email)[0].raw)!;
    const r = await a.json('POST', '/api/auth/reset', { token: tokenOf(link), password: 'after-reset-password' });
    expect(r.status).toBe(200);
    expect((await a.request('GET', '/api/auth/session')).status).toBe(401);
    expect((await b.request('GET', '/api/auth/session')).status).toBe(401);
    expect((await newClient().login(u.email, 'first-password-1')).status).toBe(401);
    expect((await newClient().login(u.email, 'after-reset-password')).status).toBe(200);
  });

  it('two concurrent uses of one link: exactly one succeeds', async () => {
    const u = await makeUser();
    await forgot(u.email);
    await accounts.settled();
    const token = tokenOf(linkOf(mailsTo(u.email)[0].raw)!);
    const answers = await Promise.all([reset(token, 'concurrent-one-1'), reset(token, 'concurrent-two-2'), reset(token, 'concurrent-three-3')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    const winner = ['concurrent-one-1', 'concurrent-two-2', 'concurrent-three-3'][answers.findIndex((a) => a.status === 200)];
    expect((await newClient().login(u.email, winner)).status).toBe(200);
  });

  it('refuses a weak password with a field error and keeps the link; junk tokens are one clear error', async () => {
    const u = await makeUser();
    await forgot(u.email);
    await accounts.settled();
    const token = tokenOf(linkOf(mailsTo(u.email)[0].raw)!);
    const weak = await reset(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.fieldErrors).toEqual([{ path: 'password', message: 'At least 8 characters' }]);
    for (const junk of ['', 'x', `${token.split('.')[0]}.AAAAAAAAAAAAAAAAAAAAAAAA`, 'a'.repeat(300)]) {
      const r = await reset(junk, 'a-good-password-1');
      expect([r.status, r.body.code]).toEqual([400, 'INVALID_LINK']);
      expect(r.text).not.toMatch(/SELECT|stack|at \//);
    }
    expect((await reset(token, 'a-good-password-1')).status).toBe(200);
  });

  it('bad bodies are 400, never 500; forms (415) and foreign origins (403) are refused like at the login', async () => {
    for (const body of ['null', '[]', '"x"', '{"email":12}', '{"email":"not-an-address"}', '{}']) {
      const r = await newClient().request('POST', '/api/auth/forgot', { body, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(400);
    }
    for (const body of ['null', '[]', '{"token":1,"password":2}', '{}']) {
      const r = await newClient().request('POST', '/api/auth/reset', { body, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(400);
    }
    for (const path of ['/api/auth/forgot', '/api/auth/reset']) {
      const form = await newClient().request('POST', path, { body: 'email=a%40b.test', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(form.status).toBe(415);
      const text = await newClient().request('POST', path, { body: '{"email":"a@b.test"}', headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      const foreign = await newClient().json('POST', path, { email: 'a@b.test' }, { origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
    }
  });
});

describe('change password', () => {
  it('a wrong current password is a field error on current_password; the right one keeps this session and ends the others', async () => {
    const u = await makeUser();
    const a = newClient();
    const b = newClient();
    await a.login(u.email, 'first-password-1');
    await b.login(u.email, 'first-password-1');
    const wrong = await a.mutate('account.changePassword', { current_password: 'not-my-password', new_password: 'second-password-2' });
    expect(wrong.status).toBe(400);
    expect(wrong.error?.data.fieldErrors).toEqual([{ path: 'current_password', message: expect.any(String) }]);
    const weak = await a.mutate('account.changePassword', { current_password: 'first-password-1', new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.error?.data.fieldErrors?.[0].path).toBe('new_password');
    expect((await b.request('GET', '/api/auth/session')).status).toBe(200);

    const ok = await a.mutate('account.changePassword', { current_password: 'first-password-1', new_password: 'second-password-2' });
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({ ok: true });
    expect((await a.request('GET', '/api/auth/session')).status).toBe(200);
    expect((await a.query('role.all')).status).toBe(200);
    expect((await b.request('GET', '/api/auth/session')).status).toBe(401);
    expect((await newClient().login(u.email, 'first-password-1')).status).toBe(401);
    expect((await newClient().login(u.email, 'second-password-2')).status).toBe(200);
  });

  it('a change drops a pending reset link of the user', async () => {
    const u = await makeUser();
    await forgot(u.email);
    await accounts.settled();
    const token = tokenOf(linkOf(mailsTo(u.email)[0].raw)!);
    const a = newClient();
    await a.login(u.email, 'first-password-1');
    expect((await a.mutate('account.changePassword', { current_password: 'first-password-1', new_password: 'second-password-2' })).status).toBe(200);
    expect((await reset(token, 'third-password-3')).body.code).toBe('INVALID_LINK');
  });

  it('wrong current passwords are braked like logins (429 past the ceiling)', async () => {
    const u = await makeUser();
    const a = newClient();
    await a.login(u.email, 'first-password-1');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await a.mutate('account.changePassword', { current_password: `wrong-${i}-password`, new_password: 'second-password-2' })).status);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses).toContain(429);
  });
});
