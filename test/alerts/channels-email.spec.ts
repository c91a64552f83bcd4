import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { mailHeader, SmtpPeer, verifyLinkOf, decodeMail } from '../factories/smtp-peer';
import { CHANNEL_SENDERS, type ChannelSender, type OutgoingAlert } from '../../server/src/alerts/delivery/channel-sender';

/**
 * EMAIL channels against a real SMTP server (smtp-server on a local port) and real PostgreSQL:
 * the verification flow end to end, the alert mail, SMTP refusals, the channel ↔ trigger links,
 * and a foreign company's member meeting NOT_FOUND on every channel procedure.
 */
let t: TestApp;
let smtp: SmtpPeer;
let basic: HttpClient;
let other: HttpClient;
let superuser: HttpClient;
let company_cuid: string;
let other_company_cuid: string;

const alert = (over: Partial<OutgoingAlert> = {}): OutgoingAlert => ({
  event_cuid: 'ev1',
  trigger_cuid: 'tr1',
  system_cuid: 'sys1',
  system_name: 'Kisumu <Clinic>',
  severity: 'CRITICAL',
  state: 'TRIGGERED',
  text: 'Battery low: 11.2 V',
  html: 'Battery low: 11.2 V &lt;b&gt;',
  markdown: 'Battery low: 11\\.2 V',
  time: '2026-11-24T02:13:05.000Z',
  link: 'http://portal.test/#/system/sys1/show/alarms',
  ...over,
});

beforeAll(async () => {
  smtp = await SmtpPeer.start();
  t = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Portal <alerts@portal.test>', PUBLIC_URL: 'http://portal.test' });
  basic = new HttpClient(t.baseUrl);
  other = new HttpClient(t.baseUrl);
  superuser = new HttpClient(t.baseUrl);
  expect((await basic.login('basic@demo.local')).status).toBe(200);
  expect((await other.login('other@demo.local')).status).toBe(200);
  expect((await superuser.login('superuser@demo.local')).status).toBe(200);
  [{ company_cuid }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
  [{ company_cuid: other_company_cuid }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Other Energy Co'`);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** The link's path and query, called on the test app (the mail names PUBLIC_URL). */
const pathOf = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

describe('EMAIL channel', () => {
  let channel_cuid: string;
  let link: string;

  it('creates a PENDING channel and mails a verification link', async () => {
    const before = smtp.messages.length;
    const r = await basic.mutate('emailChannel.create', { company_cuid, email: 'Night.Shift@Example.test' });
    expect(r.status).toBe(200);
    channel_cuid = r.data.channel.channel_cuid;
    expect(r.data.channel).toMatchObject({ source: 'EMAIL', status: 'PENDING', company_cuid });
    expect(r.data.email).toEqual({ email: 'night.shift@example.test', verified_at: null });
    const mail = await smtp.waitFor(before + 1);
    expect(mail.to).toEqual(['night.shift@example.test']);
    expect(mail.from).toBe('alerts@portal.test');
    link = verifyLinkOf(mail.raw)!;
    expect(link).toMatch(/^http:\/\/portal\.test\/api\/alerts\/email\/verify\?token=/);
    // only a hash of the link's secret is stored
    const secret = new URL(link).searchParams.get('token')!.split('.')[1];
    const rows = await t.db.dataSource.query(`SELECT data::text AS data FROM url_request WHERE data->>'channel_cuid' = $1`, [channel_cuid]);
    expect(rows).toHaveLength(1);
    expect(rows[0].data).not.toContain(secret);
  });

  it('the answers a toast shows (mail sent, test refused) are in the caller’s language', async () => {
    const fr = new HttpClient(t.baseUrl, { 'accept-language': 'fr' });
    expect((await fr.login('basic@demo.local')).status).toBe(200);
    const before = smtp.messages.length;
    const made = await fr.mutate('emailChannel.create', { company_cuid, email: 'equipe.nuit@example.test' });
    expect(made.status).toBe(200);
    expect(made.data.message).toBe('E-mail de vérification envoyé à equipe.nuit@example.test');
    await smtp.waitFor(before + 1);
    const test = await fr.mutate('channelDetails.sendTest', { channel_cuid: made.data.channel.channel_cuid });
    expect(test.data).toEqual({ ok: false, message: "Pas de message de test : son adresse n'est pas encore vérifiée" });
    // English callers get the English text, as before.
    const en = await basic.mutate('channelDetails.sendTest', { channel_cuid: made.data.channel.channel_cuid });
    expect(en.data).toEqual({ ok: false, message: 'No test message: its address is not verified yet' });
  });

  it('a test message is refused while the address is not verified', async () => {
    const r = await basic.mutate('channelDetails.sendTest', { channel_cuid });
    expect(r.data).toEqual({ ok: false, message: expect.stringContaining('not verified') });
  });

  it('the link verifies the address once (ACTIVE); a second visit is refused', async () => {
    const first = await basic.request('GET', pathOf(link));
    expect(first.status).toBe(200);
    expect(first.text).toContain('night.shift@example.test');
    const d = await basic.query('channelDetails.get', { channel_cuid });
    expect(d.data.channel.status).toBe('ACTIVE');
    expect(d.data.email.verified_at).toBeInstanceOf(Date);
    const again = await basic.request('GET', pathOf(link));
    expect(again.status).toBe(404);
    expect(again.text).toContain('not valid');
    expect((await basic.mutate('emailChannel.resendVerification', { channel_cuid })).error?.data.code).toBe('BAD_REQUEST');
  });

  it('a tampered or malformed token is refused', async () => {
    for (const token of ['x', `${new URL(link).searchParams.get('token')!.split('.')[0]}.AAAAAAAAAAAAAAAAAAAAAAAA`, '']) {
      const r = await basic.request('GET', `/api/alerts/email/verify?token=${encodeURIComponent(token)}`);
      expect(r.status).toBe(404);
    }
  });

  it('an expired link shows a clear page and leaves the channel PENDING; resend sends a new link and the old one dies', async () => {
    const r = await basic.mutate('emailChannel.create', { company_cuid, email: 'late@example.test' });
    const id = r.data.channel.channel_cuid;
    const first = verifyLinkOf((await smtp.waitFor(smtp.messages.length)).raw)!;
    await t.db.dataSource.query(`UPDATE url_request SET expires_at = now() - interval '1 minute' WHERE data->>'channel_cuid' = $1`, [id]);
    const expired = await basic.request('GET', pathOf(first));
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');
    expect((await basic.query('channelDetails.get', { channel_cuid: id })).data.channel.status).toBe('PENDING');

    const count = smtp.messages.length;
    const resent = await basic.mutate('emailChannel.resendVerification', { channel_cuid: id });
    expect(resent.status).toBe(200);
    const second = verifyLinkOf((await smtp.waitFor(count + 1)).raw)!;
    expect(second).not.toBe(first);
    // a third link replaces the second
    await basic.mutate('emailChannel.resendVerification', { channel_cuid: id });
    const third = verifyLinkOf((await smtp.waitFor(count + 2)).raw)!;
    expect((await basic.request('GET', pathOf(second))).status).toBe(404);
    expect((await basic.request('GET', pathOf(third))).status).toBe(200);
    expect((await basic.query('channelDetails.get', { channel_cuid: id })).data.channel.status).toBe('ACTIVE');
  });

  it('a test message reaches the verified address', async () => {
    const count = smtp.messages.length;
    const r = await basic.mutate('channelDetails.sendTest', { channel_cuid });
    expect(r.data).toEqual({ ok: true, message: 'Test message sent' });
    const mail = await smtp.waitFor(count + 1);
    expect(mail.to).toEqual(['night.shift@example.test']);
    expect(decodeMail(mail.raw)).toContain('Test message: alerts of Demo Solar Ltd will arrive here.');
  });

  it('the sender mails an alert as HTML and text, subject with severity and system, link to the alarm tab', async () => {
    const sender = t.app.get<ChannelSender[]>(CHANNEL_SENDERS, { strict: false }).find((s) => s.source === 'EMAIL')!;
    const count = smtp.messages.length;
    expect(await sender.send({ channel_cuid, company_cuid, source: 'EMAIL' }, [alert()])).toEqual({ ok: true });
    const mail = await smtp.waitFor(count + 1);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    const subject = mailHeader(mail.raw, 'subject')!;
    expect(subject).toContain('CRITICAL');
    expect(subject).toContain('Kisumu <Clinic>');
    const body = decodeMail(mail.raw);
    expect(body).toContain('Kisumu &lt;Clinic&gt;');
    expect(body).not.toContain('<Clinic>"');
    expect(body).toContain('http://portal.test/#/system/sys1/show/alarms');
    expect(body).toContain('text/plain');
    expect(body).toContain('text/html');
  });

  it('a group of alerts is one mail listing them all', async () => {
    const sender = t.app.get<ChannelSender[]>(CHANNEL_SENDERS, { strict: false }).find((s) => s.source === 'EMAIL')!;
    const count = smtp.messages.length;
    const alerts = [1, 2, 3].map((i) =>
      alert({ event_cuid: `e${i}`, system_name: `Site ${i}`, text: `Controller offline ${i}`, html: `Controller offline ${i}` }),
    );
    expect(await sender.send({ channel_cuid, company_cuid, source: 'EMAIL' }, alerts)).toEqual({ ok: true });
    const mail = await smtp.waitFor(count + 1);
    expect(smtp.messages).toHaveLength(count + 1);
    expect(mailHeader(mail.raw, 'subject')).toContain('3 alerts on 3 systems');
    const body = decodeMail(mail.raw);
    for (const i of [1, 2, 3]) expect(body).toContain(`Controller offline ${i}`);
  });

  it('SMTP 4xx asks for a retry, 5xx is permanent', async () => {
    const sender = t.app.get<ChannelSender[]>(CHANNEL_SENDERS, { strict: false }).find((s) => s.source === 'EMAIL')!;
    smtp.refuseNext(451);
    const deferred = await sender.send({ channel_cuid, company_cuid, source: 'EMAIL' }, [alert()]);
    expect(deferred).toMatchObject({ ok: false, retryAfterMs: expect.any(Number) });
    smtp.refuseNext(550);
    const refused = await sender.send({ channel_cuid, company_cuid, source: 'EMAIL' }, [alert()]);
    expect(refused).toMatchObject({ ok: false, permanent: true });
  });

  it('Telegram is reported as not configured (no bot token), with a clear error', async () => {
    const sources = await basic.query('channelDetails.sources');
    expect(sources.data.telegram).toEqual({ configured: false, bot_username: null });
    const r = await basic.mutate('telegramChannel.create', { company_cuid });
    expect(r.status).toBe(400);
    // Said in the user's words: who can fix it, and no setting name they cannot act on.
    expect(r.error?.message).toContain('Telegram is not set up on this portal yet');
    expect(r.error?.message).not.toContain('TELEGRAM_BOT_TOKEN');
  });

  it('notificationChannel.create is refused: a channel is made with its details', async () => {
    const r = await basic.mutate('notificationChannel.create', { data: { source: 'EMAIL', company_cuid } });
    expect(r.status).toBe(400);
    expect(r.error?.message).toContain('emailChannel.create');
  });

  it('notificationChannel.update cannot activate an unverified channel', async () => {
    const r = await basic.mutate('emailChannel.create', { company_cuid, email: 'never@example.test' });
    const id = r.data.channel.channel_cuid;
    const up = await basic.mutate('notificationChannel.update', { id, data: { status: 'ACTIVE' } });
    expect(up.status).toBe(400);
    expect((await basic.query('channelDetails.get', { channel_cuid: id })).data.channel.status).toBe('PENDING');
  });

  describe('channel ↔ trigger links', () => {
    let trigger_cuid: string;
    let foreign_trigger: string;
    beforeAll(async () => {
      const [{ system_cuid }] = await t.db.dataSource.query(`SELECT system_cuid FROM system WHERE company_cuid = $1 ORDER BY name LIMIT 1`, [company_cuid]);
      const made = await superuser.mutate('notificationTrigger.create', {
        data: { name: 'Battery low', message: 'Battery {value}', system_cuid, args: { kind: 'offline' } },
      });
      trigger_cuid = made.data.data.id;
      // a system of the other company that is not shared with the demo company
      const sys = await superuser.mutate('system.create', { data: { company_cuid: other_company_cuid, name: 'Foreign plant' } });
      expect(sys.status).toBe(200);
      const foreign_system = sys.data.data.id;
      foreign_trigger = (
        await superuser.mutate('notificationTrigger.create', {
          data: { name: 'Foreign', message: 'x', system_cuid: foreign_system, args: { kind: 'offline' } },
        })
      ).data.data.id;
    });

    it('lists the triggers the channel could serve, and switches one on and off', async () => {
      const before = await basic.query('channelLink.list', { channel_cuid });
      expect(before.data.items.find((i: { trigger_cuid: string }) => i.trigger_cuid === trigger_cuid)).toMatchObject({
        enabled: false,
        trigger_name: 'Battery low',
      });
      expect(before.data.items.some((i: { trigger_cuid: string }) => i.trigger_cuid === foreign_trigger)).toBe(false);
      const on = await basic.mutate('channelLink.set', { channel_cuid, trigger_cuid, enabled: true });
      expect(on.data).toMatchObject({ channel_cuid, trigger_cuid, enabled: true, label: 'night.shift@example.test' });
      const byTrigger = await basic.query('channelLink.list', { trigger_cuid });
      expect(byTrigger.data.items.find((i: { channel_cuid: string }) => i.channel_cuid === channel_cuid)).toMatchObject({ enabled: true });
      expect((await basic.mutate('channelLink.set', { channel_cuid, trigger_cuid, enabled: false })).data.enabled).toBe(false);
      const [row] = await t.db.dataSource.query(`SELECT enabled FROM notification_channel_to_trigger WHERE channel_cuid = $1 AND trigger_cuid = $2`, [
        channel_cuid,
        trigger_cuid,
      ]);
      expect(row.enabled).toBe(false);
    });

    it('a trigger of a system the channel company does not see is NOT_FOUND', async () => {
      expect((await basic.mutate('channelLink.set', { channel_cuid, trigger_cuid: foreign_trigger, enabled: true })).error?.data.code).toBe('NOT_FOUND');
      expect((await basic.query('channelLink.list', { trigger_cuid: foreign_trigger })).error?.data.code).toBe('NOT_FOUND');
    });

    it("a foreign company's member gets NOT_FOUND on every channel procedure", async () => {
      const calls: [string, 'query' | 'mutate', unknown][] = [
        ['emailChannel.create', 'mutate', { company_cuid, email: 'intruder@example.test' }],
        ['emailChannel.resendVerification', 'mutate', { channel_cuid }],
        ['telegramChannel.create', 'mutate', { company_cuid }],
        ['discordChannel.create', 'mutate', { company_cuid, name: 'x', webhook: 'https://discord.com/api/webhooks/1/abc' }],
        ['channelDetails.get', 'query', { channel_cuid }],
        ['channelDetails.sendTest', 'mutate', { channel_cuid }],
        ['channelLink.list', 'query', { channel_cuid }],
        ['channelLink.list', 'query', { trigger_cuid }],
        ['channelLink.set', 'mutate', { channel_cuid, trigger_cuid, enabled: true }],
        ['notificationChannel.getOne', 'query', { id: channel_cuid }],
        ['notificationChannel.update', 'mutate', { id: channel_cuid, data: { status: 'DISABLED' } }],
        ['notificationChannel.delete', 'mutate', { id: channel_cuid }],
      ];
      const mails = smtp.messages.length;
      for (const [path, kind, input] of calls) {
        const r = kind === 'query' ? await other.query(path, input) : await other.mutate(path, input);
        expect([path, r.status, r.error?.data.code]).toEqual([path, 404, 'NOT_FOUND']);
        expect(r.text).not.toContain('night.shift');
      }
      // the same answers as for ids that do not exist
      expect((await other.query('channelDetails.get', { channel_cuid: 'nosuchchannel' })).error?.data.code).toBe('NOT_FOUND');
      expect(smtp.messages.length).toBe(mails);
      expect((await basic.query('channelDetails.get', { channel_cuid })).data.channel.status).toBe('ACTIVE');
    });
  });
});
