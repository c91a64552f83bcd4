import { connectAsync } from 'mqtt';
import { Client } from 'pg';
import { newCuid } from '../../server/src/common/ids';
import { openDatabase } from '../../server/src/database/data-source';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { generateControllers, loadFleet } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { HttpClient } from '../../test/factories/http-client';
import { startMosquitto } from '../../test/factories/mosquitto';
import { spawnTelemetryServer, type SpawnedServer } from '../../test/factories/spawn-server';
import { openStream } from '../../test/factories/sse';
import { TelegramPeer } from '../../test/factories/telegram-peer';
import { type BenchContext, type FigureResult, median, scratchDatabase } from '../lib';
import { CONTROLLERS, runLoad, type Series } from './ingest';

/**
 * The alert figures, on PostgreSQL and a Mosquitto of the bench's own, with the built server in its
 * own process (as `ingest`).
 *
 * - `alert_eval`: durable ingest rows/s (closed-loop MQTT load of `ingest`) with 10,000 active
 *   threshold triggers on the ingested (device, parameter) pairs, next to the same load with none,
 *   rounds alternating which goes first; ratio = with / without. The thresholds are never crossed
 *   (the load sends 0/1): the figure is the engine's cost of judging every row, not the outbox's.
 * - `alert_latency`: while the `ingest` load runs in the background, a controller publishes a
 *   battery charge that crosses a threshold trigger's value (and its release value) 4 times a
 *   second; the time from each MQTT publish to the NOTIFICATION toast on a subscribed user's live
 *   stream (tRPC SSE, as the browser reads it), over ≥ 200 crossings.
 */

const EVAL_TRIGGERS = 10_000;

interface Setup {
  db: { url: string; drop(): Promise<void> };
  broker: Awaited<ReturnType<typeof startMosquitto>>;
  server: SpawnedServer;
  fleet: SimController[];
  series: Series[][];
}

async function setUp(ctx: BenchContext, label: string, env: Record<string, string> = {}): Promise<Setup> {
  const db = await scratchDatabase(ctx.serverUrl, label);
  const broker = await startMosquitto();
  const server = await spawnTelemetryServer({
    DATABASE_URL: db.url,
    SEED_DEMO: 'true',
    MQTT_URL: broker.url,
    MQTT_CLIENT_ID: `portal-bench-${label}`,
    DATABASE_POOL_SIZE: '10',
    ALERTS_INDEX_CHECK_SECONDS: '1',
    ...env,
  });
  const admin = await openDatabase({ url: db.url, poolSize: 2 }, false);
  try {
    await generateControllers(admin.dataSource, CONTROLLERS);
    const fleet = await loadFleet(admin.dataSource, { pattern: '^sim-ctrl-' });
    const series = fleet.map((c) => c.entities.flatMap((e) => e.parameters.map((parameter_id) => ({ entity_cuid: e.entity_cuid, parameter_id }))));
    return { db, broker, server, fleet, series };
  } finally {
    await admin.close();
  }
}

async function tearDown(s: Partial<Setup>): Promise<void> {
  await s.server?.stop();
  await s.broker?.stop();
  await s.db?.drop();
}

/** Triggers written with SQL reach the server's engine on its next index check (ALERTS_INDEX_CHECK_SECONDS=1): wait three. */
const settleEngine = () => new Promise((r) => setTimeout(r, 3000));

export async function alertEvalFigure(ctx: BenchContext): Promise<FigureResult> {
  const seconds = Number(process.env.BENCH_INGEST_SECONDS ?? 30);
  const s: Partial<Setup> = {};
  try {
    Object.assign(s, await setUp(ctx, 'alert_eval'));
    const { fleet, series, db, broker } = s as Setup;
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    // The demo's own triggers (its controller goes OFFLINE here: nobody drives it) stay out of it.
    await pg.query(`DELETE FROM notification_trigger`);
    const pairs = series.flat();
    const systemOf = new Map(fleet.flatMap((c) => c.entities.map((e) => [e.entity_cuid, c.system_cuid])));
    ctx.log(`alert_eval: ${pairs.length} ingested series; ${EVAL_TRIGGERS} threshold triggers spread over them`);
    const withTriggers: number[] = [];
    const without: number[] = [];
    const run = async (label: string) => {
      await pg.query(`TRUNCATE parameter_log, parameter_rollup_5m, parameter_rollup_1h, parameter_rollup_1d`);
      const t0 = Math.floor((Date.now() - 20 * 86_400_000) / 1000) * 1000;
      const result = await runLoad(broker.url, fleet, series, t0, seconds);
      const rate = result.windowRows / seconds;
      ctx.log(`alert_eval ${label}: ${rate.toFixed(0)} durable rows/s (p99 batch round trip ${result.p99Ms.toFixed(0)} ms)`);
      return rate;
    };
    const addTriggers = async () => {
      const ids: string[] = [];
      const systems: string[] = [];
      const args: string[] = [];
      for (let i = 0; i < EVAL_TRIGGERS; i++) {
        const p = pairs[i % pairs.length];
        ids.push(newCuid());
        systems.push(systemOf.get(p.entity_cuid)!);
        args.push(
          JSON.stringify({
            kind: 'threshold',
            entity_cuid: p.entity_cuid,
            parameter_id: p.parameter_id,
            op: 'above',
            value: 5 + (i % 7),
            release_value: 4,
            for_seconds: 0,
            release_for_seconds: 0,
          }),
        );
      }
      await pg.query(
        `INSERT INTO notification_trigger (trigger_cuid, name, message, severity_level, system_cuid, args, is_active)
         SELECT id, 'bench ' || id, 'value {value}', 'WARNING', sys, a::jsonb, true FROM unnest($1::varchar[], $2::varchar[], $3::text[]) AS t(id, sys, a)`,
        [ids, systems, args],
      );
      await settleEngine();
    };
    const dropTriggers = async () => {
      await pg.query(`DELETE FROM notification_trigger WHERE name LIKE 'bench %'`);
      await settleEngine();
    };
    for (let round = 1; round <= ctx.rounds; round++) {
      if (round % 2) {
        without.push(await run(`round ${round} without triggers`));
        await addTriggers();
        withTriggers.push(await run(`round ${round} with ${EVAL_TRIGGERS} triggers`));
        await dropTriggers();
      } else {
        await addTriggers();
        withTriggers.push(await run(`round ${round} with ${EVAL_TRIGGERS} triggers`));
        await dropTriggers();
        without.push(await run(`round ${round} without triggers`));
      }
    }
    const [{ n: events }] = (await pg.query(`SELECT count(*)::int AS n FROM notification_trigger_event`)).rows;
    await pg.end();
    if (events !== 0) throw new Error(`alert_eval: the thresholds are never crossed, yet ${events} events were written`);
    const value = Math.round(median(withTriggers));
    const baseline = Math.round(median(without));
    return {
      figure: 'alert_eval',
      value,
      unit: 'rows/s',
      baseline,
      ratio: Number((value / baseline).toFixed(3)),
      notes: `ingest load of \`ingest\` with ${EVAL_TRIGGERS} active threshold triggers on its series vs none, ${seconds} s × ${ctx.rounds}; goal ratio ≥ 0.8`,
    };
  } finally {
    await tearDown(s);
  }
}

export async function alertLatencyFigure(ctx: BenchContext): Promise<FigureResult> {
  const crossings = Number(process.env.BENCH_ALERT_CROSSINGS ?? 240);
  const perSecond = 4;
  const s: Partial<Setup> = {};
  try {
    Object.assign(s, await setUp(ctx, 'alert_latency'));
    const { fleet, series, db, broker, server } = s as Setup;
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    // The demo battery's charge: TRIGGERED above 60 %, RELEASED below 40 %.
    const [battery] = (
      await pg.query(`SELECT e.entity_cuid, e.system_cuid FROM entity e WHERE e.controller_id = $1 AND e.entitytype_id = 'pylontech-us5000'`, [
        DEMO_CONTROLLER_ID,
      ])
    ).rows as { entity_cuid: string; system_cuid: string }[];
    if (!battery) throw new Error('alert_latency: the demo battery is missing');
    await pg.query(`DELETE FROM notification_trigger WHERE system_cuid = $1`, [battery.system_cuid]);
    await pg.query(
      `INSERT INTO notification_trigger (trigger_cuid, name, message, release_message, severity_level, system_cuid, args, is_active)
       VALUES ($1, 'Battery high (bench)', 'Battery at {value} {unit}', 'Battery back at {value} {unit}', 'WARNING', $2, $3, true)`,
      [
        newCuid(),
        battery.system_cuid,
        JSON.stringify({
          kind: 'threshold',
          entity_cuid: battery.entity_cuid,
          parameter_id: 'battery_soc',
          op: 'above',
          value: 60,
          release_value: 40,
          for_seconds: 0,
          release_for_seconds: 0,
        }),
      ],
    );
    await settleEngine();

    const user = new HttpClient(server.baseUrl);
    const login = await user.request('POST', '/api/auth/login', {
      body: JSON.stringify({ email: 'basic@demo.local', password: 'demo-password' }),
      headers: { 'content-type': 'application/json' },
    });
    if (login.status >= 300) throw new Error(`alert_latency: login failed (${login.status})`);
    const stream = await openStream(user, 'portalNotification.onEvent');
    const publisher = await connectAsync(broker.url, { clientId: 'bench-crossings', protocolVersion: 4, clean: true });

    // Background ingest for the whole measurement (its rate is reported beside the figure).
    const loadSeconds = Math.ceil(crossings / perSecond) + 10;
    const t0 = Math.floor((Date.now() - 20 * 86_400_000) / 1000) * 1000;
    const background = runLoad(broker.url, fleet, series, t0, loadSeconds);
    await new Promise((r) => setTimeout(r, 6000)); // past the load's warm-up

    const publishedAt = new Map<number, number>();
    let lastTs = 0;
    for (let i = 0; i < crossings; i++) {
      const ts = Math.max(Date.now(), lastTs + 1);
      lastTs = ts;
      const value = i % 2 === 0 ? 75 : 25;
      publishedAt.set(ts, performance.now() + performance.timeOrigin);
      publisher.publish(
        `portal/v1/${DEMO_CONTROLLER_ID}/telemetry`,
        JSON.stringify({ rows: [{ timestamp: ts, entity_cuid: battery.entity_cuid, parameter_id: 'battery_soc', value }] }),
        { qos: 1 },
      );
      await new Promise((r) => setTimeout(r, 1000 / perSecond));
    }
    const latencies: number[] = [];
    const deadline = Date.now() + 15_000;
    const seen = new Set<number>();
    const collect = () => {
      const events = stream.events as { kind: string; toast: { triggeredAt: { timestamp: Date }; alarm?: unknown } }[];
      for (let i = 0; i < events.length; i++) {
        const e = events[i];
        if (e.kind !== 'toast' || !e.toast.alarm) continue;
        const ts = new Date(e.toast.triggeredAt.timestamp).getTime();
        if (seen.has(ts)) continue;
        const at = publishedAt.get(ts);
        if (at === undefined) continue;
        seen.add(ts);
        latencies.push(stream.arrivals[i] - at);
      }
    };
    while (seen.size < crossings && Date.now() < deadline) {
      collect();
      await new Promise((r) => setTimeout(r, 100));
    }
    collect();
    const load = await background;
    await stream.close();
    await publisher.endAsync();
    await pg.end();
    const rate = load.windowRows / loadSeconds;
    if (latencies.length < Math.min(200, crossings)) {
      throw new Error(`alert_latency: only ${latencies.length} of ${crossings} crossings reached the live stream`);
    }
    latencies.sort((a, b) => a - b);
    const pick = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))].toFixed(1));
    ctx.log(`alert_latency: ${latencies.length} toasts of ${crossings} crossings; background ingest ${rate.toFixed(0)} rows/s`);
    return {
      figure: 'alert_latency',
      value: pick(0.5),
      unit: 'ms',
      p50_ms: pick(0.5),
      p95_ms: pick(0.95),
      p99_ms: pick(0.99),
      notes: `MQTT publish → NOTIFICATION toast on the SSE stream, ${latencies.length} crossings at ${perSecond}/s under ${rate.toFixed(0)} rows/s of background ingest; goal p95 ≤ 1000 ms`,
    };
  } finally {
    await tearDown(s);
  }
}

/**
 * `delivery`: Telegram messages/s out of the outbox of the built server, counted at a local Bot API
 * peer (test/factories/telegram-peer.ts, answering at once and enforcing nothing: it only checks
 * afterwards that the portal kept Telegram's limits). 100 Telegram channels, each linked to its own
 * group chat and to one trigger of the demo farm; per round a burst of BENCH_DELIVERY_EVENTS PENDING
 * events written as the engine writes them (one statement per wave, one event per trigger a wave),
 * timed from the first insert until the peer has every event's text. Baseline: the same burst on 100
 * triggers with no channel (each event gets its Notification row and its toasts and goes SENT),
 * timed until every event is SENT; ratio = with / without. Rounds alternate which goes first.
 * p50/p95: event insert → its message at the peer. The server runs with its defaults (grouping
 * window 2 s, ALERTS_GROUP_MIN 3): the notes say how many messages the peer got per chat and
 * whether any message grouped several alerts.
 */
const DELIVERY_CHATS = 100;

export async function deliveryFigure(ctx: BenchContext): Promise<FigureResult> {
  const events = Number(process.env.BENCH_DELIVERY_EVENTS ?? 200);
  const token = `7000001:bench-${newCuid()}`;
  let db: { url: string; drop(): Promise<void> } | undefined;
  let peer: TelegramPeer | undefined;
  let server: SpawnedServer | undefined;
  let pg: Client | undefined;
  try {
    db = await scratchDatabase(ctx.serverUrl, 'delivery');
    peer = await TelegramPeer.start(token);
    server = await spawnTelemetryServer({
      DATABASE_URL: db.url,
      SEED_DEMO: 'true',
      MQTT_PORT: '0',
      DATABASE_POOL_SIZE: '10',
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_API_URL: peer.url,
    });
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => (await pg!.query(sql, params)).rows as T[];
    const [farm] = await q<{ system_cuid: string; company_cuid: string; timezone: string }>(
      `SELECT system_cuid, company_cuid, timezone FROM system WHERE name = $1`,
      [DEMO_SYSTEMS.farm],
    );
    if (!farm) throw new Error('delivery: the demo farm is missing');
    // The demo's own triggers stay out of it (nothing drives its controller here).
    await q(`DELETE FROM notification_trigger`);
    const addTriggers = async (label: string): Promise<string[]> => {
      const ids = Array.from({ length: DELIVERY_CHATS }, () => newCuid());
      await q(
        `INSERT INTO notification_trigger (trigger_cuid, name, message, severity_level, system_cuid, args, is_active)
         SELECT id, $2 || ' ' || n, 'Alarm [{device}] at {value}{unit}', 'WARNING', $3, $4::jsonb, true
           FROM unnest($1::varchar[]) WITH ORDINALITY AS t(id, n)`,
        [ids, label, farm.system_cuid, JSON.stringify({ kind: 'threshold', entity_cuid: 'bench', parameter_id: 'battery_soc', op: 'below', value: 20 })],
      );
      return ids;
    };
    const linked = await addTriggers('bench linked');
    const unlinked = await addTriggers('bench unlinked');
    const channels = linked.map(() => newCuid());
    const chatOf = channels.map((_, i) => String(-1_001_000_000_000 - i));
    await q(
      `INSERT INTO notification_channel (channel_cuid, source, status, company_cuid)
       SELECT id, 'TELEGRAM', 'ACTIVE', $2 FROM unnest($1::varchar[]) AS t(id)`,
      [channels, farm.company_cuid],
    );
    await q(
      `INSERT INTO telegram_notification_channel (telegram_channel_cuid, channel_cuid, group_chat_id, group_chat_name, linked_at)
       SELECT $3 || n, id, chat, 'Bench group ' || n, now() FROM unnest($1::varchar[], $2::varchar[]) WITH ORDINALITY AS t(id, chat, n)`,
      [channels, chatOf, `tg${Date.now().toString(36)}`],
    );
    await q(
      `INSERT INTO notification_channel_to_trigger (channel_cuid, trigger_cuid, enabled)
       SELECT c, t, true FROM unnest($1::varchar[], $2::varchar[]) AS x(c, t)`,
      [channels, linked],
    );
    ctx.log(`delivery: ${DELIVERY_CHATS} Telegram channels linked to ${DELIVERY_CHATS} group chats; bursts of ${events} events`);

    /** Writes a burst; answers each device token's insert time (ms, epoch) and the event ids. */
    let burstNo = 0;
    const burst = async (triggers: string[]): Promise<{ t0: number; insertedAt: Map<string, number>; ids: string[] }> => {
      const b = ++burstNo;
      const insertedAt = new Map<string, number>();
      const ids: string[] = [];
      const t0 = Date.now();
      for (let wave = 0; wave * triggers.length < events; wave++) {
        const n = Math.min(triggers.length, events - wave * triggers.length);
        const waveIds = Array.from({ length: n }, () => newCuid());
        const values = waveIds.map((_, i) =>
          JSON.stringify({
            state: 'TRIGGERED',
            value: 12.5,
            threshold: 20,
            parameter: 'State of charge',
            unit: '%',
            device: `b${b}-${wave * triggers.length + i}`,
            system: DEMO_SYSTEMS.farm,
            system_cuid: farm.system_cuid,
            timezone: farm.timezone,
            time: new Date().toISOString(),
          }),
        );
        const at = Date.now();
        await q(
          `INSERT INTO notification_trigger_event (event_cuid, "timestamp", value, trigger_cuid, status)
           SELECT id, (v ->> 'time')::timestamptz, v, t, 'PENDING' FROM unnest($1::varchar[], $2::jsonb[], $3::varchar[]) AS x(id, v, t)`,
          [waveIds, values, triggers.slice(0, n)],
        );
        for (let i = 0; i < n; i++) insertedAt.set(`b${b}-${wave * triggers.length + i}`, at);
        ids.push(...waveIds);
      }
      return { t0, insertedAt, ids };
    };
    const allDone = async (ids: string[], timeoutMs: number) => {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const [{ open, archived }] = await q<{ open: number; archived: number }>(
          `SELECT count(*) FILTER (WHERE status NOT IN ('SENT', 'ARCHIVED'))::int AS open, count(*) FILTER (WHERE status = 'ARCHIVED')::int AS archived
             FROM notification_trigger_event WHERE event_cuid = ANY($1::varchar[])`,
          [ids],
        );
        if (archived) throw new Error(`delivery: ${archived} events ARCHIVED`);
        if (!open) return Date.now();
        if (Date.now() > end) throw new Error(`delivery: ${open} of ${ids.length} events still open after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    interface WithRound {
      rate: number;
      eventsPerSecond: number;
      p50: number;
      p95: number;
      messages: number;
      grouped: number;
      perChat: number[];
      spreadSeconds?: number;
    }
    const withDelivery = async (label: string): Promise<WithRound> => {
      const from = peer!.sent.length;
      const { t0, insertedAt, ids } = await burst(linked);
      const arrived = new Map<string, number>();
      const deadline = Date.now() + 60_000 + events * 200;
      let scanned = from;
      while (arrived.size < insertedAt.size) {
        for (; scanned < peer!.sent.length; scanned++) {
          const m = peer!.sent[scanned];
          for (const [, tok] of m.text.matchAll(/\[(b\d+-\d+)\]/g)) if (insertedAt.has(tok) && !arrived.has(tok)) arrived.set(tok, m.at);
        }
        if (Date.now() > deadline) throw new Error(`delivery ${label}: the peer got ${arrived.size} of ${insertedAt.size} alerts`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const last = Math.max(...arrived.values());
      const got = peer!.sent.slice(from);
      const seconds = (last - t0) / 1000;
      const delays = [...arrived].map(([tok, at]) => at - insertedAt.get(tok)!).sort((a, b) => a - b);
      const pick = (p: number) => delays[Math.min(delays.length - 1, Math.floor(delays.length * p))];
      const perChatMap = new Map<string, number>();
      for (const m of got) perChatMap.set(m.chat_id, (perChatMap.get(m.chat_id) ?? 0) + 1);
      const r: WithRound = {
        rate: got.length / seconds,
        eventsPerSecond: insertedAt.size / seconds,
        p50: pick(0.5),
        p95: pick(0.95),
        messages: got.length,
        grouped: got.filter((m) => (m.text.match(/\[b\d+-\d+\]/g) ?? []).length > 1).length,
        perChat: chatOf.map((c) => perChatMap.get(c) ?? 0),
      };
      await allDone(ids, 30_000); // the outbox closes its events before the next burst
      // How long the event loop took to turn the burst into deliveries (against the 2 s group window).
      const [{ spread }] = await q<{ spread: number }>(
        `SELECT COALESCE(extract(epoch FROM max(created_at) - min(created_at)), 0)::float8 AS spread FROM notification_delivery WHERE event_cuid = ANY($1::varchar[])`,
        [ids],
      );
      r.spreadSeconds = spread;
      ctx.log(
        `delivery ${label}: ${r.messages} messages for ${insertedAt.size} alerts in ${seconds.toFixed(2)} s = ${r.rate.toFixed(1)} msg/s; ` +
          `insert → peer p50 ${r.p50} ms, p95 ${r.p95} ms; ${r.grouped} grouped; per chat ${Math.min(...r.perChat)}–${Math.max(...r.perChat)}; ` +
          `deliveries written over ${spread.toFixed(2)} s`,
      );
      return r;
    };
    const withoutDelivery = async (label: string): Promise<number> => {
      const before = peer!.sent.length;
      const { t0, ids } = await burst(unlinked);
      const done = await allDone(ids, 60_000);
      const rate = ids.length / ((done - t0) / 1000);
      const [{ deliveries, notifications }] = await q<{ deliveries: number; notifications: number }>(
        `SELECT (SELECT count(*)::int FROM notification_delivery WHERE event_cuid = ANY($1::varchar[])) AS deliveries,
                (SELECT count(*)::int FROM notification_trigger_event WHERE event_cuid = ANY($1::varchar[]) AND notification_cuid IS NOT NULL) AS notifications`,
        [ids],
      );
      if (deliveries || peer!.sent.length !== before) throw new Error(`delivery ${label}: events without channels made deliveries`);
      if (notifications !== ids.length) throw new Error(`delivery ${label}: ${ids.length - notifications} events SENT without a Notification`);
      ctx.log(
        `delivery ${label}: ${ids.length} events SENT (Notification + toasts, no channel) in ${((done - t0) / 1000).toFixed(2)} s = ${rate.toFixed(0)} events/s`,
      );
      return rate;
    };

    await withoutDelivery('warm-up without channels');
    await withDelivery('warm-up with Telegram');
    const withRounds: WithRound[] = [];
    const withoutRounds: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      if (round % 2) {
        withoutRounds.push(await withoutDelivery(`round ${round} without channels`));
        withRounds.push(await withDelivery(`round ${round} with Telegram`));
      } else {
        withRounds.push(await withDelivery(`round ${round} with Telegram`));
        withoutRounds.push(await withoutDelivery(`round ${round} without channels`));
      }
    }
    const { tightestMs, ...limits } = peer.limitReport();
    const broken = limits.perChat + limits.perGroup + limits.overall;
    ctx.log(`delivery: limits at the peer, windows broken ${JSON.stringify(limits)}, tightest spans (ms) ${JSON.stringify(tightestMs)}`);
    const [{ duplicates, archived }] = await q<{ duplicates: number; archived: number }>(
      `SELECT COALESCE(sum(duplicates), 0)::int AS duplicates, count(*) FILTER (WHERE status = 'ARCHIVED')::int AS archived FROM notification_delivery`,
    );
    const allPerChat = withRounds.flatMap((r) => r.perChat);
    const grouped = withRounds.reduce((s, r) => s + r.grouped, 0);
    const value = Number(median(withRounds.map((r) => r.rate)).toFixed(1));
    const baseline = Number(median(withoutRounds).toFixed(1));
    return {
      figure: 'delivery',
      value,
      unit: 'msg/s',
      p50_ms: median(withRounds.map((r) => r.p50)),
      p95_ms: median(withRounds.map((r) => r.p95)),
      baseline,
      ratio: Number((value / baseline).toFixed(4)),
      notes:
        `${events} events in a burst over ${DELIVERY_CHATS} linked Telegram group chats, counted at the Bot API peer (${ctx.rounds} rounds); ` +
        `${median(withRounds.map((r) => r.eventsPerSecond)).toFixed(1)} alerts/s; per chat ${Math.min(...allPerChat)}–${Math.max(...allPerChat)} messages a round; ` +
        `grouping (ALERTS_GROUP_MIN 3, window 2 s) merged ${grouped ? `${grouped} messages` : 'none'} (the burst's deliveries were written over ${median(withRounds.map((r) => r.spreadSeconds ?? 0)).toFixed(2)} s); ` +
        `limits at the peer (1/s per chat, 20/min per group, 30/s overall): ${broken ? `BROKEN ${JSON.stringify(limits)}` : 'kept'}; ` +
        `${duplicates} duplicates, ${archived} archived; baseline = same burst, no channel (Notification + toasts, events/s)`,
    };
  } finally {
    await pg?.end().catch(() => undefined);
    await server?.stop();
    await peer?.close();
    await db?.drop();
  }
}
