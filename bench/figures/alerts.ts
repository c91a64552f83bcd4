import { connectAsync } from 'mqtt';
import { Client } from 'pg';
import { newCuid } from '../../server/src/common/ids';
import { openDatabase } from '../../server/src/database/data-source';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { generateControllers, loadFleet } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { HttpClient } from '../../test/factories/http-client';
import { startMosquitto } from '../../test/factories/mosquitto';
import { spawnTelemetryServer, type SpawnedServer } from '../../test/factories/spawn-server';
import { openStream } from '../../test/factories/sse';
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
        args.push(JSON.stringify({ kind: 'threshold', entity_cuid: p.entity_cuid, parameter_id: p.parameter_id, op: 'above', value: 5 + (i % 7), release_value: 4, for_seconds: 0, release_for_seconds: 0 }));
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
      await pg.query(
        `SELECT e.entity_cuid, e.system_cuid FROM entity e WHERE e.controller_id = $1 AND e.entitytype_id = 'pylontech-us5000'`,
        [DEMO_CONTROLLER_ID],
      )
    ).rows as { entity_cuid: string; system_cuid: string }[];
    if (!battery) throw new Error('alert_latency: the demo battery is missing');
    await pg.query(`DELETE FROM notification_trigger WHERE system_cuid = $1`, [battery.system_cuid]);
    await pg.query(
      `INSERT INTO notification_trigger (trigger_cuid, name, message, release_message, severity_level, system_cuid, args, is_active)
       VALUES ($1, 'Battery high (bench)', 'Battery at {value} {unit}', 'Battery back at {value} {unit}', 'WARNING', $2, $3, true)`,
      [
        newCuid(),
        battery.system_cuid,
        JSON.stringify({ kind: 'threshold', entity_cuid: battery.entity_cuid, parameter_id: 'battery_soc', op: 'above', value: 60, release_value: 40, for_seconds: 0, release_for_seconds: 0 }),
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
