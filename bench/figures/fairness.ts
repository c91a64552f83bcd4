import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Client } from 'pg';
import { loadConfig } from '../../server/src/api/app-config';
import { openDatabase } from '../../server/src/database/data-source';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { generateControllers, loadFleet, SIMULATED_COMPANY } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { HttpClient } from '../../test/factories/http-client';
import { freePort } from '../../test/factories/mosquitto';
import { SmtpPeer } from '../../test/factories/smtp-peer';
import { spawnTelemetryServer, type SpawnedServer } from '../../test/factories/spawn-server';
import { addMember } from '../../test/factories/users';
import { type BenchContext, type FigureResult, median, scratchDatabase } from '../lib';
import type { FloodCounts, FloodData } from './fairness-flood';

/**
 * Figure `fairness` (issue 24): what one company's flood costs another company, on PostgreSQL,
 * the built server in its own process with its in-process MQTT broker and a real SMTP peer.
 *
 * Company A ("Demo Solar Ltd", 60 days of one-minute data in 10 series) floods through the public
 * API: its Basic user starts wide 400-day XLSX exports in a loop (exportJob.start; the budgets answer
 * 429), creates email channels and asks their verification mails again (emailChannel.create /
 * resendVerification), its installer sends commands to its offline controller (controllerCommand.send;
 * a Basic user may not), and its controller publishes QoS 1 batches whose replies pile up for a
 * parked persistent session (clean: false, subscribed, disconnected).
 * A's flood runs in its own thread (fairness-flood.ts): A's scripts are not in the event loop that
 * times B. Company B (the "Simulated Fleet" controller) meanwhile measures:
 * - `fairness`: p95 of its HTTP ingest batch round trip (POST /api/ingest/…/telemetry, 100 rows,
 *   one after the other), flooded vs the same without the flood (baseline), same run;
 * - `fairness_export`: its Basic user's 1-day export, exportJob.start → DONE (polled), flooded vs quiet.
 * ratio = flooded / quiet; goal ≤ 2 for both.
 */
const A_DAYS = 60;
const A_SERIES = 10;
const BATCHES = Number(process.env.BENCH_FAIRNESS_BATCHES ?? 200);
const EXPORTS = 3;
const ROWS_PER_BATCH = 100;
/** BENCH_FAIRNESS_FLOOD: which of A's floods run (comma-separated; all by default), to see what each costs. */
const FLOODS = (process.env.BENCH_FAIRNESS_FLOOD ?? 'exports,commands,mails,publishes').split(',');

const rssMb = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};
const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor(s.length * q))].toFixed(1));
};

export async function fairnessFigures(ctx: BenchContext): Promise<FigureResult[]> {
  const db = await scratchDatabase(ctx.serverUrl, 'fairness');
  const smtp = await SmtpPeer.start();
  const mqttPort = await freePort();
  let server: SpawnedServer | undefined;
  const pg = new Client({ connectionString: db.url });
  let flood: Worker | undefined;
  try {
    server = await spawnTelemetryServer({
      DATABASE_URL: db.url,
      SEED_DEMO: 'true',
      MQTT_PORT: String(mqttPort),
      MQTT_HOST: '127.0.0.1',
      SMTP_URL: smtp.url,
      EXPORT_POLL_MS: '200',
      DATABASE_POOL_SIZE: '10',
      // The per-session brake as a deployment has it (spawned servers have it off by default).
      REQUESTS_PER_SESSION_PER_SECOND: String(loadConfig({}).REQUESTS_PER_SESSION_PER_SECOND),
    });
    await pg.connect();
    // ---- set-up (direct SQL: the data and the people, not what is measured) ----
    const admin = await openDatabase({ url: db.url, poolSize: 2 }, false);
    let a: SimController;
    let b: SimController;
    try {
      await generateControllers(admin.dataSource, 1);
      [b] = await loadFleet(admin.dataSource, { pattern: '^sim-ctrl-' });
      [a] = await loadFleet(admin.dataSource, { controllers: [DEMO_CONTROLLER_ID] });
      await addMember(admin.dataSource, 'b-installer@bench.test', SIMULATED_COMPANY, 1, true);
      await addMember(admin.dataSource, 'b-basic@bench.test', SIMULATED_COMPANY, 3);
    } finally {
      await admin.close();
    }
    const seriesA = a.entities.flatMap((e) => e.parameters.map((p) => ({ entity_cuid: e.entity_cuid, parameter_id: p }))).slice(0, A_SERIES);
    const seriesB = b.entities.flatMap((e) => e.parameters.map((p) => ({ entity_cuid: e.entity_cuid, parameter_id: p }))).slice(0, 2);
    const day = 86_400_000;
    const today = Math.floor(Date.now() / day) * day;
    for (let d = 0; d < A_DAYS; d += 10) {
      await pg.query(
        `INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value)
         SELECT s.e, s.p, ts, (extract(minute FROM ts)::int % 2)
           FROM unnest($1::varchar[], $2::varchar[]) AS s(e, p), generate_series($3::timestamptz, $4::timestamptz - interval '1 minute', interval '1 minute') AS ts
         ON CONFLICT DO NOTHING`,
        [
          seriesA.map((s) => s.entity_cuid),
          seriesA.map((s) => s.parameter_id),
          new Date(today - (A_DAYS - d) * day),
          new Date(today - (A_DAYS - d - 10) * day),
        ],
      );
    }
    // B: one day of one-minute data (two days ago) for its 1-day export.
    await pg.query(
      `INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value)
       SELECT s.e, s.p, ts, (extract(minute FROM ts)::int % 2)
         FROM unnest($1::varchar[], $2::varchar[]) AS s(e, p), generate_series($3::timestamptz, $4::timestamptz - interval '1 minute', interval '1 minute') AS ts
       ON CONFLICT DO NOTHING`,
      [seriesB.map((s) => s.entity_cuid), seriesB.map((s) => s.parameter_id), new Date(today - 2 * day), new Date(today - day)],
    );
    const login = async (email: string) => {
      const c = new HttpClient(server!.baseUrl);
      if ((await c.login(email)).status !== 200) throw new Error(`fairness: login of ${email} failed`);
      return c;
    };
    const [aInstaller, aBasic, bInstaller, bBasic] = [
      await login('installer@demo.local'),
      await login('basic@demo.local'),
      await login('b-installer@bench.test'),
      await login('b-basic@bench.test'),
    ];
    const template = async (who: HttpClient, system_cuid: string, series: { entity_cuid: string; parameter_id: string }[]) => {
      const res = await who.mutate<{ data: { template_cuid: string } }>('systemDataExportTemplate.create', {
        data: { name: 'Bench', system_cuid, config: { columns: series, resolution: 'raw' } },
      });
      if (!res.data) throw new Error(`fairness: template failed: ${JSON.stringify(res.error)}`);
      return res.data.data.template_cuid;
    };
    const templateA = await template(aInstaller, a.system_cuid!, seriesA);
    const templateB = await template(bInstaller, b.system_cuid!, seriesB);
    const [{ company_cuid: companyA }] = (await pg.query(`SELECT company_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID])).rows as {
      company_cuid: string;
    }[];

    // ---- what B notices ----
    let stamp = today - 10 * day;
    const ingestRound = async (): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < BATCHES; i++) {
        const rows = [];
        for (let r = 0; r < ROWS_PER_BATCH / seriesB.length; r++, stamp += 1000)
          for (const s of seriesB) rows.push({ timestamp: stamp, entity_cuid: s.entity_cuid, parameter_id: s.parameter_id, value: r % 2 });
        const began = performance.now();
        const res = await fetch(`${server!.baseUrl}/api/ingest/${b.controller_id}/telemetry`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${b.token}` },
          body: JSON.stringify({ batch_id: `f${i}-${stamp}`, rows }),
        });
        await res.arrayBuffer();
        times.push(performance.now() - began);
        if (res.status !== 200) throw new Error(`fairness: B's ingest answered ${res.status}`);
      }
      return times;
    };
    const exportRound = async (): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < EXPORTS; i++) {
        const began = performance.now();
        const started = await bBasic.mutate<{ id: string }>('exportJob.start', {
          template_cuid: templateB,
          from: new Date(today - 2 * day),
          to: new Date(today - day),
        });
        if (!started.data) throw new Error(`fairness: B's export was refused: ${JSON.stringify(started.error)}`);
        for (;;) {
          const job = (await bBasic.query<{ status: string }>('exportJob.get', { id: started.data.id })).data;
          if (job?.status === 'DONE') break;
          if (job?.status === 'FAILED') throw new Error("fairness: B's export failed");
          if (performance.now() - began > 600_000) throw new Error("fairness: B's export did not finish in 10 minutes");
          // 75 ms: ~13 polls a second, under the per-session brake's 20 (the portal's own page polls far slower).
          await new Promise((r) => setTimeout(r, 75));
        }
        times.push(performance.now() - began);
        ids.push(started.data.id);
      }
      return times;
    };
    /** Where B's export time went: waiting to be taken, writing, and the rest (the polls). */
    const ids: string[] = [];
    const phases = async (): Promise<string> => {
      const { rows } = await pg.query(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM started_at - created_at) * 1000) AS waited,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - started_at) * 1000) AS ran
           FROM export_job WHERE id = ANY($1)`,
        [ids.splice(0)],
      );
      return `waited ${Number(rows[0].waited).toFixed(0)} ms to start, ran ${Number(rows[0].ran).toFixed(0)} ms (medians)`;
    };
    // Warm-up (JIT, pools), then the quiet figures.
    await ingestRound();
    await exportRound();
    const quietIngest = await ingestRound();
    ids.length = 0;
    const quietExport = await exportRound();
    ctx.log(`fairness quiet: ingest p95 ${pct(quietIngest, 0.95)} ms, 1-day export median ${median(quietExport).toFixed(0)} ms; B's export ${await phases()}`);

    // ---- A's flood (its own thread: fairness-flood.ts) ----
    const floodData: FloodData = {
      baseUrl: server.baseUrl,
      mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
      basicCookies: [...aBasic.cookies],
      installerCookies: [...aInstaller.cookies],
      templateA,
      companyA,
      controllerId: DEMO_CONTROLLER_ID,
      token: a.token,
      series: seriesA,
      today,
      floods: FLOODS,
    };
    flood = new Worker(join(__dirname, 'fairness-flood.js'), { workerData: floodData });
    const [started] = (await once(flood, 'message')) as [{ type: string; message?: string }];
    if (started.type !== 'started') throw new Error(`fairness: A's flood did not start: ${started.message}`);
    await new Promise((r) => setTimeout(r, 3000)); // the flood under way, A's exports running
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server!.proc.pid!))), 100);
    const floodIngest = await ingestRound();
    const floodExport = await exportRound();
    clearInterval(sampler);
    ctx.log(`fairness flooded: B's export ${await phases()}`);
    flood.postMessage('stop');
    const [{ counts }] = (await once(flood, 'message')) as [{ counts: FloodCounts }];
    await flood.terminate();
    flood = undefined;
    const [{ queued, running }] = (
      await pg.query(
        `SELECT count(*) FILTER (WHERE status = 'QUEUED')::int AS queued, count(*) FILTER (WHERE status = 'RUNNING')::int AS running FROM export_job`,
      )
    ).rows;
    ctx.log(
      `fairness flooded: ingest p95 ${pct(floodIngest, 0.95)} ms, 1-day export median ${median(floodExport).toFixed(0)} ms; A's flood: ` +
        `${counts.exports} export starts (${counts.exports429} answered 429; ${queued} queued, ${running} running at the end), ${counts.commands} commands, ` +
        `${counts.mails} mail requests, ${counts.publishes} MQTT publishes, ${counts.errors} errors; server peak RSS ${peakRss.toFixed(0)} MB`,
    );
    const quietP95 = pct(quietIngest, 0.95);
    const floodP95 = pct(floodIngest, 0.95);
    const quietMs = Math.round(median(quietExport));
    const floodMs = Math.round(median(floodExport));
    return [
      {
        figure: 'fairness',
        value: floodP95,
        unit: 'ms',
        p50_ms: pct(floodIngest, 0.5),
        p95_ms: floodP95,
        p99_ms: pct(floodIngest, 0.99),
        baseline: quietP95,
        ratio: Number((floodP95 / quietP95).toFixed(2)),
        rss_mb: Math.round(peakRss),
        goal: 2,
        notes: `company B's HTTP ingest batch (${ROWS_PER_BATCH} rows) round trip p95, ${BATCHES} batches, while company A floods exports/commands/mails/MQTT; baseline = same without the flood; goal ratio ≤ 2`,
      },
      {
        figure: 'fairness_export',
        value: floodMs,
        unit: 'ms',
        p50_ms: floodMs,
        p95_ms: Math.round(Math.max(...floodExport)),
        p99_ms: Math.round(Math.max(...floodExport)),
        baseline: quietMs,
        ratio: Number((floodMs / quietMs).toFixed(2)),
        rss_mb: Math.round(peakRss),
        goal: 2,
        notes: `company B's 1-day export (exportJob.start → DONE), median of ${EXPORTS}, while company A floods; baseline = same without the flood; goal ratio ≤ 2`,
      },
    ];
  } catch (error) {
    if (server) console.error(server.output().split('\n').slice(-40).join('\n'));
    throw error;
  } finally {
    await flood?.terminate();
    await pg.end().catch(() => undefined);
    await server?.stop();
    await smtp.close();
    await db.drop();
  }
}
