import { AccountsService } from '../../server/src/accounts/accounts.service';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { SmtpPeer } from '../factories/smtp-peer';
import { addMember } from '../factories/users';

/**
 * The class of mails the portal sends for a user's request (address verifications of alert
 * channels, invitations, password resets), through the public API against a real SMTP peer and
 * the shared budget in the database (budget_use): per user, per address and per company an hour.
 * Company A's users spend each budget and get a 429 with what to do (English and French); company
 * B's users in the same hour still send; the SMTP peer counts the mails that actually left. The
 * public reset flow answers the same whether or not an address has an account, spent or not.
 */
const PER_USER = 3;
const PER_ADDRESS = 2;
const PER_COMPANY = 5;

let t: TestApp;
let smtp: SmtpPeer;
let accounts: AccountsService;
let companyA: string;
let companyB: string;
const role: Record<number, string> = {};
let seq = 0;
const fresh = (what: string) => `${what}-${++seq}-${Date.now()}@outside.test`;
const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address.toLowerCase())).length;

async function login(email: string, headers: Record<string, string> = {}): Promise<HttpClient> {
  const c = new HttpClient(t.baseUrl, headers);
  expect((await c.login(email)).status).toBe(200);
  return c;
}
const verify = (c: HttpClient, company_cuid: string, email: string) => c.mutate<any>('emailChannel.create', { company_cuid, email });
const forgot = (email: string) => new HttpClient(t.baseUrl).json('POST', '/api/auth/forgot', { email });

beforeAll(async () => {
  smtp = await SmtpPeer.start();
  t = await startTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Portal <portal@portal.test>',
    PUBLIC_URL: 'http://portal.test',
    MAILS_PER_USER_PER_HOUR: String(PER_USER),
    MAILS_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS),
    MAILS_PER_COMPANY_PER_HOUR: String(PER_COMPANY),
    // the reset flow's own request brake stays out of the way: its mails meet the mail budget first
    RESET_REQUESTS_PER_HOUR: '10',
  });
  accounts = t.app.get(AccountsService);
  [{ company_cuid: companyA }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
  [{ company_cuid: companyB }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Other Energy Co'`);
  for (const r of await t.db.dataSource.query<{ role_cuid: string; level: number }[]>(`SELECT role_cuid, level FROM role`)) role[r.level] = r.role_cuid;
  await addMember(t.db.dataSource, 'admin-b@budgets.test', 'Other Energy Co', 1, true);
  await addMember(t.db.dataSource, 'second-a@budgets.test', 'Demo Solar Ltd', 3);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  // Each class starts with every budget full (one hour of nothing).
  await t.db.dataSource.query(`DELETE FROM budget_use`);
  await t.db.dataSource.query(`DELETE FROM account_request`);
});

describe('mail budgets (verification, invitation and reset mails)', () => {
  it('per address: every writer to one address (create, resend, invitation, reset) shares its budget; past it 429 (French too) and no mail; company B to another address is unaffected', async () => {
    const a = await login('basic@demo.local');
    const aFrench = await login('expert@demo.local', { 'accept-language': 'fr' });
    const victim = fresh('victim');
    const first = await verify(a, companyA, victim);
    expect(first.error).toBeUndefined();
    const resent = await a.mutate<any>('emailChannel.resendVerification', { channel_cuid: first.data.channel.channel_cuid });
    expect(resent.error).toBeUndefined();
    expect(mailsTo(victim)).toBe(PER_ADDRESS);

    const refused = await verify(aFrench, companyA, victim);
    expect(refused.status).toBe(429);
    expect(refused.error?.data.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.error?.message).toMatch(/^Trop d'e-mails sont partis vers cette adresse cette heure-ci ; réessayez dans \d+ min$/);
    const resendRefused = await a.mutate<any>('emailChannel.resendVerification', { channel_cuid: first.data.channel.channel_cuid });
    expect(resendRefused.status).toBe(429);
    expect(resendRefused.error?.message).toMatch(/^Too many mails went to this address this hour; try again in \d+ min$/);
    // the refused create made no channel
    expect(await t.db.dataSource.query(`SELECT 1 FROM email_notification_channel WHERE email = $1`, [victim])).toHaveLength(1);

    // an invitation to the spent address: the admin gets the same 429 on a resend
    const installer = await login('installer@demo.local');
    const invited = fresh('invited');
    const created = await installer.mutate<any>('user.create', {
      data: { email: invited, name: 'Invited', company_cuid: companyA, role_cuid: role[3], password: '' },
    });
    expect(created.data.invitation.sent).toBe(true);
    expect((await installer.mutate<any>('account.resendInvitation', { user_cuid: created.data.data.user_cuid })).data?.sent).toBe(true);
    const third = await installer.mutate<any>('account.resendInvitation', { user_cuid: created.data.data.user_cuid });
    expect(third.status).toBe(429);
    expect(third.error?.message).toMatch(/^Too many mails went to this address this hour/);
    expect(mailsTo(invited)).toBe(PER_ADDRESS);

    // company B's user, same hour, another address: sent
    const b = await login('other@demo.local');
    const bAddress = fresh('b-night-shift');
    expect((await verify(b, companyB, bAddress)).error).toBeUndefined();
    expect(mailsTo(bAddress)).toBe(1);
    expect(mailsTo(victim)).toBe(PER_ADDRESS);
  });

  it('per address in the public reset flow: it counts its own address budget; a spent address (with an account) and an unknown one get the same answer and no mail; an unspent account still gets its mail', async () => {
    const holder = fresh('holder');
    const spentUnknown = fresh('nobody');
    const control = fresh('control');
    await addMember(t.db.dataSource, holder, 'Demo Solar Ltd', 3);
    await addMember(t.db.dataSource, control, 'Demo Solar Ltd', 3);
    // the public flow spends the addresses' budget itself (a plus-tagged, upper-case variant counts as the same address)
    for (const address of [holder, holder]) expect((await forgot(address)).status).toBe(200);
    for (const address of [spentUnknown, spentUnknown.toUpperCase().replace('@', '+x@')]) expect((await forgot(address)).status).toBe(200);
    await accounts.settled();
    expect(mailsTo(holder)).toBe(PER_ADDRESS);
    const before = { holder: mailsTo(holder), unknown: mailsTo(spentUnknown) };
    const answers = [await forgot(holder), await forgot(spentUnknown), await forgot(control), await forgot(fresh('unknown-unspent'))];
    await accounts.settled();
    for (const r of answers) expect([r.status, r.text]).toEqual([200, answers[0].text]);
    expect(mailsTo(holder)).toBe(before.holder);
    expect(mailsTo(spentUnknown)).toBe(before.unknown);
    expect(mailsTo(control)).toBe(1);
  });

  it("per (company, address): company A spends its budget for a company B user's address (plus-tags and case count as the same address) and gets 429; B's invitation to its address and the user's own password reset still send", async () => {
    const a = await login('basic@demo.local');
    const second = await login('second-a@budgets.test');
    const adminB = await login('admin-b@budgets.test');
    const bUser = fresh('b-user');
    await addMember(t.db.dataSource, bUser, 'Other Energy Co', 3);
    const plus = (address: string, tag: string) => address.replace('@', `+${tag}@`);

    // company A: the address, then a plus-tagged variant, then a third (upper case, another tag): 429, no mail
    expect((await verify(a, companyA, bUser)).error).toBeUndefined();
    expect((await verify(a, companyA, plus(bUser, '1'))).error).toBeUndefined();
    const over = await verify(a, companyA, ` ${plus(bUser, '2').toUpperCase()}`);
    expect(over.status).toBe(429);
    expect(over.error?.message).toMatch(/^Too many mails went to this address this hour; try again in \d+ min$/);
    expect([mailsTo(bUser), mailsTo(plus(bUser, '1')), mailsTo(plus(bUser, '2'))]).toEqual([1, 1, 0]);

    // the B user's own password reset still sends (the public flow's budget is its own)
    expect((await forgot(bUser)).status).toBe(200);
    await accounts.settled();
    expect(mailsTo(bUser)).toBe(2);

    // company A spends its budget for an address company B is about to invite: B's invitation still sends
    const invitee = fresh('invitee-b');
    for (const address of [invitee, plus(invitee, 'a')]) expect((await verify(second, companyA, address)).error).toBeUndefined();
    expect((await verify(second, companyA, plus(invitee, 'b'))).status).toBe(429);
    const created = await adminB.mutate<any>('user.create', {
      data: { email: invitee, name: 'Invitee B', company_cuid: companyB, role_cuid: role[3], password: '' },
    });
    expect(created.data.invitation.sent).toBe(true);
    expect(mailsTo(invitee)).toBe(2);
  });

  it(`per user: past ${PER_USER} mails an hour the user gets 429; another user of company A and company B's user still send`, async () => {
    const a = await login('basic@demo.local');
    for (let i = 0; i < PER_USER; i++) expect((await verify(a, companyA, fresh('user-budget'))).error).toBeUndefined();
    const over = fresh('user-over');
    const refused = await verify(a, companyA, over);
    expect(refused.status).toBe(429);
    expect(refused.error?.message).toMatch(/^You have caused too many mails this hour; try again in \d+ min$/);
    expect(mailsTo(over)).toBe(0);
    const second = await login('second-a@budgets.test');
    const bySecond = fresh('second-a');
    expect((await verify(second, companyA, bySecond)).error).toBeUndefined();
    const b = await login('other@demo.local');
    const byB = fresh('by-b');
    expect((await verify(b, companyB, byB)).error).toBeUndefined();
    expect([mailsTo(bySecond), mailsTo(byB)]).toEqual([1, 1]);
  });

  it(`per company: past ${PER_COMPANY} mails an hour every user of company A gets 429 (verification, invitation, its re-send); company B's users still send`, async () => {
    const a = await login('basic@demo.local');
    const second = await login('second-a@budgets.test');
    const installer = await login('installer@demo.local');
    for (let i = 0; i < PER_USER; i++) expect((await verify(a, companyA, fresh('company-a'))).error).toBeUndefined();
    for (let i = PER_USER; i < PER_COMPANY; i++) expect((await verify(second, companyA, fresh('company-a2'))).error).toBeUndefined();

    const refused = await verify(second, companyA, fresh('company-over'));
    expect(refused.status).toBe(429);
    expect(refused.error?.message).toMatch(/^This company has caused too many mails this hour; try again in \d+ min$/);
    // an invitation into company A: the user is created, the mail is not sent and the answer says why
    const invited = fresh('invited-a');
    const created = await installer.mutate<any>('user.create', {
      data: { email: invited, name: 'Invited', company_cuid: companyA, role_cuid: role[3], password: '' },
    });
    expect(created.status).toBe(200);
    expect(created.data.invitation).toEqual({ sent: false, message: expect.stringMatching(/^This company has caused too many mails this hour/) });
    const resend = await installer.mutate<any>('account.resendInvitation', { user_cuid: created.data.data.user_cuid });
    expect(resend.status).toBe(429);
    expect(mailsTo(invited)).toBe(0);

    // company B: a verification and an invitation go out
    const b = await login('other@demo.local');
    const adminB = await login('admin-b@budgets.test');
    const byB = fresh('company-b');
    expect((await verify(b, companyB, byB)).error).toBeUndefined();
    const invitedB = fresh('invited-b');
    const createdB = await adminB.mutate<any>('user.create', {
      data: { email: invitedB, name: 'Invited B', company_cuid: companyB, role_cuid: role[3], password: '' },
    });
    expect(createdB.data.invitation.sent).toBe(true);
    expect([mailsTo(byB), mailsTo(invitedB)]).toEqual([1, 1]);
  });

  it('the refusals are counted in portal_budget_refusals_total by budget', async () => {
    const body = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const count = (budget: string) =>
      Number(
        body
          .split('\n')
          .find((l) => l.startsWith('portal_budget_refusals_total{') && l.includes(`budget="${budget}"`))
          ?.split(' ')
          .pop(),
      );
    expect(count('mail.address')).toBeGreaterThanOrEqual(5);
    expect(count('mail.user')).toBeGreaterThanOrEqual(1);
    expect(count('mail.company')).toBeGreaterThanOrEqual(2);
    expect(count('command.controller')).toBe(0);
  });
});
