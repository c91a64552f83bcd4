import { request } from 'node:http';
import { startTestApp, type TestApp } from '../factories/app';
import { upload } from '../factories/files';
import { HttpClient } from '../factories/http-client';
import { SmtpPeer } from '../factories/smtp-peer';
import { addMember } from '../factories/users';

/**
 * Hosted files and invitations through the public HTTP API, with two companies:
 * - bytes per company (FILES_COMPANY_MAX_BYTES, summed over hosted_file): company B's Expert
 *   uploads until B's files fill its limit; the next answers 413 saying the limit and what to do
 *   (English and French), stores nothing; company A still uploads; a deleted file makes room again;
 * - uploads per company an hour (FILES_UPLOADS_PER_COMPANY_PER_HOUR): past it 429 for B, A uploads;
 * - running uploads per user (FILES_UPLOADS_RUNNING_PER_USER): two uploads of B's Expert held open,
 *   a third of the same user answers 429 before its body is read; another user of B and A's Expert
 *   upload meanwhile; once the held ones finish, B's Expert uploads again;
 * - an invitation resent by an admin of both companies counts against the company the admin
 *   resends from only: B's company mail budget is spent, A's is untouched.
 */
const ONE = 4000;
const COMPANY_MAX = 10 * ONE;
const PER_HOUR = 12;
const MAILS_PER_COMPANY = 3;

let t: TestApp;
let smtp: SmtpPeer;
let companyA: string;
let companyB: string;
const role: Record<number, string> = {};
const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);
const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address.toLowerCase())).length;

async function login(email: string, headers: Record<string, string> = {}): Promise<HttpClient> {
  const c = new HttpClient(t.baseUrl, headers);
  expect((await c.login(email)).status).toBe(200);
  return c;
}
const text = (n: number, name = 'notes.txt') => ({ bytes: Buffer.alloc(n, 'x'), type: 'text/plain', name });
const bytesOf = async (company: string) =>
  Number((await q(`SELECT COALESCE(sum(size), 0)::bigint AS n FROM hosted_file WHERE company_cuid = $1`, [company]))[0].n);

/** An upload whose body stops half-way through the file until `finish` sends the rest. */
function heldUpload(client: HttpClient, company_cuid: string, size: number) {
  const u = new URL(t.baseUrl);
  const boundary = 'held-upload-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="company_cuid"\r\n\r\n${company_cuid}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const file = Buffer.alloc(size, 'y');
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let req!: ReturnType<typeof request>;
  const answer = new Promise<number>((resolve, reject) => {
    req = request(
      {
        hostname: u.hostname,
        port: u.port,
        path: '/api/files',
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + file.length + tail.length,
          cookie: client.cookieHeader(),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
  });
  req.write(Buffer.concat([head, file.subarray(0, size / 2)]));
  return { answer, finish: () => req.end(Buffer.concat([file.subarray(size / 2), tail])) };
}

beforeAll(async () => {
  smtp = await SmtpPeer.start();
  t = await startTestApp({
    FILES_MAX_BYTES: String(ONE + 100),
    FILES_COMPANY_MAX_BYTES: String(COMPANY_MAX),
    FILES_UPLOADS_PER_COMPANY_PER_HOUR: String(PER_HOUR),
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Portal <portal@portal.test>',
    PUBLIC_URL: 'http://portal.test',
    MAILS_PER_COMPANY_PER_HOUR: String(MAILS_PER_COMPANY),
    MAILS_PER_ADDRESS_PER_HOUR: '50',
    MAILS_PER_USER_PER_HOUR: '50',
  });
  [{ company_cuid: companyA }] = await q(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
  [{ company_cuid: companyB }] = await q(`SELECT company_cuid FROM company WHERE name = 'Other Energy Co'`);
  for (const r of await q<{ role_cuid: string; level: number }>(`SELECT role_cuid, level FROM role`)) role[r.level] = r.role_cuid;
  await addMember(t.db.dataSource, 'expert-b@files.test', 'Other Energy Co', 2);
  await addMember(t.db.dataSource, 'expert2-b@files.test', 'Other Energy Co', 2);
  // B's second Expert reads the portal in French (the language of HTTP error answers)
  await q(`UPDATE "user" SET meta = '{"preferences":{"language":"fr"}}'::jsonb WHERE email = 'expert2-b@files.test'`);
  await addMember(t.db.dataSource, 'installer-b@files.test', 'Other Energy Co', 1);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  // Each class starts with every budget full and no files of either company.
  await q(`DELETE FROM budget_use`);
  await q(`DELETE FROM hosted_file WHERE company_cuid = ANY($1::varchar[])`, [[companyA, companyB]]);
});

describe('hosted files per company', () => {
  it(`bytes: B's files fill ${COMPANY_MAX} bytes, the next upload answers 413 with the limit and what to do (French too) and stores nothing; A still uploads; a deleted file makes room`, async () => {
    const b = await login('expert-b@files.test');
    const bFrench = await login('expert2-b@files.test');
    const a = await login('expert@demo.local');
    const ids: string[] = [];
    for (let i = 0; i < COMPANY_MAX / ONE; i++) {
      const r = await upload(b, { company_cuid: companyB }, text(ONE, `b-${i}.txt`));
      expect(r.status).toBe(201);
      ids.push(r.body.data.id);
    }
    expect(await bytesOf(companyB)).toBe(COMPANY_MAX);

    const refused = await upload(b, { company_cuid: companyB }, text(ONE));
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(refused.body.message).toBe(
      "This company's files take 39.1 KiB of its 39.1 KiB limit and this file needs 3.9 KiB; delete files it no longer needs, or ask the operator for a larger limit",
    );
    const refusedFr = await upload(bFrench, { company_cuid: companyB }, text(10));
    expect(refusedFr.status).toBe(413);
    expect(refusedFr.body.message).toMatch(
      /^Les fichiers de cette entreprise occupent 39\.1 KiB de sa limite de 39\.1 KiB et ce fichier demande 0 KiB ; supprimez/,
    );
    expect(await bytesOf(companyB)).toBe(COMPANY_MAX);

    // company A in the same minute: not affected
    const fromA = await upload(a, { company_cuid: companyA }, text(ONE));
    expect(fromA.status).toBe(201);

    // what the message says to do: delete a file, then the upload goes through
    const installerB = await login('installer-b@files.test');
    expect((await installerB.mutate<any>('hostedFile.delete', { id: ids[0] })).error).toBeUndefined();
    expect((await upload(b, { company_cuid: companyB }, text(ONE))).status).toBe(201);
    expect(await bytesOf(companyB)).toBe(COMPANY_MAX);
  });

  it(`uploads an hour: past ${PER_HOUR} B's next upload answers 429 (French too); refused uploads spend nothing; A still uploads`, async () => {
    const b = await login('expert-b@files.test');
    const bFrench = await login('expert2-b@files.test');
    const a = await login('expert@demo.local');
    // refused for its type: spends nothing of the hour's uploads
    expect(
      (await upload(b, { company_cuid: companyB }, { bytes: Buffer.from('MZ\x90\x00binary'), type: 'application/x-msdownload', name: 'x.exe' })).status,
    ).toBe(415);
    for (let i = 0; i < PER_HOUR; i++) expect((await upload(b, { company_cuid: companyB }, text(10, `small-${i}.txt`))).status).toBe(201);
    const refused = await upload(b, { company_cuid: companyB }, text(10));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.body.message).toMatch(new RegExp(`^This company has uploaded ${PER_HOUR} files this hour, its limit; try again in \\d+ min$`));
    const refusedFr = await upload(bFrench, { company_cuid: companyB }, text(10));
    expect(refusedFr.status).toBe(429);
    expect(refusedFr.body.message).toMatch(
      new RegExp(`^Cette entreprise a téléversé ${PER_HOUR} fichiers cette heure-ci, sa limite ; réessayez dans \\d+ min$`),
    );
    expect((await q(`SELECT count(*)::int AS n FROM hosted_file WHERE company_cuid = $1`, [companyB]))[0].n).toBe(PER_HOUR);
    expect((await upload(a, { company_cuid: companyA }, text(10))).status).toBe(201);
  });

  it("running uploads: two of B's Expert held open, a third of the same user answers 429; B's other Expert and A upload meanwhile; once they finish B's Expert uploads again", async () => {
    const b = await login('expert-b@files.test');
    const b2 = await login('expert2-b@files.test');
    const a = await login('expert@demo.local');
    const held = [heldUpload(b, companyB, ONE), heldUpload(b, companyB, ONE)];
    // Until both hold their place, a third upload without an owner is refused for its fields (400,
    // nothing spent); once they do, it is refused before its body is read (429).
    let third = await upload(b, {}, text(10));
    for (let i = 0; i < 500 && third.status === 400; i++) third = await upload(b, {}, text(10));
    expect(third.status).toBe(429);
    expect(third.body.message).toBe('You already have 2 uploads running; wait for one to finish, then try again');
    expect((await upload(b2, { company_cuid: companyB }, text(10))).status).toBe(201);
    expect((await upload(a, { company_cuid: companyA }, text(10))).status).toBe(201);
    for (const h of held) h.finish();
    expect(await Promise.all(held.map((h) => h.answer))).toEqual([201, 201]);
    expect((await upload(b, { company_cuid: companyB }, text(10))).status).toBe(201);
  });
});

describe('invitation resend', () => {
  it("an admin of A and B resends from B: only B's company mail budget pays; A's admin still invites; a company that is not the user's is refused", async () => {
    const invited = `both-${Date.now()}@outside.test`;
    const adminA = await login('installer@demo.local');
    // a user of A (invited, no password yet), then also a member of B
    const created = await adminA.mutate<any>('user.create', {
      data: { email: invited, name: 'Both', company_cuid: companyA, role_cuid: role[3], password: '' },
    });
    expect(created.data.invitation.sent).toBe(true);
    const user_cuid = created.data.data.user_cuid;
    await q(`INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ($1, $2, $3, $4, false)`, [
      `mb${Date.now()}`,
      role[3],
      user_cuid,
      companyB,
    ]);
    // an admin of both companies (who may edit the user)
    const adminAB = await addMember(t.db.dataSource, 'admin-ab@files.test', 'Other Energy Co', 1, true);
    await q(`INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ($1, $2, $3, $4, true)`, [
      `mc${Date.now()}`,
      role[1],
      adminAB,
      companyA,
    ]);
    await q(`DELETE FROM budget_use`);
    const ab = await login('admin-ab@files.test');
    for (let i = 0; i < MAILS_PER_COMPANY; i++) {
      expect((await ab.mutate<any>('account.resendInvitation', { user_cuid, company_cuid: companyB })).data?.sent).toBe(true);
    }
    const spent = await ab.mutate<any>('account.resendInvitation', { user_cuid, company_cuid: companyB });
    expect(spent.status).toBe(429);
    expect(spent.error?.message).toMatch(/^This company has caused too many mails this hour/);

    // A's budget was not spent by B's resends: A's admin invites a new user of A
    const other = `a-only-${Date.now()}@outside.test`;
    const invitedA = await adminA.mutate<any>('user.create', {
      data: { email: other, name: 'A only', company_cuid: companyA, role_cuid: role[3], password: '' },
    });
    expect(invitedA.data.invitation.sent).toBe(true);
    expect(mailsTo(other)).toBe(1);
    expect(mailsTo(invited)).toBe(1 + MAILS_PER_COMPANY);

    // from a company that is not one of the user's (in French too): refused, nothing sent
    const refused = await ab.mutate<any>('account.resendInvitation', { user_cuid, company_cuid: 'not-a-company-of-theirs' });
    expect([refused.status, refused.error?.message]).toEqual([400, 'Resend the invitation from a company of this user where you are an admin (company_cuid).']);
    const abFrench = await login('admin-ab@files.test', { 'accept-language': 'fr' });
    const refusedFr = await abFrench.mutate<any>('account.resendInvitation', { user_cuid, company_cuid: 'not-a-company-of-theirs' });
    expect(refusedFr.error?.message).toBe("Renvoyez l'invitation depuis une entreprise de cet utilisateur dont vous êtes administrateur (company_cuid).");
    expect(mailsTo(invited)).toBe(1 + MAILS_PER_COMPANY);
  });
});
