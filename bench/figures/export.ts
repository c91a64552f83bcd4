import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { SqlParams } from '../../server/src/database/sql-params';
import { pivotSql } from '../../server/src/exports/export-thread-reads.repository';
import { spawnTelemetryServer } from '../../test/factories/spawn-server';
import { type BenchContext, type FigureResult, loginCookie, median, scratchDatabase } from '../lib';

/**
 * Figure `export`: rows/s of a one-year, one-minute, 10-parameter raw CSV export streamed over
 * HTTP (GET /api/exports/stream, a Basic user's session), on PostgreSQL: 525,600 rows × 10
 * parameters in parameter_log, written with INSERT … SELECT generate_series a month at a time.
 * Baseline: `COPY (<the same pivot query over the whole year>) TO STDOUT (FORMAT csv)` through
 * pg-copy-streams, the rows PostgreSQL alone can produce. ratio = export rows/s ÷ COPY rows/s.
 * Also the server's peak RSS growth during the export (VmRSS of its process, sampled every 50 ms).
 */
const MINUTES = 525_600;
const PARAMETERS = 10;

const rssMb = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

export async function exportFigure(ctx: BenchContext): Promise<FigureResult> {
  const db = await scratchDatabase(ctx.serverUrl, 'export');
  let server: Awaited<ReturnType<typeof spawnTelemetryServer>> | undefined;
  const client = new pg.Client({ connectionString: db.url });
  try {
    server = await spawnTelemetryServer({ DATABASE_URL: db.url, SEED_DEMO: 'true', MQTT_PORT: '0', EXPORT_POLL_MS: '0' });
    await client.connect();
    const [battery] = (
      await client.query(
        `SELECT e.entity_cuid, e.entitytype_id, e.system_cuid FROM entity e WHERE e.controller_id = $1 AND e.entitytype_id = 'pylontech-us5000'`,
        [DEMO_CONTROLLER_ID],
      )
    ).rows as { entity_cuid: string; entitytype_id: string; system_cuid: string }[];
    const params = Array.from({ length: PARAMETERS }, (_, i) => `bench_export_${i}`);
    for (const p of params) {
      await client.query(`INSERT INTO log_parameter (parameter_id, type, description) VALUES ($1, 'FloatLogParameter', $2)`, [p, `Bench parameter ${p}`]);
      await client.query(`INSERT INTO entity_type_log_parameter_assignment (entitylogparam_cuid, entitytype_id, parameter_id) VALUES ($1, $2, $3)`, [
        p.replace(/_/g, ''),
        battery.entitytype_id,
        p,
      ]);
    }
    const end = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    const start = end - MINUTES * 60_000;
    const loadStarted = Date.now();
    for (let t = start; t < end; t += 30 * 86_400_000) {
      const until = Math.min(end, t + 30 * 86_400_000);
      await client.query(
        `INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value)
         SELECT $1, p, ts, 50 + 40 * sin(extract(epoch FROM ts) / 43200 + length(p)) + (extract(minute FROM ts)::int % 13) / 10.0
           FROM unnest($2::varchar[]) AS p, generate_series($3::timestamptz, $4::timestamptz - interval '1 minute', interval '1 minute') AS ts`,
        [battery.entity_cuid, params, new Date(t), new Date(until)],
      );
    }
    // The job estimate reads the hourly rollup: fill it for the year (the stream does not need it).
    await client.query(
      `INSERT INTO parameter_rollup_1h (entity_cuid, parameter_id, bucket, min, max, sum, count, last, last_ts)
       SELECT entity_cuid, parameter_id, date_trunc('hour', "timestamp", 'UTC'), min(value), max(value), sum(value), count(*), max(value), max("timestamp")
         FROM parameter_log WHERE entity_cuid = $1 GROUP BY 1, 2, 3`,
      [battery.entity_cuid],
    );
    await client.query(`VACUUM ANALYZE parameter_log`);
    ctx.log(`export: loaded ${MINUTES} × ${PARAMETERS} rows in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`);

    const columns = params.map((p) => ({ entity_cuid: battery.entity_cuid, parameter_id: p, aggregate: 'avg' as const }));
    const template_cuid = 'benchexporttemplate';
    await client.query(`INSERT INTO system_data_export_template (template_cuid, name, config, system_cuid) VALUES ($1, 'Bench year', $2, $3)`, [
      template_cuid,
      JSON.stringify({ columns, resolution: 'raw', format: 'csv', decimal: '.' }),
      battery.system_cuid,
    ]);
    const cookie = await loginCookie(server.baseUrl, 'basic@demo.local');
    const url = `${server.baseUrl}/api/exports/stream?${new URLSearchParams({ template_cuid, from: new Date(start).toISOString(), to: new Date(end).toISOString(), timezone: 'UTC' })}`;
    const pid = server.proc.pid!;

    const viaHttp = async () => {
      const before = rssMb(pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
      const t = process.hrtime.bigint();
      const res = await fetch(url, { headers: { cookie } });
      if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
      let newlines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
      const s = Number(process.hrtime.bigint() - t) / 1e9;
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(pid));
      return { rows: newlines - 1, s, growth: peak - before };
    };
    const viaCopy = async () => {
      const p = new SqlParams();
      const sql = pivotSql({ columns: columns.map((c) => ({ ...c, header: '' })), resolution: 'raw', timezone: 'UTC' }, new Date(start), new Date(end), p);
      // COPY takes no parameters: the values are literals here (ids and dates the bench made).
      const literal = sql.replace(/\$(\d+)/g, (_, n) => {
        const v = p.values[Number(n) - 1];
        if (Array.isArray(v)) return `ARRAY[${v.map((x) => client.escapeLiteral(String(x))).join(',')}]`;
        if (v instanceof Date) return `${client.escapeLiteral(v.toISOString())}::timestamptz`;
        return client.escapeLiteral(String(v));
      });
      const t = process.hrtime.bigint();
      let newlines = 0;
      await pipeline(
        client.query(copyTo(`COPY (${literal}) TO STDOUT (FORMAT csv)`)),
        new Writable({
          write(chunk: Buffer, _enc, cb) {
            for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
            cb();
          },
        }),
      );
      return { rows: newlines, s: Number(process.hrtime.bigint() - t) / 1e9 };
    };

    const first = await viaHttp();
    if (first.rows !== MINUTES) throw new Error(`the export has ${first.rows} rows, expected ${MINUTES}`);
    const copyFirst = await viaCopy();
    if (copyFirst.rows !== MINUTES) throw new Error(`COPY gave ${copyFirst.rows} rows, expected ${MINUTES}`);
    const ours: number[] = [];
    const copies: number[] = [];
    const growth: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      const o = await viaHttp();
      const c = await viaCopy();
      ours.push(o.rows / o.s);
      copies.push(c.rows / c.s);
      growth.push(o.growth);
      ctx.log(
        `export round ${round}: ${Math.round(o.rows / o.s)} rows/s over HTTP (${o.s.toFixed(1)} s, RSS +${o.growth.toFixed(0)} MB), COPY ${Math.round(c.rows / c.s)} rows/s (${c.s.toFixed(1)} s)`,
      );
    }
    const value = Math.round(median(ours));
    const baseline = Math.round(median(copies));
    return {
      figure: 'export',
      value,
      unit: 'rows/s',
      baseline,
      ratio: Math.round((value / baseline) * 100) / 100,
      rss_mb: Math.round(median(growth)),
      notes: `${MINUTES} rows × ${PARAMETERS} columns, raw CSV over HTTP vs COPY of the same pivot; server peak RSS growth median ${Math.round(median(growth))} MB (max ${Math.round(Math.max(...growth))})`,
    };
  } finally {
    await client.end().catch(() => undefined);
    await server?.stop();
    await db.drop();
  }
}
