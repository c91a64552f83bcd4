import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { verifyLinkOf } from '../factories/smtp-peer';

/** Without SMTP_URL (the embedded default) mails are .eml files under <DATA_DIR>/mail, and the link in them works. */
let t: TestApp;
let dir: string;
let basic: HttpClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portal-mail-'));
  t = await startTestApp({ DATA_DIR: dir });
  basic = new HttpClient(t.baseUrl);
  expect((await basic.login('basic@demo.local')).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

it('writes the verification mail as an .eml file whose link verifies the address', async () => {
  const [{ company_cuid }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
  const r = await basic.mutate('emailChannel.create', { company_cuid, email: 'files@example.test' });
  expect(r.status).toBe(200);
  expect(r.data.message).toContain('mail folder');
  const files = (await readdir(join(dir, 'mail'))).filter((f) => f.endsWith('.eml'));
  expect(files).toHaveLength(1);
  const raw = await readFile(join(dir, 'mail', files[0]), 'utf8');
  expect(raw).toMatch(/^To: files@example\.test$/m);
  const link = verifyLinkOf(raw)!;
  expect(link).toContain('/api/alerts/email/verify?token=');
  const u = new URL(link);
  expect((await basic.request('GET', u.pathname + u.search)).status).toBe(200);
  expect((await basic.query('channelDetails.get', { channel_cuid: r.data.channel.channel_cuid })).data.channel.status).toBe('ACTIVE');
  const sources = await basic.query('channelDetails.sources');
  expect(sources.data.email).toEqual({ configured: true, files: true });
});
