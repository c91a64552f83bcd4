import { connectAsync, type MqttClient } from 'mqtt';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openDatabase } from '../../server/src/database/data-source';
import { generateControllers, loadFleet } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { startMosquitto } from '../../test/factories/mosquitto';
import { spawnTelemetryServer } from '../../test/factories/spawn-server';
import { type BenchContext, type FigureResult, median, scratchDatabase } from '../lib';

/**
 * Figure `ingest`: durable rows per second through MQTT into PostgreSQL, sustained for
 * BENCH_INGEST_SECONDS (default 60), next to a raw COPY of the same rows into the same table.
 *
 * The built server runs in its own process with MQTT_URL pointing at a Mosquitto of the bench's
 * own. CONTROLLERS simulated controllers publish QoS 1 batches of ROWS_PER_MESSAGE rows and keep
 * WINDOW batches outstanding each, closed-loop on the portal's replies: a reply is published only
 * after the batch's transaction committed (rows and rollups), so the rows it reports accepted are
 * durable. Rows/s = accepted rows reported during the window / window length.
 * Baseline: the very rows accepted in the round, COPY'd (pg-copy-streams, one stream) into the
 * emptied parameter_log (same indexes and foreign keys; no rollups). ratio = ours / COPY.
 */
export const CONTROLLERS = 40;
const ROWS_PER_MESSAGE = 500;
const WINDOW = 3;
const CONNECTIONS = 4;
const WARMUP_SECONDS = 5;

export interface Series {
  entity_cuid: string;
  parameter_id: string;
}

/** The rows of message `seq` of controller `ci`: consecutive seconds of all its series (deterministic). */
function messageRows(series: Series[], ci: number, seq: number, t0: number): { e: string; p: string; t: number; v: number }[] {
  const steps = Math.ceil(ROWS_PER_MESSAGE / series.length);
  const out: { e: string; p: string; t: number; v: number }[] = [];
  for (let s = seq * steps; s < (seq + 1) * steps; s++) {
    for (let j = 0; j < series.length; j++) {
      out.push({ e: series[j].entity_cuid, p: series[j].parameter_id, t: t0 + s * 1000, v: (ci * 31 + s * 7 + j * 13) % 2 }); // 0/1: valid for every parameter type
    }
  }
  return out;
}

const payloadOf = (batch_id: string, rows: { e: string; p: string; t: number; v: number }[]): string =>
  `{"batch_id":"${batch_id}","rows":[${rows.map((r) => `{"timestamp":${r.t},"entity_cuid":"${r.e}","parameter_id":"${r.p}","value":${r.v}}`).join(',')}]}`;

export async function ingestFigure(ctx: BenchContext): Promise<FigureResult> {
  const seconds = Number(process.env.BENCH_INGEST_SECONDS ?? 60);
  const db = await scratchDatabase(ctx.serverUrl, 'ingest');
  const broker = await startMosquitto();
  let server: Awaited<ReturnType<typeof spawnTelemetryServer>> | undefined;
  try {
    server = await spawnTelemetryServer({
      DATABASE_URL: db.url,
      SEED_DEMO: 'true',
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: 'portal-bench',
      DATABASE_POOL_SIZE: '10',
    });
    const admin = await openDatabase({ url: db.url, poolSize: 2 }, false);
    let fleet: SimController[];
    try {
      await generateControllers(admin.dataSource, CONTROLLERS);
      fleet = await loadFleet(admin.dataSource, { pattern: '^sim-ctrl-' });
    } finally {
      await admin.close();
    }
    const series = fleet.map((c) => c.entities.flatMap((e) => e.parameters.map((parameter_id) => ({ entity_cuid: e.entity_cuid, parameter_id }))));
    ctx.log(`ingest: ${fleet.length} controllers, ${series[0].length} series each, ${ROWS_PER_MESSAGE} rows per message, window ${WINDOW}`);

    const ours: number[] = [];
    const copies: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      // Each round starts on empty tables with fresh timestamps (inside the backfill window).
      const pg = new Client({ connectionString: db.url });
      await pg.connect();
      await pg.query(`TRUNCATE parameter_log, parameter_rollup_5m, parameter_rollup_1h, parameter_rollup_1d`);
      const t0 = Math.floor((Date.now() - 20 * 86_400_000) / 1000) * 1000;
      const result = await runLoad(broker.url, fleet, series, t0, seconds);
      const rate = result.windowRows / seconds;
      const [{ n }] = (await pg.query(`SELECT count(*)::int AS n FROM parameter_log`)).rows;
      if (n < result.totalRows) throw new Error(`replies reported ${result.totalRows} rows accepted but ${n} are stored`);

      // Baseline: the same rows, COPY'd into the emptied table.
      await pg.query(`TRUNCATE parameter_log, parameter_rollup_5m, parameter_rollup_1h, parameter_rollup_1d`);
      await pg.query('CHECKPOINT');
      const started = process.hrtime.bigint();
      const source = Readable.from(
        (function* () {
          for (let ci = 0; ci < fleet.length; ci++) {
            for (let seq = 0; seq < result.acked[ci]; seq++) {
              yield messageRows(series[ci], ci, seq, t0)
                .map((r) => `${r.e}\t${r.p}\t${new Date(r.t).toISOString()}\t\\N\t\\N\t${r.v}\n`)
                .join('');
            }
          }
        })(),
      );
      await pipeline(source, pg.query(copyFrom(`COPY parameter_log (entity_cuid, parameter_id, "timestamp", min, max, value) FROM STDIN`)));
      const copySeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const copied = (await pg.query(`SELECT count(*)::int AS n FROM parameter_log`)).rows[0].n as number;
      await pg.end();
      const copyRate = copied / copySeconds;
      ours.push(rate);
      copies.push(copyRate);
      ctx.log(
        `ingest round ${round}: ${rate.toFixed(0)} durable rows/s over ${seconds} s (${result.totalRows} rows incl. warm-up, p99 batch round trip ${result.p99Ms.toFixed(0)} ms); ` +
          `COPY of the same ${copied} rows ${copyRate.toFixed(0)} rows/s`,
      );
    }
    const value = Math.round(median(ours));
    const baseline = Math.round(median(copies));
    return {
      figure: 'ingest',
      value,
      unit: 'rows/s',
      baseline,
      ratio: Number((value / baseline).toFixed(3)),
      notes: `MQTT QoS 1 via Mosquitto → ack after commit (+ 5m/1h/1d rollups), ${CONTROLLERS} controllers × ${WINDOW} × ${ROWS_PER_MESSAGE} rows, ${seconds} s × ${ctx.rounds}; baseline = COPY of the same rows`,
    };
  } finally {
    await server?.stop();
    await broker.stop();
    await db.drop();
  }
}

/** Closed-loop publishing for `seconds` after a warm-up; counts rows the portal reports accepted. */
export async function runLoad(url: string, fleet: SimController[], series: Series[][], t0: number, seconds: number) {
  const clients: MqttClient[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    clients.push(await connectAsync(url, { clientId: `bench-pub-${i}`, protocolVersion: 4, clean: true }));
  }
  const replies = await connectAsync(url, { clientId: 'bench-replies', protocolVersion: 4, clean: true });
  await replies.subscribeAsync('portal/v1/+/reply', { qos: 1 });
  const acked = fleet.map(() => 0);
  const sent = fleet.map(() => 0);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const state = { windowRows: 0, totalRows: 0, measuring: false, stopping: false, error: undefined as Error | undefined };
  const index = new Map(fleet.map((c, i) => [c.controller_id, i]));

  const publishNext = (ci: number) => {
    if (state.stopping) return;
    const seq = sent[ci]++;
    const batch_id = `${ci}-${seq}`;
    sentAt.set(batch_id, Date.now());
    clients[ci % CONNECTIONS].publish(`portal/v1/${fleet[ci].controller_id}/telemetry`, payloadOf(batch_id, messageRows(series[ci], ci, seq, t0)), { qos: 1 });
  };
  let inFlight = 0;
  const drained = new Promise<void>((resolve) => {
    replies.on('message', (topic, payload) => {
      const reply = JSON.parse(payload.toString()) as { batch_id?: string; accepted?: number; rejected?: unknown[] };
      const ci = index.get(topic.split('/')[2]);
      if (ci === undefined || !reply.batch_id) return;
      if (reply.rejected?.length && !state.error) {
        state.error = new Error(`rows refused: ${JSON.stringify(reply.rejected.slice(0, 3))}`);
        state.stopping = true;
      }
      inFlight--;
      const seq = Number(reply.batch_id.split('-')[1]);
      acked[ci] = Math.max(acked[ci], seq + 1);
      state.totalRows += reply.accepted ?? 0;
      if (state.measuring) state.windowRows += reply.accepted ?? 0;
      const at = sentAt.get(reply.batch_id);
      if (at !== undefined) {
        latencies.push(Date.now() - at);
        sentAt.delete(reply.batch_id);
      }
      if (!state.stopping) {
        inFlight++;
        publishNext(ci);
      } else if (inFlight === 0) resolve();
    });
  });
  for (let ci = 0; ci < fleet.length; ci++) {
    for (let w = 0; w < WINDOW; w++) {
      inFlight++;
      publishNext(ci);
    }
  }
  await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
  state.measuring = true;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  state.measuring = false;
  state.stopping = true;
  await Promise.race([drained, new Promise((r) => setTimeout(r, 60_000))]);
  await Promise.all([...clients, replies].map((c) => c.endAsync()));
  if (state.error) throw state.error;
  // Messages are acknowledged in order per controller, so acked[ci] = every message below it was stored.
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  return { windowRows: state.windowRows, totalRows: state.totalRows, acked, p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99) };
}
