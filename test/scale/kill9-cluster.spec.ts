import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { loadFleet } from '../../server/src/simulator/fleet';
import { Simulator } from '../../server/src/simulator/simulator';
import { MqttTransport } from '../../server/src/simulator/transports';
import type { Cluster } from '../factories/cluster';
import type { TestDatabase } from '../factories/database';
import { HttpClient } from '../factories/http-client';
import type { Mosquitto } from '../factories/mosquitto';
import { TelegramPeer } from '../factories/telegram-peer';
import { type StreamWorld, startStreamWorld } from './stream-world';

/**
 * kill -9 of one of two instances behind HAProxy, under load, then its restart with the same name
 * and MQTT client id (what an orchestrator does). Real PostgreSQL (TEST_DATABASE_URL), a Mosquitto
 * of the test's own, HAProxy, the built server (`npm run build` first), a local Telegram Bot API.
 *
 * During the run: the simulator streams a day of a 4-controller fleet over MQTT (QoS 1, a ledger of
 * what the broker acknowledged) and answers commands; triggers on that data fire alerts delivered
 * to Telegram; API clients read lists, create records and send commands through HAProxy.
 * Afterwards: ledger = parameter_log (no row missing or twice), each alert fired once and reached
 * its chat once, every command final, every write's effect there exactly once when it was
 * answered (never twice), and the login brake counted failures made on both instances together.
 * The counts go to stdout as one JSON line and to .ci-results/kill9-cluster.json.
 */
const TOKEN = '7000002:kill9-cluster';
const HOUR = 3_600_000;

describe('kill -9 of one of two instances under load', () => {
  let db: TestDatabase;
  let broker: Mosquitto;
  let peer: TelegramPeer;
  let cluster: Cluster;
  let world: StreamWorld;
  let dir = '';
  const q = <T = any>(sql: string, params: unknown[] = []) => db.dataSource.query<T[]>(sql, params);
  const figures: Record<string, unknown> = { figure: 'kill9_cluster' };

  beforeAll(async () => {
    peer = await TelegramPeer.start(TOKEN);
    world = await startStreamWorld('kill9-cluster', {
      env: {
        DATABASE_POOL_SIZE: '6',
        TRUST_PROXY: 'true',
        // No growing delays: the brake's counts are checked here, its delays by the unit tests.
        LOGIN_FREE_ATTEMPTS: '10',
        LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '10',
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_URL: peer.url,
        TELEGRAM_POLL_SECONDS: '1',
        CHANNEL_HTTP_TIMEOUT_MS: '3000',
        ALERTS_DELIVERY_LEASE_SECONDS: '8',
        ALERTS_DELIVERY_POLL_MS: '300',
        // One message per alert, so the chat's copies can be counted per alert.
        ALERTS_GROUP_WINDOW_MS: '0',
        ALERTS_GROUP_MIN: '1000',
        COMMAND_POLL_MS: '300',
        COMMAND_ACK_TIMEOUT_SECONDS: '10',
        // Three workers write triggers and commands for minutes: past the default budgets (their own class tests: test/budgets/).
        COMMANDS_PER_CONTROLLER_PER_MINUTE: '100000',
        TRIGGERS_PER_COMPANY: '1000000',
      },
    });
    ({ db, broker, cluster, dir } = world);
  }, 240_000);
  afterAll(async () => {
    // The counts, whatever the outcome (a failed check is visible in them too).
    const line = JSON.stringify(figures);
    console.log(line);
    const out = resolve(__dirname, '..', '..', '.ci-results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'kill9-cluster.json'), `${line}\n`);
    await world?.close();
    await peer?.close();
  });

  it('no acknowledged row, alert, command or answered write lost or doubled', async () => {
    const fleet = await loadFleet(db.dataSource);
    expect(fleet.length).toBe(4);
    const superuser = new HttpClient(cluster.url);
    expect((await superuser.login('superuser@demo.local')).status).toBe(200);

    // ---- alerts: per controller, PV above 800 W (sunrise) / back under 100 W (sunset), to one Telegram chat per company.
    const chatOf = new Map<string, string>();
    const triggers: { trigger_cuid: string; tag: string; chat: string }[] = [];
    for (const [i, c] of fleet.entries()) {
      const pv = c.entities.find((e) => e.parameters.includes('pv_power'));
      if (!pv || !c.system_cuid) continue;
      const [{ company_cuid }] = await q(`SELECT company_cuid FROM system WHERE system_cuid = $1`, [c.system_cuid]);
      let chat = chatOf.get(company_cuid);
      if (!chat) {
        chat = String(-1_003_000_000_000 - chatOf.size);
        const channel = newCuid();
        await q(`INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) VALUES ($1, 'TELEGRAM', 'ACTIVE', $2)`, [channel, company_cuid]);
        await q(
          `INSERT INTO telegram_notification_channel (telegram_channel_cuid, channel_cuid, group_chat_id, group_chat_name, linked_at) VALUES ($1, $2, $3, $4, now())`,
          [newCuid(), channel, chat, `Kill group ${chatOf.size}`],
        );
        chatOf.set(company_cuid, chat);
        chatOf.set(`channel:${company_cuid}`, channel);
      }
      const tag = `T${i}`;
      const made = await superuser.mutate('notificationTrigger.create', {
        data: {
          name: `PV up ${i}`,
          message: `[${tag} up {time} {value}]`,
          release_message: `[${tag} down {time} {value}]`,
          system_cuid: c.system_cuid,
          args: { kind: 'threshold', entity_cuid: pv.entity_cuid, parameter_id: 'pv_power', op: 'above', value: 800, release_value: 100 },
        },
      });
      expect(made.error).toBeUndefined();
      const trigger_cuid = made.data.data.trigger_cuid as string;
      await q(`INSERT INTO notification_channel_to_trigger (channel_cuid, trigger_cuid, enabled) VALUES ($1, $2, true)`, [
        chatOf.get(`channel:${company_cuid}`),
        trigger_cuid,
      ]);
      triggers.push({ trigger_cuid, tag, chat });
    }
    expect(triggers.length).toBe(4);

    // ---- the stream: a day of the fleet (a minute apart), QoS 1, with the controllers answering commands.
    const transport = new MqttTransport(broker.url, 'portal/v1', { delayMs: 100 });
    const dayStart = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR - 24 * HOUR;
    const sim = new Simulator(fleet, transport, {
      intervalSeconds: 60,
      speed: 0,
      from: dayStart,
      until: dayStart + 24 * HOUR,
      rowsPerMessage: 200,
      inFlight: 4,
      seed: 7,
      ledgerFile: join(dir, 'ledger.jsonl'),
    });
    await transport.connectAll(fleet);
    const stored = async () => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM parameter_log`))[0].n;

    // ---- API clients through HAProxy until told to stop.
    type Call = { what: string; at: number; status: number; error?: string; retried?: string };
    const calls: Call[] = [];
    let loading = true;
    const writes: { name: string; status: number }[] = [];
    const commandIds: string[] = [];
    const [{ system_cuid: demoSystem }] = await q(`SELECT system_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    const demoEntity = fleet.find((c) => c.controller_id === DEMO_CONTROLLER_ID)!.entities.find((e) => e.parameters.includes('battery_soc'))!.entity_cuid;
    const timed = async <T extends { status: number; text: string }>(what: string, run: () => Promise<T>, retryRead = false): Promise<T | undefined> => {
      const call: Call = { what, at: Date.now(), status: 0 };
      calls.push(call);
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await run();
          call.status = answer.status;
          if (answer.status !== 200) call.error = `HTTP ${answer.status} ${answer.text.slice(0, 160)}`;
          if (retryRead && attempt === 0 && answer.status >= 502) {
            call.retried = call.error;
            call.error = undefined;
            continue;
          }
          return answer;
        } catch (error) {
          const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
          call.error = `${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
          if (retryRead && attempt === 0) {
            call.retried = call.error;
            call.error = undefined;
            continue;
          }
          return undefined;
        }
      }
    };
    const worker = async (w: number) => {
      const client = new HttpClient(cluster.url);
      await timed('login', () => client.login('installer@demo.local'));
      for (let i = 0; loading; i++) {
        await timed('list', () => client.query('system.getList', { pagination: { page: 1, perPage: 25 }, filter: {} }), true);
        const name = `kill9 write ${w}-${i}`;
        const made = await timed('write', () =>
          client.mutate('notificationTrigger.create', {
            data: {
              name,
              message: 'never {value}',
              release_message: null,
              system_cuid: demoSystem,
              args: { kind: 'threshold', entity_cuid: demoEntity, parameter_id: 'battery_soc', op: 'below', value: -1000 },
            },
          }),
        );
        writes.push({ name, status: made?.status ?? 0 });
        if (i % 3 === w % 3) {
          const sent = await timed('command', () =>
            client.mutate('controllerCommand.send', { controller_id: DEMO_CONTROLLER_ID, kind: 'set_export_limit', payload: { limit_w: 1000 + w * 100 + i } }),
          );
          if (sent?.status === 200) commandIds.push(sent.data.command_id);
        }
        if (i % 10 === 9) await timed('login', () => client.login('installer@demo.local'));
      }
    };

    const running = sim.start();
    const workers = [0, 1, 2].map((w) => worker(w));

    // ---- kill -9 of instance a in the middle of the stream; the orchestrator restarts it a little later.
    await waitFor(async () => (await stored()) > 20_000, 120_000, 'rows stored before the kill');
    const killedAt = Date.now();
    await cluster.kill('a');
    const storedAtKill = await stored();
    await new Promise((r) => setTimeout(r, 2000));
    await cluster.restart('a');
    const backAt = Date.now();
    await new Promise((r) => setTimeout(r, 3000));
    loading = false;
    await Promise.all(workers);
    await running;
    expect(sim.stats.failures).toBe(0);

    // ---- settle: every acknowledged row stored, every alert out, every command final.
    const ledger = sim.ledger.rows;
    await waitFor(async () => (await stored()) >= ledger.size, 180_000, 'the ledger stored');
    await waitFor(
      async () => (await q(`SELECT count(*)::int AS n FROM notification_trigger_event WHERE status NOT IN ('SENT', 'ARCHIVED')`))[0].n === 0,
      120_000,
      'every alert sent',
    );
    await waitFor(
      async () => (await q(`SELECT count(*)::int AS n FROM controller_command WHERE status IN ('PENDING', 'SENT')`))[0].n === 0,
      120_000,
      'every command final',
    );
    await transport.close();

    // Rows: the database holds exactly the ledger, each key once.
    const [{ rows_stored, distinct_keys }] = await q(
      `SELECT count(*)::int AS rows_stored, count(DISTINCT (entity_cuid, parameter_id, "timestamp"))::int AS distinct_keys FROM parameter_log`,
    );
    const storedKeys = new Set(
      (
        await q<{ k: string }>(`SELECT entity_cuid || '|' || parameter_id || '|' || (extract(epoch FROM "timestamp") * 1000)::bigint AS k FROM parameter_log`)
      ).map((r) => r.k),
    );
    const missing = [...ledger.keys()].filter((k) => !storedKeys.has(k)).length;

    // Alerts: fired once (no second event for one trigger, device time and state), delivered once per chat.
    const events = await q<{ trigger_cuid: string; t: string; state: string; status: string; text: string }>(
      `SELECT trigger_cuid, "timestamp"::text AS t, value ->> 'state' AS state, status::text AS status FROM notification_trigger_event WHERE trigger_cuid = ANY($1::varchar[])`,
      [triggers.map((t) => t.trigger_cuid)],
    );
    const eventKeys = new Map<string, number>();
    for (const e of events) eventKeys.set(`${e.trigger_cuid}|${e.t}|${e.state}`, (eventKeys.get(`${e.trigger_cuid}|${e.t}|${e.state}`) ?? 0) + 1);
    const firedTwice = [...eventKeys.values()].filter((n) => n > 1).length;
    const received = new Map<string, number>();
    for (const m of peer.sent) {
      for (const [, tag] of m.text.matchAll(/\[(T\d+ (?:up|down) [^\]]+)\]/g))
        received.set(`${m.chat_id}|${tag}`, (received.get(`${m.chat_id}|${tag}`) ?? 0) + 1);
    }
    const deliveries = await q<{ duplicates: number; status: string }>(
      `SELECT d.duplicates, d.status::text AS status FROM notification_delivery d JOIN notification_trigger_event e ON e.event_cuid = d.event_cuid WHERE e.trigger_cuid = ANY($1::varchar[])`,
      [triggers.map((t) => t.trigger_cuid)],
    );
    const deliveryDuplicates = [...received.values()].reduce((s, n) => s + (n - 1), 0);

    // Commands: all final.
    const commandStates = await q<{ status: string; n: number }>(`SELECT status::text AS status, count(*)::int AS n FROM controller_command GROUP BY 1`);
    const byState = Object.fromEntries(commandStates.map((s) => [s.status, s.n]));
    const stuck = (byState.PENDING ?? 0) + (byState.SENT ?? 0);

    // Writes: each answered write there once; an unanswered one there at most once.
    const counts = new Map(
      (await q<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM notification_trigger WHERE name LIKE 'kill9 write %' GROUP BY name`)).map(
        (r) => [r.name, r.n],
      ),
    );
    const answeredMissing = writes.filter((w) => w.status === 200 && counts.get(w.name) !== 1);
    const doubled = writes.filter((w) => (counts.get(w.name) ?? 0) > 1);
    const unanswered = writes.filter((w) => w.status !== 200);

    const windowStart = killedAt - 1000;
    const windowEnd = backAt + 3000;
    const failed = calls.filter((c) => c.status !== 200 && !(c.what === 'command' && c.status === 409));
    const failedDuringKill = failed.filter((c) => c.at >= windowStart && c.at <= windowEnd);
    const why = (c: Call) => `${c.what}: ${c.error ?? `HTTP ${c.status}`}`;
    Object.assign(figures, {
      rows_acked: ledger.size,
      rows_stored,
      duplicates: rows_stored - distinct_keys,
      missing,
      alerts_fired: events.length,
      alerts_fired_twice: firedTwice,
      alerts_delivered: [...received.keys()].length,
      delivery_duplicates: deliveryDuplicates,
      delivery_duplicates_counted_by_portal: deliveries.reduce((s, d) => s + d.duplicates, 0),
      commands: commandIds.length,
      commands_final: Object.entries(byState)
        .filter(([s]) => s !== 'PENDING' && s !== 'SENT')
        .reduce((s, [, n]) => s + n, 0),
      commands_by_state: byState,
      commands_stuck: stuck,
      api_requests: calls.length,
      rows_stored_at_kill: storedAtKill,
      api_reads_retried: calls.filter((c) => c.retried).length,
      api_reads_retried_why: [...new Set(calls.filter((c) => c.retried).map((c) => `${c.what}: ${c.retried}`))],
      api_failed: failed.length,
      api_failed_during_kill: failedDuringKill.length,
      api_failed_why: [...new Set(failed.map(why))],
      writes: writes.length,
      writes_unanswered: unanswered.length,
      writes_unanswered_but_stored: unanswered.filter((w) => counts.get(w.name) === 1).length,
      writes_doubled: doubled.length,
      kill_window_ms: backAt - killedAt,
    });

    expect(rows_stored).toBe(ledger.size);
    expect(figures.duplicates).toBe(0);
    expect(missing).toBe(0);
    expect(events.length).toBeGreaterThan(0);
    expect(firedTwice).toBe(0);
    expect(events.filter((e) => e.status !== 'SENT')).toEqual([]);
    // Every event reached its chat (one chat per trigger's company).
    const chatOfTrigger = new Map(triggers.map((t) => [t.trigger_cuid, t.chat]));
    expect(received.size).toBe(events.length);
    expect(deliveries.filter((d) => d.status !== 'SENT')).toEqual([]);
    expect([...received.keys()].every((k) => [...chatOfTrigger.values()].includes(k.split('|')[0]))).toBe(true);
    expect(commandIds.length).toBeGreaterThan(0);
    expect(stuck).toBe(0);
    expect(answeredMissing).toEqual([]);
    expect(doubled).toEqual([]);
    // Only the kill window may fail, and only as the proxy's "the server went away" answers.
    expect(failed.filter((c) => !failedDuringKill.includes(c))).toEqual([]);
    expect(failedDuringKill.filter((c) => !(c.status === 502 || c.status === 503 || (c.status === 0 && c.error)))).toEqual([]);
    // At least once across a crash: a message the killed instance had handed to the peer but not yet
    // marked SENT goes again from the survivor (Telegram's API takes no idempotency key). Such a
    // duplicate is never silent: the portal counted it when it took the delivery over (`duplicates`);
    // a chat's messages go one at a time, so at most the one in flight at the kill per chat is
    // doubled, and none more than twice. With no kill there are none (test/alerts/outbox-leases.spec.ts).
    expect(deliveryDuplicates).toBeLessThanOrEqual(deliveries.reduce((s, d) => s + d.duplicates, 0));
    const doubledPerChat = new Map<string, number>();
    for (const [k, n] of received) if (n > 1) doubledPerChat.set(k.split('|')[0], (doubledPerChat.get(k.split('|')[0]) ?? 0) + 1);
    expect([...doubledPerChat.values()].filter((n) => n > 1)).toEqual([]);
    expect([...received.values()].filter((n) => n > 2)).toEqual([]);
  }, 600_000);

  it('the login brake counts failures made on both instances together', async () => {
    const direct = (name: string) => {
      const inst = cluster.instances.find((i) => i.name === name)!;
      return new HttpClient(`http://127.0.0.1:${inst.port}`, { 'x-forwarded-for': '203.0.113.77' });
    };
    const statuses: number[] = [];
    // 10 wrong guesses (the per-account limit from one address), alternating a, b, a, b, …: 5 each.
    for (let i = 0; i < 10; i++) statuses.push((await direct(i % 2 ? 'b' : 'a').login('expert@demo.local', `guess-${i}`)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    // Each instance saw only 5, but the brake counts 10: both now refuse, even the right password.
    const a = await direct('a').login('expert@demo.local');
    const b = await direct('b').login('expert@demo.local');
    expect([a.status, b.status]).toEqual([429, 429]);
    figures.login_brake = { failures: 10, instances: 2, answers_after: [a.status, b.status] };
  });
});

async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
