import superjson from 'superjson';
import { isSuperUser } from '../../shared/access/policy';
import type { Actor } from '../../shared/access/policy';
import { openDatabase } from '../../server/src/database/data-source';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { SystemAccessRepository } from '../../server/src/systems/system-access.repository';
import { SystemAccessService } from '../../server/src/systems/system-access.service';
import type { ValidParameterRow } from '../../server/src/telemetry/ingest-validator';
import { spawnTelemetryServer } from '../../test/factories/spawn-server';
import { TelemetryQueryRepository } from '../../server/src/telemetry/telemetry-query.repository';
import { TelemetryQueryService } from '../../server/src/telemetry/telemetry-query.service';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { TelemetryWriterRepository } from '../../server/src/telemetry/telemetry-writer.repository';
import type { TSeriesInput } from '../../server/src/telemetry/telemetry.schema';
import { type BenchContext, type FigureResult, loginCookie, median, scratchDatabase } from '../lib';

/**
 * Figure `series`: p99 latency of telemetry.series for 1,000 points out of a year of one-minute
 * data (525,600 rows of one parameter), over HTTP as the browser calls it (tRPC GET, session
 * cookie, superjson), on PostgreSQL. The data goes in through the ingest writer, so the rollups
 * are the ones ingest keeps.
 * Baseline: the same answer (same buckets) aggregated from the raw rows. The raw path has no
 * HTTP procedure, so the ratio compares like with like: raw p99 / ours p99, both through the same
 * query service in the bench process (only the stored resolution read differs). The figure's
 * value is the p99 over HTTP, what a chart waits for.
 */
const MINUTES_PER_YEAR = 525_600;
const POINTS = 1000;

const p99 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)];
};

export async function seriesFigure(ctx: BenchContext): Promise<FigureResult> {
  const db = await scratchDatabase(ctx.serverUrl, 'series');
  let server: Awaited<ReturnType<typeof spawnTelemetryServer>> | undefined;
  try {
    server = await spawnTelemetryServer({ DATABASE_URL: db.url, SEED_DEMO: 'true', MQTT_PORT: '0' });
    const local = await openDatabase({ url: db.url, poolSize: 4 }, false);
    try {
      const ds = local.dataSource;
      const [battery] = await ds.query<{ entity_cuid: string; timezone: string }[]>(
        `SELECT e.entity_cuid, s.timezone FROM entity e JOIN system s ON s.system_cuid = e.system_cuid WHERE e.controller_id = $1 AND e.entitytype_id = 'pylontech-us5000'`,
        [DEMO_CONTROLLER_ID],
      );

      // A year of one-minute samples, ending at the last whole minute.
      const end = Math.floor(Date.now() / 60_000) * 60_000;
      const start = end - MINUTES_PER_YEAR * 60_000;
      const writer = new TelemetryWriter(new TelemetryWriterRepository(ds));
      const loadStarted = Date.now();
      for (let i = 0; i < MINUTES_PER_YEAR; i += 10_000) {
        const rows: { seg: number; row: ValidParameterRow }[] = [];
        for (let k = i; k < Math.min(i + 10_000, MINUTES_PER_YEAR); k++) {
          const t = start + k * 60_000;
          rows.push({
            seg: 0,
            row: {
              index: k,
              entity_cuid: battery.entity_cuid,
              parameter_id: 'battery_soc',
              ts: new Date(t),
              min: null,
              max: null,
              value: 50 + 40 * Math.sin(t / 43_200_000) + (k % 13) / 10,
              tz: battery.timezone,
            },
          });
        }
        await writer.write({ rows, standard: [], states: [] });
      }
      await ds.query(`VACUUM ANALYZE parameter_log`);
      await ds.query(`VACUUM ANALYZE parameter_rollup_5m, parameter_rollup_1h, parameter_rollup_1d`);
      ctx.log(`series: loaded ${MINUTES_PER_YEAR} one-minute rows with their rollups in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`);

      const input: TSeriesInput = {
        entity_cuid: battery.entity_cuid,
        parameter_ids: ['battery_soc'],
        from: new Date(start),
        to: new Date(end),
        points: POINTS,
      };
      // Ours, over HTTP with a Basic user's session.
      const cookie = await loginCookie(server.baseUrl, 'basic@demo.local');
      const url = `${server.baseUrl}/api/trpc/telemetry.series?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`;
      const viaHttp = async () => {
        const t = process.hrtime.bigint();
        const res = await fetch(url, { headers: { cookie } });
        const body = (await res.json()) as { result?: { data: unknown } };
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (res.status !== 200 || !body.result) throw new Error(`telemetry.series answered ${res.status}`);
        return {
          ms,
          answer: superjson.deserialize<{ resolution: string; series: { points: { t: number; avg: number; count: number }[] }[] }>(body.result.data as never),
        };
      };
      // The baseline: the same plan, read from parameter_log.
      const queries = new TelemetryQueryService(new TelemetryQueryRepository(ds), new SystemAccessService(new SystemAccessRepository(ds)));
      const [member] = await ds.query<{ user_cuid: string; company_cuid: string; level: number; is_company_admin: boolean }[]>(
        `SELECT m.user_cuid, m.company_cuid, r.level, m.is_company_admin FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid JOIN "user" u ON u.user_cuid = m.user_cuid WHERE u.email = 'basic@demo.local'`,
      );
      const actor: Actor = { user_cuid: member.user_cuid, memberships: [member] };
      if (isSuperUser(actor)) throw new Error('the bench actor must be an ordinary member');
      const plan = queries.plan(input, battery.timezone, battery.timezone);
      const fromRaw = async () => {
        const t = process.hrtime.bigint();
        const answer = await queries.series(actor, 'systems.view', input, { resolution: 'raw', plan });
        return { ms: Number(process.hrtime.bigint() - t) / 1e6, answer };
      };
      const inProcess = async () => {
        const t = process.hrtime.bigint();
        await queries.series(actor, 'systems.view', input);
        return Number(process.hrtime.bigint() - t) / 1e6;
      };

      // Same answer?
      const a = (await viaHttp()).answer;
      const b = (await fromRaw()).answer;
      const pa = a.series[0].points;
      const pb = b.series[0].points;
      if (pa.length !== pb.length || pa.some((p, i) => p.t !== pb[i].t || p.count !== pb[i].count || Math.abs(p.avg - pb[i].avg) > 1e-9)) {
        const i = pa.findIndex((p, k) => !pb[k] || p.t !== pb[k].t || p.count !== pb[k].count || Math.abs(p.avg - pb[k].avg) > 1e-9);
        throw new Error(
          `the rollup answer and the raw answer differ (${pa.length} vs ${pb.length} points; #${i}: ${JSON.stringify(pa[i])} vs ${JSON.stringify(pb[i])})`,
        );
      }
      ctx.log(`series: ${pa.length} points from the ${a.resolution} rollup (${plan.widthMs / 3_600_000} h buckets)`);

      const calls = Math.max(200, ctx.durationSeconds * 10);
      const rawCalls = 50;
      for (let i = 0; i < 20; i++) await viaHttp(); // warm-up
      for (let i = 0; i < 3; i++) await fromRaw();
      for (let i = 0; i < 20; i++) await inProcess();
      const ours: number[] = [];
      const oursMedian: number[] = [];
      const service: number[] = [];
      const raws: number[] = [];
      for (let round = 1; round <= ctx.rounds; round++) {
        const o: number[] = [];
        for (let i = 0; i < calls; i++) o.push((await viaHttp()).ms);
        const q: number[] = [];
        for (let i = 0; i < calls; i++) q.push(await inProcess());
        const r: number[] = [];
        for (let i = 0; i < rawCalls; i++) r.push((await fromRaw()).ms);
        ours.push(p99(o));
        oursMedian.push(median(o));
        service.push(p99(q));
        raws.push(p99(r));
        ctx.log(
          `series round ${round}: over HTTP p99 ${p99(o).toFixed(1)} ms (median ${median(o).toFixed(1)} ms, ${calls} calls); ` +
            `query service p99 ${p99(q).toFixed(1)} ms (median ${median(q).toFixed(1)} ms); from raw rows p99 ${p99(r).toFixed(1)} ms (median ${median(r).toFixed(1)} ms, ${rawCalls} calls)`,
        );
      }
      const value = Number(median(ours).toFixed(1));
      const ourService = Number(median(service).toFixed(1));
      const baseline = Number(median(raws).toFixed(1));
      return {
        figure: 'series',
        value,
        unit: 'ms p99',
        p99_ms: value,
        baseline,
        ratio: Number((baseline / ourService).toFixed(1)),
        notes: `${POINTS} points of a year of 1-min data (${MINUTES_PER_YEAR} rows); value = p99 over HTTP (median ${median(oursMedian).toFixed(1)} ms); ratio = raw p99 / rollup p99 (${ourService} ms), both through the query service`,
      };
    } finally {
      await local.close();
    }
  } finally {
    await server?.stop();
    await db.drop();
  }
}
