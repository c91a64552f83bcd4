import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../factories/app';
import { DiscordPeer } from '../factories/discord-peer';
import { HttpClient } from '../factories/http-client';
import { CHANNEL_SENDERS, type ChannelSender, type OutgoingAlert } from '../../server/src/alerts/delivery/channel-sender';
import { renderMessage } from '../../server/src/alerts/render';

/**
 * DISCORD channels against a local peer speaking the webhook API, on PostgreSQL: the allow list
 * (no request ever to another host), the test message before saving, the webhook's secret path
 * never answered, escaped content without mentions, the bucket headers and 429 retry_after.
 */
let t: TestApp;
let peer: DiscordPeer;
/** A server off the allow list: it must never be called. */
let bystander: Server;
let bystanderHits = 0;
let bystanderPort = 0;
let downPort = 0;
let basic: HttpClient;
let company_cuid: string;
const answers: string[] = [];

const alert = (i: number, over: Partial<OutgoingAlert> = {}): OutgoingAlert => ({
  event_cuid: `ev${i}`,
  trigger_cuid: 'tr1',
  system_cuid: 'sys1',
  system_name: `Site_${i}`,
  severity: 'ERROR',
  state: 'TRIGGERED',
  text: `Inverter fault ${i}`,
  html: `Inverter fault ${i}`,
  markdown: `Inverter fault ${i}`,
  time: '2026-11-24T02:13:05.000Z',
  link: 'http://portal.test/#/system/sys1/show/alarms',
  ...over,
});
const sender = () => t.app.get<ChannelSender[]>(CHANNEL_SENDERS, { strict: false }).find((s) => s.source === 'DISCORD')!;
const count = async () => Number((await t.db.dataSource.query(`SELECT count(*)::int AS n FROM notification_channel WHERE source = 'DISCORD'`))[0].n);

beforeAll(async () => {
  peer = await DiscordPeer.start();
  bystander = createServer((_req, res) => {
    bystanderHits++;
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => bystander.listen(0, '127.0.0.1', () => r()));
  bystanderPort = (bystander.address() as AddressInfo).port;
  // a listed host nobody listens on (a port just freed)
  const down = await DiscordPeer.start();
  downPort = down.port;
  await down.close();
  t = await startTestApp({ DISCORD_WEBHOOK_HOSTS: `discord.com,${peer.host},127.0.0.1:${downPort}` });
  basic = new HttpClient(t.baseUrl);
  expect((await basic.login('basic@demo.local')).status).toBe(200);
  [{ company_cuid }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
  bystander?.closeAllConnections();
  await new Promise((r) => bystander?.close(r));
});

describe('DISCORD channel', () => {
  let channel_cuid: string;
  let webhook: string;

  it('refuses URLs off the allow list, without any request', async () => {
    const before = await count();
    const refused = [
      `http://127.0.0.1:${bystanderPort}/api/webhooks/123/abc`,
      `https://evil.example/api/webhooks/123/abc`,
      `https://discord.com.evil.example/api/webhooks/123/abc`,
      `http://discord.com/api/webhooks/123/abc`,
      `http://${peer.host}/not/a/webhook`,
      `http://user:pw@${peer.host}/api/webhooks/123/abc`,
      `http://${peer.host}/api/webhooks/123/abc?redirect=http://127.0.0.1:${bystanderPort}/`,
      'not a url',
    ];
    for (const url of refused) {
      const r = await basic.mutate('discordChannel.create', { company_cuid, name: 'Ops', webhook: url });
      expect([url, r.status, r.error?.data.code]).toEqual([url, 400, 'BAD_REQUEST']);
      answers.push(r.text);
    }
    expect(bystanderHits).toBe(0);
    expect(peer.requests).toBe(0);
    expect(await count()).toBe(before);
  });

  it('a webhook that does not exist (404) is refused with a clear message, nothing saved', async () => {
    const before = await count();
    const gone = `http://${peer.host}/api/webhooks/999/deletedTOKENsecret`;
    const r = await basic.mutate('discordChannel.create', { company_cuid, name: 'Ops', webhook: gone });
    answers.push(r.text);
    expect(r.status).toBe(400);
    expect(r.error?.message).toContain('did not take a test message');
    expect(r.text).not.toContain('deletedTOKENsecret');
    expect(peer.requests).toBe(1);
    expect(await count()).toBe(before);
  });

  it('an allowed host that does not answer is refused with a clear message, nothing saved', async () => {
    const before = await count();
    const r = await basic.mutate('discordChannel.create', { company_cuid, name: 'Ops', webhook: `http://127.0.0.1:${downPort}/api/webhooks/1/abcSECRET` });
    expect(r.status).toBe(400);
    expect(r.error?.message).toContain('could not be reached');
    expect(r.text).not.toContain('abcSECRET');
    expect(await count()).toBe(before);
  });

  it('a working webhook takes a test message, then the channel is saved ACTIVE; its secret path is never answered', async () => {
    webhook = peer.webhook();
    const secret = new URL(webhook).pathname.split('/').at(-1)!;
    const r = await basic.mutate('discordChannel.create', { company_cuid, name: 'Ops room', webhook });
    answers.push(r.text);
    expect(r.status).toBe(200);
    channel_cuid = r.data.channel.channel_cuid;
    expect(r.data.channel.status).toBe('ACTIVE');
    expect(r.data.discord).toMatchObject({ name: 'Ops room', host: peer.host });
    expect(peer.posts.at(-1)!.body).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(peer.posts.at(-1)!.body.content).toContain('Demo Solar Ltd');
    const d = await basic.query('channelDetails.get', { channel_cuid });
    answers.push(d.text);
    const list = await basic.query('notificationChannel.getOne', { id: channel_cuid });
    answers.push(list.text);
    for (const a of answers) expect(a).not.toContain(secret);
  });

  it('sends escaped markdown with no mentions', async () => {
    const value = {
      value: 11.2,
      threshold: 11.5,
      parameter: 'battery_v',
      unit: 'V',
      device: 'BMS',
      system: 'Site **1**',
      time: '2026-11-24T02:13:05.000Z',
      timezone: 'UTC',
    };
    const markdown = renderMessage('@everyone {device} says **{value}** [x](http://e.vil)', value as never, 'markdown');
    const n = peer.posts.length;
    await new Promise((r) => setTimeout(r, 100));
    const r = await sender().send({ channel_cuid, company_cuid, source: 'DISCORD' }, [alert(1, { markdown, system_name: 'Site **1**' })]);
    expect(r).toEqual({ ok: true });
    const body = peer.posts[n].body;
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content).not.toContain('@everyone');
    expect(body.content).toContain('\\*\\*11.2\\*\\*');
    expect(body.content).toContain('Site \\*\\*1\\*\\*');
    expect(body.content).not.toContain('[x](http');
  });

  it('honours the webhook bucket (X-RateLimit-Remaining / Reset-After): no request into an empty bucket', async () => {
    peer.bucket = { size: 3, remaining: 3, resetAfter: 5, windowStart: 0 };
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await sender().send({ channel_cuid, company_cuid, source: 'DISCORD' }, [alert(i)]));
    expect(results.slice(0, 3)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    for (const r of results.slice(3)) expect(r).toMatchObject({ ok: false, retryAfterMs: expect.any(Number) });
    expect(peer.overruns).toBe(0);
    peer.bucket = { size: 50, remaining: 50, resetAfter: 0.001, windowStart: 0 };
  });

  it('429 with retry_after (body seconds) is answered as retryAfterMs', async () => {
    // a fresh channel: its own bucket
    const hook = peer.webhook();
    const made = await basic.mutate('discordChannel.create', { company_cuid, name: 'Second', webhook: hook });
    const id = made.data.channel.channel_cuid;
    peer.rateLimitNext(2.5);
    const r = await sender().send({ channel_cuid: id, company_cuid, source: 'DISCORD' }, [alert(1)]);
    expect(r).toMatchObject({ ok: false, retryAfterMs: 2500 });
  });

  it('a deleted webhook is a permanent failure; a network error asks for a retry', async () => {
    const hook = peer.webhook();
    const made = await basic.mutate('discordChannel.create', { company_cuid, name: 'Third', webhook: hook });
    const id = made.data.channel.channel_cuid;
    peer.remove(hook);
    const r = await sender().send({ channel_cuid: id, company_cuid, source: 'DISCORD' }, [alert(1)]);
    expect(r).toMatchObject({ ok: false, permanent: true });
    expect(JSON.stringify(r)).not.toContain(new URL(hook).pathname.split('/').at(-1)!);
    // the service goes away after the channel was saved: a network error → retry later
    await t.db.dataSource.query(`UPDATE discord_notification_channel SET webhook = $2 WHERE channel_cuid = $1`, [
      id,
      `http://127.0.0.1:${downPort}/api/webhooks/1/netSECRET`,
    ]);
    const later = await sender().send({ channel_cuid: id, company_cuid, source: 'DISCORD' }, [alert(2)]);
    expect(later).toMatchObject({ ok: false, retryAfterMs: expect.any(Number) });
    expect(JSON.stringify(later)).not.toContain('netSECRET');
  });

  it('a group of alerts is one message listing them', async () => {
    const hook = peer.webhook();
    const made = await basic.mutate('discordChannel.create', { company_cuid, name: 'Fourth', webhook: hook });
    const n = peer.posts.length;
    const r = await sender().send(
      { channel_cuid: made.data.channel.channel_cuid, company_cuid, source: 'DISCORD' },
      [1, 2, 3, 4].map((i) => alert(i)),
    );
    expect(r).toEqual({ ok: true });
    expect(peer.posts.length).toBe(n + 1);
    expect(peer.posts[n].body.content).toContain('**4 alerts**');
    for (const i of [1, 2, 3, 4]) expect(peer.posts[n].body.content).toContain(`Inverter fault ${i}`);
  });
});
