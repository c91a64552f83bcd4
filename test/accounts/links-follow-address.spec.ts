import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { decodeMail, SmtpPeer, verifyLinkOf, type ReceivedMail } from '../factories/smtp-peer';
import { AccountsService } from '../../server/src/accounts/accounts.service';
import { hashPassword } from '../../server/src/auth/password';
import { newCuid } from '../../server/src/common/ids';

/**
 * The class "a mailed link belongs to the address it was sent to" (docs/security.md "Links belong
 * to an address"): for every link kind (account invitation, password reset, e-mail channel
 * verification), one link in each of two companies; company B's address changes, company A's does
 * not. B's old link answers exactly like a junk link and changes nothing; a link sent to B's new
 * address works; A's link, untouched, works. Real HTTP, real SMTP peer, the test database.
 */

const PUBLIC_URL = 'http://portal.test';
let t: TestApp;
let smtp: SmtpPeer;
let superuser: HttpClient;
let accounts: AccountsService;
const company: Record<'A' | 'B', string> = { A: '', B: '' };
const role: Record<number, string> = {};
let seq = 0;

const newClient = () => new HttpClient(t.baseUrl);
const unique = (tag: string) => `${tag}-${++seq}-${newCuid()}@links.test`;
const resetLinkOf = (raw: string): string | undefined => /https?:\/\/[^\s"<>]+\/auth\/reset\?token=[A-Za-z0-9._-]+/.exec(decodeMail(raw))?.[0];
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const pathOf = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};
const reset = (token: string, password: string) => newClient().json('POST', '/api/auth/reset', { token, password });

/** The newest mail to `email` after `from` mails (waits for the SMTP peer). */
async function mailTo(email: string, from: number): Promise<ReceivedMail> {
  for (let n = from + 1; ; n++) {
    const m = await smtp.waitFor(n);
    if (m.to.includes(email)) return m;
  }
}

/** What a junk (never issued) token answers: the old link must answer the same. */
async function junkAnswer(): Promise<{ status: number; body: unknown }> {
  const r = await reset(`${newCuid()}.${'x'.repeat(32)}`, 'a-good-password-1');
  return { status: r.status, body: r.body };
}

beforeAll(async () => {
  smtp = await SmtpPeer.start();
  t = await startTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Portal <accounts@portal.test>',
    PUBLIC_URL,
    RESET_REQUESTS_PER_HOUR: '50',
    RESET_REQUESTS_PER_ADDRESS_PER_HOUR: '500',
  });
  accounts = t.app.get(AccountsService);
  superuser = newClient();
  expect((await superuser.login('superuser@demo.local')).status).toBe(200);
  [{ company_cuid: company.A }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
  [{ company_cuid: company.B }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Other Energy Co'`);
  for (const r of await t.db.dataSource.query<{ role_cuid: string; level: number }[]>(`SELECT role_cuid, level FROM role`)) role[r.level] = r.role_cuid;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('a link belongs to the address it was sent to (every link kind; company B changes its address, company A does not)', () => {
  it('account invitation: the old link answers like a junk link and sets nothing; the link mailed to the new address works', async () => {
    const before = smtp.messages.length;
    const email = { A: unique('invite-a'), B: unique('invite-b') };
    const user: Record<'A' | 'B', string> = { A: '', B: '' };
    const link: Record<'A' | 'B', string> = { A: '', B: '' };
    for (const c of ['A', 'B'] as const) {
      const created = await superuser.mutate('user.create', {
        data: { email: email[c], name: `Invitee ${c}`, company_cuid: company[c], role_cuid: role[3], password: '' },
      });
      expect(created.status).toBe(200);
      user[c] = created.data.data.user_cuid;
      link[c] = resetLinkOf((await mailTo(email[c], before)).raw)!;
      expect(link[c]).toBeDefined();
    }
    // The admin corrects B's mistyped address.
    const corrected = unique('invite-b-corrected');
    const changed = await superuser.mutate('user.update', { id: user.B, data: { email: corrected } });
    expect(changed.status).toBe(200);

    const junk = await junkAnswer();
    const old = await reset(tokenOf(link.B), 'taken-by-first-recipient-1');
    expect({ status: old.status, body: old.body }).toEqual(junk);
    expect(junk.status).toBe(400);
    const [row] = await t.db.dataSource.query(`SELECT password, inactive FROM "user" WHERE user_cuid = $1`, [user.B]);
    expect(row).toEqual({ password: null, inactive: true });
    expect((await newClient().login(corrected, 'taken-by-first-recipient-1')).status).toBe(401);

    // A new invitation goes to the corrected address and works.
    const mark = smtp.messages.length;
    expect((await superuser.mutate('account.resendInvitation', { user_cuid: user.B })).status).toBe(200);
    const fresh = resetLinkOf((await mailTo(corrected, mark)).raw)!;
    expect((await reset(tokenOf(fresh), 'the-real-owner-1')).status).toBe(200);
    expect((await newClient().login(corrected, 'the-real-owner-1')).status).toBe(200);
    // Company A's invitation, its address untouched, still works.
    expect((await reset(tokenOf(link.A), 'company-a-owner-1')).status).toBe(200);
    expect((await newClient().login(email.A, 'company-a-owner-1')).status).toBe(200);
  });

  it('password reset: the old link answers like a junk link and keeps the password; the link mailed to the new address works', async () => {
    const hash = await hashPassword('first-password-1');
    const email = { A: unique('reset-a'), B: unique('reset-b') };
    const user: Record<'A' | 'B', string> = { A: '', B: '' };
    for (const c of ['A', 'B'] as const) {
      user[c] = newCuid();
      await t.db.dataSource.query(`INSERT INTO "user" (user_cuid, email, password, name) VALUES ($1, $2, $3, $4)`, [user[c], email[c], hash, `Reset ${c}`]);
      await t.db.dataSource.query(`INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid) VALUES ($1, $2, $3, $4)`, [
        newCuid(),
        role[3],
        user[c],
        company[c],
      ]);
    }
    const before = smtp.messages.length;
    const link: Record<'A' | 'B', string> = { A: '', B: '' };
    for (const c of ['A', 'B'] as const) {
      expect((await newClient().json('POST', '/api/auth/forgot', { email: email[c] })).status).toBe(200);
      await accounts.settled();
      link[c] = resetLinkOf((await mailTo(email[c], before)).raw)!;
    }
    // The account's address changes (the user themselves, with their password).
    const owner = newClient();
    expect((await owner.login(email.B, 'first-password-1')).status).toBe(200);
    const moved = unique('reset-b-moved');
    expect((await owner.mutate('user.update', { id: user.B, data: { email: moved, current_password: 'first-password-1' } })).status).toBe(200);

    const junk = await junkAnswer();
    const old = await reset(tokenOf(link.B), 'taken-over-password-1');
    expect({ status: old.status, body: old.body }).toEqual(junk);
    const [row] = await t.db.dataSource.query(`SELECT password FROM "user" WHERE user_cuid = $1`, [user.B]);
    expect(row.password).toBe(hash);
    expect((await newClient().login(moved, 'taken-over-password-1')).status).toBe(401);
    expect((await newClient().login(moved, 'first-password-1')).status).toBe(200);

    const mark = smtp.messages.length;
    expect((await newClient().json('POST', '/api/auth/forgot', { email: moved })).status).toBe(200);
    await accounts.settled();
    const fresh = resetLinkOf((await mailTo(moved, mark)).raw)!;
    expect((await reset(tokenOf(fresh), 'new-owner-password-1')).status).toBe(200);
    expect((await newClient().login(moved, 'new-owner-password-1')).status).toBe(200);
    expect((await reset(tokenOf(link.A), 'company-a-reset-1')).status).toBe(200);
    expect((await newClient().login(email.A, 'company-a-reset-1')).status).toBe(200);
  });

  it('e-mail channel verification: the old link answers like a junk link and verifies nothing; the link mailed to the new address works', async () => {
    const member = { A: newClient(), B: newClient() };
    expect((await member.A.login('basic@demo.local')).status).toBe(200);
    expect((await member.B.login('other@demo.local')).status).toBe(200);
    const email = { A: unique('channel-a'), B: unique('channel-b') };
    const channel: Record<'A' | 'B', string> = { A: '', B: '' };
    const link: Record<'A' | 'B', string> = { A: '', B: '' };
    const before = smtp.messages.length;
    for (const c of ['A', 'B'] as const) {
      const r = await member[c].mutate('emailChannel.create', { company_cuid: company[c], email: email[c] });
      expect(r.status).toBe(200);
      channel[c] = r.data.channel.channel_cuid;
      link[c] = verifyLinkOf((await mailTo(email[c], before)).raw)!;
    }
    // No procedure changes a channel's address; whatever writes it (here an operator's SQL), the links die.
    const corrected = unique('channel-b-corrected');
    await t.db.dataSource.query(`UPDATE email_notification_channel SET email = $2 WHERE channel_cuid = $1`, [channel.B, corrected]);

    const junk = await newClient().request('GET', `/api/alerts/email/verify?token=${newCuid()}.${'x'.repeat(32)}`);
    const old = await newClient().request('GET', pathOf(link.B));
    expect({ status: old.status, text: old.text }).toEqual({ status: junk.status, text: junk.text });
    expect(junk.status).toBe(404);
    const details = await member.B.query('channelDetails.get', { channel_cuid: channel.B });
    expect(details.data.channel.status).toBe('PENDING');
    expect(details.data.email).toEqual({ email: corrected, verified_at: null });

    const mark = smtp.messages.length;
    expect((await member.B.mutate('emailChannel.resendVerification', { channel_cuid: channel.B })).status).toBe(200);
    const fresh = verifyLinkOf((await mailTo(corrected, mark)).raw)!;
    expect((await newClient().request('GET', pathOf(fresh))).status).toBe(200);
    expect((await member.B.query('channelDetails.get', { channel_cuid: channel.B })).data.channel.status).toBe('ACTIVE');
    expect((await newClient().request('GET', pathOf(link.A))).status).toBe(200);
    expect((await member.A.query('channelDetails.get', { channel_cuid: channel.A })).data.channel.status).toBe('ACTIVE');
  });
});
