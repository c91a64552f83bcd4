import { Client } from 'pg';
import { newCuid } from '../../server/src/common/ids';
import { openDatabase } from '../../server/src/database/data-source';
import { generateControllers, loadFleet } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { startMosquitto } from '../../test/factories/mosquitto';
import { spawnTelemetryServer } from '../../test/factories/spawn-server';
import { type BenchContext, type FigureResult, median, scratchDatabase } from '../lib';
import { CONTROLLERS, runLoad } from './ingest';

/**
 * Figure `alert_eval`: durable ingest rows/s (the `ingest` load: MQTT QoS 1 through Mosquitto, ack
 * after commit) with ALERT_TRIGGERS (default 10,000) active threshold triggers on the ingested
 * series, next to the same load with none; ratio = with / without (goal ≥ 0.8). The thresholds are
 * never crossed (values 0/1, trigger above 1e9): the figure is the engine's cost per watched row.
 * Each round runs both, alternating which goes first; the server's index picks the triggers up
 * through its periodic check (ALERTS_INDEX_CHECK_SECONDS=1).
 */
export async function alertEvalFigure(ctx: BenchContext): Promise<FigureResult> {
  const seconds = Number(process.env.BENCH_INGEST_SECONDS ?? 60);
  const count = Number(process.env.ALERT_TRIGGERS ?? 10_000);
  const db = await scratchDatabase(ctx.serverUrl, 'alert_eval');
  const broker = await startMosquitto();
  let server: Awaited<ReturnType<typeof spawnTelemetryServer>> | undefined;
  try {
    server = await spawnTelemetryServer({
      DATABASE_URL: db.url,
      SEED_DEMO: 'true',
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: 'portal-bench',
      DATABASE_POOL_SIZE: '10',
      ALERTS_INDEX_CHECK_SECONDS: '1',
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
    const all = series.flat();
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const systems = new Map(((await pg.query(`SELECT entity_cuid, system_cuid FROM entity`)).rows as { entity_cuid: string; system_cuid: string }[]).map((r) => [r.entity_cuid, r.system_cuid]));
    const setTriggers = async (on: boolean) => {
      await pg.query(`DELETE FROM notification_trigger WHERE name = 'bench'`);
      if (on) {
        const picked = Array.from({ length: count }, (_, i) => all[i % all.length]);
        await pg.query(
          `INSERT INTO notification_trigger (trigger_cuid, name, message, system_cuid, args)
           SELECT u.id, 'bench', 'bench', u.s, u.a::jsonb FROM unnest($1::varchar[], $2::varchar[], $3::text[]) AS u(id, s, a)`,
          [
            picked.map(() => newCuid()),
            picked.map((p) => systems.get(p.entity_cuid)),
            picked.map((p) => JSON.stringify({ kind: 'threshold', entity_cuid: p.entity_cuid, parameter_id: p.parameter_id, op: 'above', value: 1e9 })),
          ],
        );
      }
      if (!on) return new Promise<void>((r) => setTimeout(r, 3000)); // the server's index check (1 s) and reload
      // The server has indexed them once it made their status rows (at load).
      for (let waited = 0; ; waited += 500) {
        const [{ n }] = (await pg.query(`SELECT count(*)::int AS n FROM notification_trigger_status s JOIN notification_trigger t ON t.trigger_cuid = s.trigger_cuid WHERE t.name = 'bench'`)).rows;
        if (n === count) break;
        if (waited > 60_000) throw new Error(`the server indexed ${n} of ${count} triggers`);
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    ctx.log(`alert_eval: ${count} threshold triggers over ${all.length} series of ${fleet.length} controllers`);
    const withRates: number[] = [];
    const withoutRates: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      for (const on of round % 2 ? [true, false] : [false, true]) {
        await pg.query(`TRUNCATE parameter_log, parameter_rollup_5m, parameter_rollup_1h, parameter_rollup_1d`);
        await setTriggers(on);
        const t0 = Math.floor((Date.now() - 20 * 86_400_000) / 1000) * 1000 + round * 3_600_000;
        const result = await runLoad(broker.url, fleet, series, t0, seconds);
        const rate = result.windowRows / seconds;
        (on ? withRates : withoutRates).push(rate);
        ctx.log(`alert_eval round ${round} ${on ? `with ${count} triggers` : 'without triggers'}: ${rate.toFixed(0)} durable rows/s (p99 batch round trip ${result.p99Ms.toFixed(0)} ms)`);
      }
    }
    await pg.end();
    const value = Math.round(median(withRates));
    const baseline = Math.round(median(withoutRates));
    return {
      figure: 'alert_eval',
      value,
      unit: 'rows/s',
      baseline,
      ratio: Number((value / baseline).toFixed(3)),
      notes: `ingest load with ${count} active threshold triggers on the ingested series vs none, ${seconds} s × ${ctx.rounds}; goal ratio ≥ 0.8`,
    };
  } finally {
    await server?.stop();
    await broker.stop();
    await db.drop();
  }
}
