import { DEMO_CONTROLLER_ID, DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { newCuid } from '../../server/src/common/ids';
import { COMMAND_NAME_PATTERN } from '../../shared/catalogue/declared-commands';
import { addEvents, addTrigger, eventually, eventValue } from '../factories/alert-fixtures';
import { DiscordPeer } from '../factories/discord-peer';
import type { HttpClient } from '../factories/http-client';
import { decodeMail, SmtpPeer, verifyLinkOf } from '../factories/smtp-peer';
import { TelegramPeer } from '../factories/telegram-peer';
import { addMember } from '../factories/users';
import { type AlertTestApp, ingest, startAlertApp } from '../alerts/support';

/**
 * Class: text is never a key into a plain object (docs/security.md). Every name a plain object
 * inherits (`constructor`, `__proto__`, `toString`, `valueOf`, `hasOwnProperty`, … read from
 * Object.prototype itself, so a new engine member is covered too) and `prototype`, fed through
 * the public API as trigger names and message placeholders (tRPC), as device-state values and
 * keys (HTTP ingest), is shown literally by every renderer and decoder: the mail (a real SMTP
 * peer), Discord and Telegram (their peers), the alarm history, `telemetry.latest` and
 * `systemStatus.get` for the owner and a partner, and as command kinds and argument names a
 * controller type declares (checked and labelled as written). Another company's alert, in the
 * same delivery round, is delivered. Runs on PostgreSQL when TEST_DATABASE_URL is set.
 */
const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];
/** Keys every JSON input refuses (boundedJson): a state bundle holding one is refused with its row, never stored. */
const REFUSED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const TOKEN = '7000002:AAH-text-keys-bot-token';

describe('text is never a key into a plain object', () => {
  let t: AlertTestApp;
  let smtp: SmtpPeer;
  let discord: DiscordPeer;
  let telegram: TelegramPeer;
  const as: Record<string, HttpClient> = {};
  let demoCompany: string;
  let otherCompany: string;
  const q = (sql: string, params: unknown[] = []) => t.query(sql, params);

  beforeAll(async () => {
    smtp = await SmtpPeer.start();
    discord = await DiscordPeer.start();
    telegram = await TelegramPeer.start(TOKEN);
    t = await startAlertApp({
      env: {
        ALERTS_DELIVERY_ENABLED: 'true',
        // Rounds start on the engine's kick (a long poll): the two companies' events are claimed together.
        ALERTS_DELIVERY_POLL_MS: '20000',
        ALERTS_DELIVERY_MAX_ATTEMPTS: '3',
        ALERTS_DELIVERY_BACKOFF_BASE_MS: '200',
        ALERTS_DELIVERY_BACKOFF_MAX_MS: '1000',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Portal <alerts@portal.test>',
        PUBLIC_URL: 'http://portal.test',
        DISCORD_WEBHOOK_HOSTS: discord.host,
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_URL: telegram.url,
        TELEGRAM_POLL_SECONDS: '1',
      },
    });
    [{ company_cuid: demoCompany }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    [{ company_cuid: otherCompany }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    await addMember(t.db.dataSource, 'other-expert@demo.local', OTHER_COMPANY_NAME, 2);
    // The other company is the farm's partner (a read-only share), as in a real portal.
    await q(`INSERT INTO system_sharing (company_cuid, system_cuid, change) VALUES ($1, $2, false)`, [otherCompany, t.demo.farm]);
    const who = ['installer', 'expert', 'basic', 'other', 'other-expert'];
    (await Promise.all(who.map((w) => t.client(`${w}@demo.local`)))).forEach((c, i) => (as[who[i]] = c));
    // a fresh database, the whole app and five sign-ins: generous on a loaded machine (no timing is asserted)
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await discord?.close();
    await telegram?.close();
  });

  /** The demo company's three channels (email verified by its link, Discord, Telegram linked by /start), all through the API. */
  async function demoChannels(): Promise<{ email: string; discordHook: string; discordChannel: string; telegramChannel: string; chatId: string }> {
    const mails = smtp.messages.length;
    const email = await as.basic.mutate('emailChannel.create', { company_cuid: demoCompany, email: 'night.shift@example.test' });
    expect(email.status).toBe(200);
    const link = new URL(verifyLinkOf((await smtp.waitFor(mails + 1)).raw)!);
    expect((await as.basic.request('GET', link.pathname + link.search)).status).toBe(200);

    const discordHook = discord.webhook();
    const d = await as.basic.mutate('discordChannel.create', { company_cuid: demoCompany, name: 'Ops', webhook: discordHook });
    expect(d.status).toBe(200);

    const tg = await as.basic.mutate('telegramChannel.create', { company_cuid: demoCompany });
    expect(tg.status).toBe(200);
    const chat = { id: -1009876543210, type: 'supergroup', title: 'Night shift' };
    telegram.push({ message: { message_id: 1, chat, text: `/start ${tg.data.link.code}` } });
    await eventually(
      async () => (await as.basic.query('channelDetails.get', { channel_cuid: tg.data.channel.channel_cuid })).data.telegram.linked_at,
      15_000,
      'the Telegram group linked',
    );
    return {
      email: email.data.channel.channel_cuid,
      discordHook,
      discordChannel: d.data.channel.channel_cuid,
      telegramChannel: tg.data.channel.channel_cuid,
      chatId: String(chat.id),
    };
  }

  it('trigger names and message placeholders named after Object.prototype members are mailed, posted and listed literally; the other company in the same round is delivered', async () => {
    const channels = await demoChannels();
    const placeholders = INHERITED.map((n) => `{${n}}`).join(' ');
    const message = `Battery {value}{unit} ${placeholders}`;
    const release = `Battery back {value}{unit} ${placeholders}`;
    const created = await as.installer.mutate('notificationTrigger.create', {
      data: {
        name: `Low {constructor} {__proto__}`,
        message,
        release_message: release,
        system_cuid: t.demo.farm,
        args: { kind: 'threshold', entity_cuid: t.demo.battery, parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 30 },
      },
    });
    expect(created.error).toBeUndefined();
    const trigger = created.data.data.trigger_cuid as string;
    for (const channel_cuid of [channels.email, channels.discordChannel, channels.telegramChannel]) {
      expect((await as.basic.mutate('channelLink.set', { channel_cuid, trigger_cuid: trigger, enabled: true })).status).toBe(200);
    }

    // The other company: its own system, trigger and Discord channel, and a PENDING event written as the engine writes it.
    const otherSystem = newCuid();
    await q(`INSERT INTO system (system_cuid, company_cuid, name, timezone) VALUES ($1, $2, 'Other plant', 'UTC')`, [otherSystem, otherCompany]);
    const otherTrigger = await addTrigger(t.db.dataSource, otherSystem, { name: 'Other battery low', message: 'Other plant battery at {value}{unit}' });
    const otherHook = discord.webhook();
    const od = await as.other.mutate('discordChannel.create', { company_cuid: otherCompany, name: 'Other ops', webhook: otherHook });
    expect(od.status).toBe(200);
    expect((await as.other.mutate('channelLink.set', { channel_cuid: od.data.channel.channel_cuid, trigger_cuid: otherTrigger, enabled: true })).status).toBe(
      200,
    );
    const [otherEvent] = await addEvents(t.db.dataSource, otherTrigger, [
      eventValue({ system_cuid: otherSystem, timezone: 'UTC' }, { value: 11, system: 'Other plant' }),
    ]);

    // The farm's battery falls below 20 and comes back above 30: TRIGGERED, then RELEASED.
    const base = Date.now() - 10 * 60_000;
    const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [50, 12, 50].map((value, m) => ({
        timestamp: new Date(base + m * 60_000).toISOString(),
        entity_cuid: t.demo.battery,
        parameter_id: 'battery_soc',
        value,
      })),
    });
    expect(res.status).toBe(200);
    await t.engine.settle();

    // Every event of both companies is delivered (none left SENDING or retried for ever).
    const statuses = async () =>
      (await q(
        `SELECT trigger_cuid, status::text AS status, last_error FROM notification_trigger_event WHERE trigger_cuid = ANY($1::varchar[]) ORDER BY "timestamp"`,
        [[trigger, otherTrigger]],
      )) as {
        trigger_cuid: string;
        status: string;
        last_error: string | null;
      }[];
    await eventually(
      async () => {
        const rows = await statuses();
        if (rows.length === 3 && rows.every((r) => r.status === 'SENT')) return rows;
        throw new Error(JSON.stringify(rows.map((r) => [r.trigger_cuid === trigger ? 'demo' : 'other', r.status, r.last_error])));
      },
      40_000,
      'both companies\u2019 events SENT',
    );
    expect((await statuses()).map((r) => [r.trigger_cuid === trigger ? 'demo' : 'other', r.status, r.last_error])).toEqual(
      expect.arrayContaining([
        ['demo', 'SENT', null],
        ['demo', 'SENT', null],
        ['other', 'SENT', null],
      ]),
    );
    expect((await q(`SELECT status::text AS status FROM notification_trigger_event WHERE event_cuid = $1`, [otherEvent]))[0].status).toBe('SENT');

    const literal = (text: string) => {
      for (const n of INHERITED) expect(text).toContain(`{${n}}`);
    };
    // The mail (text and HTML parts), as the SMTP peer received it.
    const mails = await eventually(
      async () => {
        const found = smtp.messages.map((m) => decodeMail(m.raw)).filter((m) => m.includes('Battery back'));
        return found.length ? found : undefined;
      },
      15_000,
      'the alert mails',
    );
    literal(mails.join('\n'));
    // Discord: escaped markdown (an underscore is escaped, the braces and the words stay).
    const posted = discord.posts.filter((p) => channels.discordHook.endsWith(`/${p.webhook}`)).map((p) => p.body.content ?? '');
    const demoPosts = posted.join('\n');
    for (const n of INHERITED) expect(demoPosts).toContain(`{${n.replace(/_/g, '\\_')}}`);
    expect(demoPosts).toContain('Battery back');
    // Telegram (HTML): the words as they were written.
    const sent = telegram.sent.filter((m) => m.chat_id === channels.chatId && m.text.includes('Battery')).map((m) => m.text);
    literal(sent.join('\n'));
    // The other company's alert reached its own webhook.
    const otherPosts = discord.posts.filter((p) => otherHook.endsWith(`/${p.webhook}`)).map((p) => p.body.content ?? '');
    expect(otherPosts.join('\n')).toContain('Other plant battery at 11%');

    // The alarm history renders the same templates for the owner (and answers 200).
    const history = await as.installer.query('alarm.history', { filter: { trigger_cuid: trigger }, pagination: { page: 1, perPage: 25 } });
    expect(history.status).toBe(200);
    expect(history.data.data).toHaveLength(2);
    for (const row of history.data.data as { message: string }[]) literal(row.message);
  });

  it('device-state values and keys named after Object.prototype members are shown literally by telemetry.latest and systemStatus.get, for the owner and a partner', async () => {
    const start = Date.now() - 5 * 60_000;
    for (const [i, name] of INHERITED.entries()) {
      const bundle: Record<string, unknown> = { inverter_state: name, firmware_mode: name, faults: [name], warnings: [name] };
      // a key of that name too, where JSON input takes it (a refused key would be refused with its row)
      if (!REFUSED_KEYS.has(name)) Object.defineProperty(bundle, name, { value: name, enumerable: true });
      const sent = await ingest(
        t.baseUrl,
        DEMO_CONTROLLER_ID,
        t.demo.demoToken,
        { states: [{ timestamp: new Date(start + i * 1000).toISOString(), entity_cuid: t.demo.inverter, state_bundle: bundle }] },
        'states',
      );
      expect([name, sent.status]).toEqual([name, 200]);

      const expected = [...(REFUSED_KEYS.has(name) ? [] : [[name, name]]), ['firmware_mode', name], ['inverter_state', name]].sort((a, b) =>
        a[0] < b[0] ? -1 : 1,
      );
      for (const who of ['expert', 'basic', 'other-expert']) {
        const latest = await as[who].query('telemetry.latest', { system_cuid: t.demo.farm });
        expect([name, who, 'telemetry.latest', latest.status]).toEqual([name, who, 'telemetry.latest', 200]);
        const device = (
          latest.data.devices as {
            entity_cuid: string;
            state: { values: { key: string; text: string; decoded: boolean }[]; faults: string[]; warnings: string[] };
          }[]
        ).find((d) => d.entity_cuid === t.demo.inverter)!;
        expect([name, who, device.state.values.map((v) => [v.key, v.text])]).toEqual([name, who, expected]);
        expect(device.state.values.every((v) => v.decoded === false)).toBe(true);
        expect([device.state.faults, device.state.warnings]).toEqual([[name], [name]]);
      }
      for (const who of ['expert', 'other-expert']) {
        const status = await as[who].query('systemStatus.get', { system_cuid: t.demo.farm });
        expect([name, who, 'systemStatus.get', status.status]).toEqual([name, who, 'systemStatus.get', 200]);
        const device = (
          status.data.devices as { entity_cuid: string; state: { values: { key: string; text: string }[]; faults: { code: unknown; text: string }[] } }[]
        ).find((d) => d.entity_cuid === t.demo.inverter)!;
        expect([name, who, device.state.values.map((v) => [v.key, v.text])]).toEqual([name, who, expected]);
        expect(device.state.faults).toEqual([{ code: name, text: name }]);
      }
    }
  });
  it('command kinds and argument names a controller type declares after Object.prototype members: checked and labelled as written', async () => {
    // The names a declared command or argument may take (lower-case words): `constructor`, `prototype`.
    const names = INHERITED.filter((n) => COMMAND_NAME_PATTERN.test(n));
    expect(names).toEqual(expect.arrayContaining(['constructor', 'prototype']));
    await q(
      `UPDATE controller_type SET commands = $1::jsonb WHERE controllertype_cuid = (SELECT controllertype_cuid FROM controller WHERE controller_id = $2)`,
      [JSON.stringify(names.map((name) => ({ name, args: [{ name, type: 'string', required: true }] }))), DEMO_CONTROLLER_ID],
    );
    const send = (kind: string, payload: Record<string, unknown>) =>
      as.installer.mutate('controllerCommand.send', { controller_id: DEMO_CONTROLLER_ID, kind, payload });
    const headers = { authorization: `Bearer ${t.demo.demoToken}`, 'content-type': 'application/json' };
    for (const name of names) {
      // A required argument of that name, not given: "Required" (not a function found on the payload).
      const missing = await send(name, {});
      expect([name, missing.status, missing.error?.data.fieldErrors]).toEqual([name, 400, [{ path: `payload.${name}`, message: 'Required' }]]);
    }
    // Given under another name the command is refused by that name; the argument's own key is refused by every JSON input.
    const wrong = await send('constructor', { toString: 'x' });
    expect(wrong.status).toBe(400);
    expect(wrong.error?.data.fieldErrors).toEqual(expect.arrayContaining([{ path: 'payload.toString', message: 'This command takes no such argument' }]));

    // A command named `constructor` without arguments: sent, fetched, acknowledged; its label is its name.
    await q(
      `UPDATE controller_type SET commands = $1::jsonb WHERE controllertype_cuid = (SELECT controllertype_cuid FROM controller WHERE controller_id = $2)`,
      [JSON.stringify(names.map((name) => ({ name }))), DEMO_CONTROLLER_ID],
    );
    for (const name of names) {
      const sent = await send(name, {});
      expect([name, sent.status]).toEqual([name, 200]);
      const id = sent.data.command_id as string;
      expect((await fetch(`${t.baseUrl}/api/ingest/${DEMO_CONTROLLER_ID}/commands?limit=50`, { headers })).status).toBe(200);
      const ack = await fetch(`${t.baseUrl}/api/ingest/${DEMO_CONTROLLER_ID}/commands/ack`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ id, status: 'SUCCESS' }),
      });
      expect([name, ack.status]).toEqual([name, 200]);
      const log = await as.expert.query('systemChangelog.getList', {
        pagination: { page: 1, perPage: 100 },
        filter: { system_cuid: t.demo.farm, kind: 'COMMAND' },
      });
      expect(log.status).toBe(200);
      const titles = (log.data.data as { title: string }[]).map((e) => e.title);
      expect(titles.some((title) => title.startsWith(`${name} on `) && title.endsWith(': SUCCESS'))).toBe(true);
      expect(titles.join('\n')).not.toContain('native code');
    }
  });
});
