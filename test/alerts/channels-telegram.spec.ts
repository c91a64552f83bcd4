import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { TelegramPeer } from '../factories/telegram-peer';
import { CHANNEL_SENDERS, type ChannelSender, type OutgoingAlert } from '../../server/src/alerts/delivery/channel-sender';
import { TelegramBot } from '../../server/src/alerts/channels/telegram-bot';
import { SlidingWindows } from '../../server/src/alerts/channels/rate-limit';
import { TelegramUpdatesService } from '../../server/src/alerts/channels/telegram-updates.service';
import { TelegramUpdatesRepository } from '../../server/src/alerts/channels/telegram-updates.repository';

/**
 * TELEGRAM channels against a local peer speaking the Bot API (real HTTP, the portal's own client
 * and update loop) on PostgreSQL: linking a group with `/start <code>`, the stored offset, sending
 * under the rate limits, 429 retry_after, a kicked bot, and the token never in an answer.
 */
const TOKEN = '7000001:AAH-very-secret-bot-token_xyz';
let t: TestApp;
let peer: TelegramPeer;
let basic: HttpClient;
let company_cuid: string;
const answers: string[] = [];
/** What the server logged (Nest's logger writes to stdout / stderr). */
const logged: string[] = [];
const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

const alert = (i: number, over: Partial<OutgoingAlert> = {}): OutgoingAlert => ({
  event_cuid: `ev${i}`,
  trigger_cuid: 'tr1',
  system_cuid: 'sys1',
  system_name: `Site ${i} <b>`,
  severity: 'WARNING',
  state: 'TRIGGERED',
  text: `Battery low ${i}`,
  html: `Battery low ${i} &lt;script&gt;`,
  markdown: `Battery low ${i}`,
  time: '2026-11-24T02:13:05.000Z',
  link: 'http://portal.test/#/system/sys1/show/alarms',
  ...over,
});
const sender = () => t.app.get<ChannelSender[]>(CHANNEL_SENDERS, { strict: false }).find((s) => s.source === 'TELEGRAM')!;

async function until<T>(probe: () => Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  process.stdout.write = (chunk: unknown) => (logged.push(String(chunk)), true);
  process.stderr.write = (chunk: unknown) => (logged.push(String(chunk)), true);
  peer = await TelegramPeer.start(TOKEN);
  t = await startTestApp({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: peer.url, TELEGRAM_POLL_SECONDS: '1', LOG_LEVEL: 'log' });
  basic = new HttpClient(t.baseUrl);
  expect((await basic.login('basic@demo.local')).status).toBe(200);
  [{ company_cuid }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
});

describe('TELEGRAM channel', () => {
  let channel_cuid: string;
  let code: string;
  const chat = { id: -1001234567890, type: 'supergroup', title: 'Night shift <ops>' };

  it('offers Telegram with the bot username', async () => {
    const r = await basic.query('channelDetails.sources');
    answers.push(r.text);
    expect(r.data.telegram).toEqual({ configured: true, bot_username: 'portal_test_bot' });
  });

  it('creates a PENDING channel with a link code, the /start command and the deep link', async () => {
    const r = await basic.mutate('telegramChannel.create', { company_cuid });
    answers.push(r.text);
    expect(r.status).toBe(200);
    channel_cuid = r.data.channel.channel_cuid;
    code = r.data.link.code;
    expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(r.data.link).toEqual({ code, command: `/start ${code}`, deepLink: `https://t.me/portal_test_bot?startgroup=${code}` });
    expect(r.data.channel.status).toBe('PENDING');
    expect(r.data.telegram).toMatchObject({ configured: true, code, linked_at: null, group_chat_name: null });
  });

  it('a wrong code links nothing; `/start@bot <code>` in the group links it (ACTIVE, chat name, code gone)', async () => {
    const sentBefore = peer.sent.length;
    peer.push({ message: { message_id: 1, chat, text: '/start notthecode1234' } });
    await peer.waitForSent(sentBefore + 1);
    expect(peer.sent[sentBefore].text).toContain('not valid');
    peer.push({ message: { message_id: 2, chat, text: `/start@portal_test_bot ${code}` } });
    const d = await until(async () => {
      const r = await basic.query('channelDetails.get', { channel_cuid });
      return r.data.telegram.linked_at ? r : null;
    });
    answers.push(d.text);
    expect(d.data.channel.status).toBe('ACTIVE');
    expect(d.data.telegram).toMatchObject({ group_chat_name: 'Night shift <ops>', code: null, command: null, deepLink: null });
    const [row] = await t.db.dataSource.query(`SELECT group_chat_id, token FROM telegram_notification_channel WHERE channel_cuid = $1`, [channel_cuid]);
    expect(row).toEqual({ group_chat_id: String(chat.id), token: null });
    const reply = await peer.waitForSent(sentBefore + 2);
    expect(reply).toMatchObject({ chat_id: String(chat.id), parse_mode: 'HTML' });
    expect(reply.text).toContain('Demo Solar Ltd');
  });

  it('keeps the update offset in the database (a restart does not read the same updates again)', async () => {
    const [state] = await until(async () => {
      const rows = await t.db.dataSource.query(`SELECT update_offset::int AS offset, lease_owner FROM telegram_bot_state`);
      return rows.length && rows[0].offset >= 1002 ? rows : null;
    });
    expect(state.offset).toBe(1002);
    expect(state.lease_owner).toEqual(expect.any(String));
    // the loop asks from the stored offset on
    await until(async () => peer.offsets.at(-1) === 1002);
  });

  it('one instance polls at a time: a second instance does not get the lease while the first holds it', async () => {
    const second = new TelegramUpdatesService(t.config, new TelegramBot(t.config), new TelegramUpdatesRepository(t.db.dataSource)) as unknown as {
      lease(bot_id: string): Promise<number | null>;
    };
    expect(await second.lease('7000001')).toBeNull();
    // once the first one's lease has run out, the second takes over from the stored offset
    const [{ offset }] = await t.db.dataSource.query(`SELECT update_offset::int AS offset FROM telegram_bot_state WHERE bot_id = '7000001'`);
    await t.db.dataSource.query(`UPDATE telegram_bot_state SET lease_until = now() - interval '1 second' WHERE bot_id = '7000001'`);
    expect(await second.lease('7000001')).toBe(offset);
    // let go, so the app's own loop carries on
    await t.db.dataSource.query(`UPDATE telegram_bot_state SET lease_owner = NULL, lease_until = NULL WHERE bot_id = '7000001'`);
  });

  it('the same code used again in another chat links nothing', async () => {
    const sentBefore = peer.sent.length;
    peer.push({ message: { message_id: 3, chat: { id: -42, type: 'group', title: 'Intruders' }, text: `/start ${code}` } });
    await peer.waitForSent(sentBefore + 1);
    const [row] = await t.db.dataSource.query(`SELECT group_chat_id FROM telegram_notification_channel WHERE channel_cuid = $1`, [channel_cuid]);
    expect(row.group_chat_id).toBe(String(chat.id));
  });

  it('a test message goes to the linked chat', async () => {
    const n = peer.sent.length;
    const r = await basic.mutate('channelDetails.sendTest', { channel_cuid });
    answers.push(r.text);
    expect(r.data).toEqual({ ok: true, message: 'Test message sent' });
    // The bot's answer to the intruders' chat (previous test) may arrive after `n` was read on a
    // busy machine: the test message is the first one to the linked chat after `n`.
    const end = Date.now() + 10_000;
    let m: (typeof peer.sent)[number] | undefined;
    while (!(m = peer.sent.slice(n).find((x) => x.chat_id === String(chat.id))) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(m).toMatchObject({ chat_id: String(chat.id), parse_mode: 'HTML' });
    expect(peer.sent.slice(n).every((x) => x.chat_id === String(chat.id) || x.chat_id === '-42')).toBe(true);
  });

  it('a group of alerts is one HTML message listing them, escaped', async () => {
    const n = peer.sent.length;
    await new Promise((r) => setTimeout(r, 1100)); // the chat's 1 msg/s
    const r = await sender().send({ channel_cuid, company_cuid, source: 'TELEGRAM' }, [alert(1), alert(2), alert(3)]);
    expect(r).toEqual({ ok: true });
    // Only this chat's messages: the bot's late answers to the other chats' /start may land meanwhile.
    const toChat = peer.sent.slice(n).filter((m) => m.chat_id === String(chat.id));
    expect(toChat).toHaveLength(1);
    const text = toChat[0].text;
    expect(text).toContain('<b>3 alerts</b>');
    for (const i of [1, 2, 3]) expect(text).toContain(`Site ${i} &lt;b&gt;`);
    expect(text).not.toContain('<script>');
  });

  it('messages to one chat are booked ≥ 1 s apart, and none leaves before its slot', async () => {
    const n = peer.sent.length;
    // What the sender guarantees, on its own clock: the slots it books for one chat are a second
    // apart, and a request is issued only once its slot has come. (The gap between two requests as
    // seen from outside also holds the time each one took to leave, which a busy machine stretches
    // for either: it is not what the limiter controls.)
    const clock = () => performance.timeOrigin + performance.now();
    // The spy calls the real method and keeps what it answered (the booked moments).
    const book = jest.spyOn(SlidingWindows.prototype, 'book');
    let booked: number[] | undefined;
    const issued: number[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      if ((input instanceof Request ? input.url : String(input)).endsWith('/sendMessage')) issued.push(clock());
      return realFetch(input, init);
    };
    try {
      for (const i of [1, 2]) expect(await sender().send({ channel_cuid, company_cuid, source: 'TELEGRAM' }, [alert(i)])).toEqual({ ok: true });
    } finally {
      globalThis.fetch = realFetch;
      booked = book.mock.results.map((r) => r.value as number);
      book.mockRestore();
    }
    expect(peer.sent.slice(n)).toHaveLength(2);
    expect(booked).toHaveLength(2);
    expect(issued).toHaveLength(2);
    expect(booked[1] - booked[0]).toBeGreaterThanOrEqual(1000 - 1e-6);
    for (const i of [0, 1]) expect(issued[i]).toBeGreaterThanOrEqual(booked[i]);
  });

  it('429 with parameters.retry_after is answered as retryAfterMs, and the chat is held back meanwhile', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    peer.rateLimitNext(7);
    const r = await sender().send({ channel_cuid, company_cuid, source: 'TELEGRAM' }, [alert(9)]);
    expect(r).toMatchObject({ ok: false, retryAfterMs: 7000 });
    const calls = peer.calls.length;
    const held = await sender().send({ channel_cuid, company_cuid, source: 'TELEGRAM' }, [alert(10)]);
    expect(held).toMatchObject({ ok: false, retryAfterMs: expect.any(Number) });
    expect((held as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(5000);
    expect(peer.calls.slice(calls).filter((c) => c.endsWith('sendMessage'))).toEqual([]);
  });

  it('a bot kicked from the chat is a permanent failure', async () => {
    const [{ company_cuid: c }] = [{ company_cuid }];
    const made = await basic.mutate('telegramChannel.create', { company_cuid: c });
    const other = made.data.channel.channel_cuid;
    peer.push({ message: { message_id: 9, chat: { id: -555, type: 'group', title: 'Gone' }, text: `/start ${made.data.link.code}` } });
    await until(async () => (await basic.query('channelDetails.get', { channel_cuid: other })).data.telegram.linked_at);
    peer.kicked.add('-555');
    const r = await sender().send({ channel_cuid: other, company_cuid, source: 'TELEGRAM' }, [alert(1)]);
    expect(r).toMatchObject({ ok: false, permanent: true });
    expect((r as { reason: string }).reason).toContain('kicked');
  });

  it('the bot token never appears in an answer, a failure reason or the log', async () => {
    expect(answers.length).toBeGreaterThan(3);
    const log = logged.join('');
    expect(log).toContain('linked to a chat');
    expect(log).not.toContain(TOKEN.split(':')[1]);
    // a refused token: the reason and the log name no token either
    const failing = await sender().send({ channel_cuid: 'nosuch', company_cuid, source: 'TELEGRAM' }, [alert(1)]);
    expect(JSON.stringify(failing)).not.toContain(TOKEN.split(':')[1]);
    for (const a of answers) expect(a).not.toContain(TOKEN);
    for (const a of answers) expect(a).not.toContain(TOKEN.split(':')[1]);
  });
});
