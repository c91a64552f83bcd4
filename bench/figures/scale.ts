import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { Client } from 'pg';
import superjson from 'superjson';
import { openDatabase } from '../../server/src/database/data-source';
import { generateControllers, loadFleet } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { type Cluster, startCluster } from '../../test/factories/cluster';
import { startMosquitto } from '../../test/factories/mosquitto';
import { type BenchContext, type FigureResult, loginCookie, median, productionNodeArgs, scratchDatabase } from '../lib';
import { runLoad } from './ingest';
import { insertBenchSystems, SYSTEMS } from './list';

/**
 * The figures of several instances (issue 15), every one through a real HAProxy (Debian's) in
 * front of built instances (test/factories/cluster.ts), so one and two instances are compared
 * through the same proxy hop:
 *
 * - `list_1x` / `list_2x`: the `list` workload (system.getList page 1/25 by name over 100,000
 *   systems, 100 clients, the installer's scoped query) with one instance, then two, on one
 *   PostgreSQL; rounds alternate 1x, 2x (both clusters stay up, the idle one costs nothing
 *   measurable) so a change in the machine's load hits both alike. baseline of `list_2x` = the
 *   one-instance figure, ratio = 2x / 1x.
 * - `ingest_1x` / `ingest_2x`: the `ingest` load (closed-loop QoS 1 batches, ack after commit)
 *   through one Mosquitto into instances sharing the subscription group `portal`. Each round starts
 *   a fresh broker and a fresh cluster (the instances' persistent sessions must not outlive their
 *   round: a stopped member of a shared subscription would still be handed messages).
 * - `live_tabs`: what one open tab costs one instance (memory of a live stream; CPU of its session
 *   check each second and its two home refreshes a minute), and the tabs one instance holds from it.
 *
 * Each round prints the CPU each process used (utime + stime from /proc/<pid>/stat, % of one core):
 * this bench process (the autocannon load generator or the MQTT publishers), HAProxy, each
 * instance, the PostgreSQL backends of the bench's database, and the whole machine; and the load
 * average (the machine may be shared).
 */

const LIST_CLIENTS = 100;
const TICKS = 100; // USER_HZ (getconf CLK_TCK) on Linux

// ---------------------------------------------------------------- CPU and memory of processes

function ticksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
  } catch {
    return undefined;
  }
}

function machineTicks(): { busy: number; all: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const all = cpu.reduce((a, b) => a + b, 0);
  return { busy: all - cpu[3] - cpu[4], all };
}

export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const backendPids = async (pg: Client, database: string): Promise<number[]> =>
  (await pg.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database])).rows.map((r) => r.pid as number);

/** Starts watching; `stop()` answers each group's CPU over the interval in % of one core. */
export async function watchCpu(groups: Record<string, number[]>, pg?: { client: Client; database: string }) {
  const startedAt = process.hrtime.bigint();
  const selfStart = process.cpuUsage();
  const machineStart = machineTicks();
  const start = new Map<number, number>();
  const pgStart = pg ? await backendPids(pg.client, pg.database) : [];
  for (const pid of [...Object.values(groups).flat(), ...pgStart]) start.set(pid, ticksOf(pid) ?? 0);
  return {
    async stop(): Promise<Record<string, number>> {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const pct = (ticks: number) => Math.round((ticks / TICKS / seconds) * 100);
      const out: Record<string, number> = {};
      const self = process.cpuUsage(selfStart);
      out.load_generator = Math.round(((self.user + self.system) / 1e6 / seconds) * 100);
      for (const [name, pids] of Object.entries(groups)) out[name] = pct(pids.reduce((s, p) => s + (ticksOf(p) ?? start.get(p) ?? 0) - (start.get(p) ?? 0), 0));
      if (pg) {
        const pids = new Set([...pgStart, ...(await backendPids(pg.client, pg.database))]);
        out.postgres = pct([...pids].reduce((s, p) => s + Math.max(0, (ticksOf(p) ?? start.get(p) ?? 0) - (start.get(p) ?? 0)), 0));
      }
      const m = machineTicks();
      out.machine = Math.round(((m.busy - machineStart.busy) / (m.all - machineStart.all)) * 100 * cpus().length); // % of one core (all cores = 100 × cores)
      return out;
    },
  };
}

const cpuLine = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .map(([k, v]) => `${k} ${v}%`)
    .join(', ');
/** CPU milliseconds each process spent per answered request (the machine's total left out). */
const cpuPerRequest = (cpu: Record<string, number>, rps: number) =>
  Object.entries(cpu)
    .filter(([k]) => k !== 'machine')
    .map(([k, v]) => `${k} ${((v * 10) / rps).toFixed(2)}`)
    .join(', ');
const load1 = () => Number(loadavg()[0].toFixed(2));

function instancePids(cluster: Cluster): Record<string, number[]> {
  const out: Record<string, number[]> = { haproxy: [cluster.proxy.proc.pid!] };
  for (const i of cluster.instances) out[`instance_${i.name}`] = [i.server!.proc.pid!];
  return out;
}

/** HAProxy's failed health checks and UP → DOWN transitions, summed over the cluster's servers. */
async function checkCounters(cluster: Cluster): Promise<{ failed: number; down: number }> {
  const stats = await cluster.proxy.stats();
  let failed = 0;
  let down = 0;
  for (const row of stats) {
    if (row.pxname !== 'instances' || row.svname === 'BACKEND') continue;
    failed += Number(row.chkfail || 0);
    down += Number(row.chkdown || 0);
  }
  return { failed, down };
}

// ---------------------------------------------------------------- HTTP load with every latency

interface Measured {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  bad: number;
  /** Answers by HTTP status, for the error message. */
  statuses: string;
}

const pick = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

/** autocannon (as `list` uses it), keeping each response's latency for exact p50/p95/p99. */
async function loadAll(opts: autocannon.Options): Promise<Measured> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  // Without a callback autocannon answers its tracker: an event emitter that is also a promise.
  const instance = autocannon(opts) as unknown as Promise<autocannon.Result> & { on(event: 'response', f: (...a: any[]) => void): void };
  instance.on('response', (_c: unknown, status: number, _bytes: number, ms: number) => {
    if (status === 200) latencies.push(ms);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    // Answered requests only: a 503 from HAProxy (no instance UP) is not throughput.
    rps: (statuses.get(200) ?? 0) / (opts.duration as number),
    p50: r1(pick(latencies, 0.5)),
    p95: r1(pick(latencies, 0.95)),
    p99: r1(pick(latencies, 0.99)),
    bad: result.requests.total - (statuses.get(200) ?? 0) + result.errors + result.timeouts,
    statuses: JSON.stringify(Object.fromEntries(statuses)),
  };
}

const r1 = (x: number) => Math.round(x * 10) / 10;

// ---------------------------------------------------------------- list_1x / list_2x

export async function list2xFigures(ctx: BenchContext): Promise<FigureResult[]> {
  const db = await scratchDatabase(ctx.serverUrl, 'list2x');
  const database = new URL(db.url).pathname.slice(1);
  const env = { MQTT_PORT: '0', SIMULATOR: 'false', NODE_OPTIONS: productionNodeArgs().join(' ') };
  let one: Cluster | undefined;
  let two: Cluster | undefined;
  const pg = new Client({ connectionString: db.url });
  try {
    one = await startCluster({ instances: 1, databaseUrl: db.url, env: { ...env, SEED_DEMO: 'true' } });
    await pg.connect();
    await insertBenchSystems(pg);
    two = await startCluster({ instances: 2, databaseUrl: db.url, env });
    const input = encodeURIComponent(
      JSON.stringify(superjson.serialize({ pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: {} })),
    );
    const setups: { label: '1x' | '2x'; cluster: Cluster; url: string; cookie: string }[] = [];
    for (const [label, cluster] of [
      ['1x', one],
      ['2x', two],
    ] as const) {
      const cookie = await loginCookie(cluster.url, 'installer@demo.local');
      const url = `${cluster.url}/api/trpc/system.getList?input=${input}`;
      const check = await (await fetch(url, { headers: { cookie } })).json();
      if (!(check?.result?.data?.json?.total >= SYSTEMS)) throw new Error(`list ${label}: unexpected answer ${JSON.stringify(check).slice(0, 200)}`);
      setups.push({ label, cluster, url, cookie });
    }
    const run = (s: (typeof setups)[number], seconds: number) =>
      loadAll({ url: s.url, connections: LIST_CLIENTS, duration: seconds, headers: { cookie: s.cookie, 'accept-encoding': 'br, gzip' } });
    for (const s of setups) await run(s, 3); // warm-up

    const rounds: Record<'1x' | '2x', (Measured & { cpu: Record<string, number>; load: number; checks: { failed: number; down: number } })[]> = {
      '1x': [],
      '2x': [],
    };
    for (let round = 1; round <= ctx.rounds; round++) {
      for (const s of setups) {
        const load = load1();
        const watch = await watchCpu(instancePids(s.cluster), { client: pg, database });
        const before = await checkCounters(s.cluster);
        const m = await run(s, ctx.durationSeconds);
        const cpu = await watch.stop();
        const after = await checkCounters(s.cluster);
        const checks = { failed: after.failed - before.failed, down: after.down - before.down };
        rounds[s.label].push({ ...m, cpu, load, checks });
        ctx.log(
          `list_${s.label} round ${round}: ${m.rps.toFixed(0)} req/s answered, p50 ${m.p50} p95 ${m.p95} p99 ${m.p99} ms` +
            `; CPU ms per request ${cpuPerRequest(cpu, m.rps)}` +
            (m.bad ? `; NOT ANSWERED ${m.bad} (${m.statuses})` : '') +
            `; HAProxy checks failed ${checks.failed}, instances marked DOWN ${checks.down}; load ${load}; CPU ${cpuLine(cpu)}`,
        );
      }
    }
    const rss = (c: Cluster) => r1(c.instances.reduce((s, i) => s + rssMb(i.server!.proc.pid!), 0));
    const summary = (label: '1x' | '2x', cluster: Cluster) => {
      const rs = rounds[label];
      const cpuMedians = Object.fromEntries(Object.keys(rs[0].cpu).map((k) => [k, median(rs.map((r) => r.cpu[k]))]));
      const perRequest = Object.fromEntries(Object.keys(rs[0].cpu).map((k) => [k, median(rs.map((r) => (r.cpu[k] * 10) / r.rps))]));
      return {
        value: Math.round(median(rs.map((r) => r.rps))),
        p50_ms: median(rs.map((r) => r.p50)),
        p95_ms: median(rs.map((r) => r.p95)),
        p99_ms: median(rs.map((r) => r.p99)),
        rss_mb: rss(cluster),
        notes:
          `CPU (median, % of one core): ${cpuLine(cpuMedians)}; CPU ms per request: ${Object.entries(perRequest)
            .filter(([k]) => k !== 'machine')
            .map(([k, v]) => `${k} ${v.toFixed(2)}`)
            .join(', ')}; load avg ${rs.map((r) => r.load).join('/')}` +
          `; not answered ${rs.map((r) => r.bad).join('/')}, HAProxy DOWN marks ${rs.map((r) => r.checks.down).join('/')}`,
      };
    };
    const a = summary('1x', one);
    const b = summary('2x', two);
    const common = `system.getList page 1/25 by name over ${SYSTEMS} systems, ${LIST_CLIENTS} clients via HAProxy, ${ctx.durationSeconds} s x ${ctx.rounds}`;
    return [
      { figure: 'list_1x', unit: 'req/s', ...a, notes: `one instance; ${common}; ${a.notes}` },
      {
        figure: 'list_2x',
        unit: 'req/s',
        ...b,
        baseline: a.value,
        ratio: Number((b.value / a.value).toFixed(3)),
        notes: `two instances; ${common}; baseline = list_1x; ${b.notes}`,
      },
    ];
  } finally {
    await pg.end().catch(() => undefined);
    await two?.stop();
    await one?.stop();
    await db.drop();
  }
}

// ---------------------------------------------------------------- ingest_1x / ingest_2x

export async function ingest2xFigures(ctx: BenchContext): Promise<FigureResult[]> {
  const seconds = Number(process.env.BENCH_INGEST_SECONDS ?? 60);
  const db = await scratchDatabase(ctx.serverUrl, 'ingest2x');
  const database = new URL(db.url).pathname.slice(1);
  const pg = new Client({ connectionString: db.url });
  let fleet: SimController[] = [];
  let seeded = false;
  const rounds: Record<'1x' | '2x', { rate: number; p50: number; p95: number; p99: number; cpu: Record<string, number>; load: number; rss: number }[]> = {
    '1x': [],
    '2x': [],
  };
  try {
    await pg.connect();
    for (let round = 1; round <= ctx.rounds; round++) {
      for (const [label, instances] of [
        ['1x', 1],
        ['2x', 2],
      ] as const) {
        // A fresh broker and cluster each time: no persistent session of an earlier member remains.
        const broker = await startMosquitto();
        let cluster: Cluster | undefined;
        try {
          cluster = await startCluster({
            instances,
            databaseUrl: db.url,
            mqttUrl: broker.url,
            env: { SEED_DEMO: seeded ? 'false' : 'true', DATABASE_POOL_SIZE: '10' },
          });
          if (!seeded) {
            const admin = await openDatabase({ url: db.url, poolSize: 2 }, false);
            try {
              await generateControllers(admin.dataSource, 40);
              fleet = await loadFleet(admin.dataSource, { pattern: '^sim-ctrl-' });
            } finally {
              await admin.close();
            }
            seeded = true;
          }
          const series = fleet.map((c) => c.entities.flatMap((e) => e.parameters.map((parameter_id) => ({ entity_cuid: e.entity_cuid, parameter_id }))));
          await pg.query(`TRUNCATE parameter_log, parameter_rollup_5m, parameter_rollup_1h, parameter_rollup_1d`);
          const t0 = Math.floor((Date.now() - 20 * 86_400_000) / 1000) * 1000;
          const load = load1();
          const groups = { ...instancePids(cluster), mosquitto: [broker.proc.pid!] };
          delete (groups as Record<string, number[]>).haproxy; // MQTT does not pass through HAProxy
          const watch = await watchCpu(groups, { client: pg, database });
          const result = await runLoad(broker.url, fleet, series, t0, seconds);
          const cpu = await watch.stop();
          const [{ n }] = (await pg.query(`SELECT count(*)::int AS n FROM parameter_log`)).rows;
          if (n < result.totalRows) throw new Error(`ingest_${label}: replies reported ${result.totalRows} rows accepted but ${n} are stored`);
          const rss = r1(cluster.instances.reduce((s, i) => s + rssMb(i.server!.proc.pid!), 0));
          const rate = result.windowRows / seconds;
          rounds[label].push({ rate, p50: result.p50Ms, p95: result.p95Ms, p99: result.p99Ms, cpu, load, rss });
          ctx.log(
            `ingest_${label} round ${round}: ${rate.toFixed(0)} durable rows/s over ${seconds} s (${n} rows stored, batch round trip p50 ${result.p50Ms} p95 ${result.p95Ms} p99 ${result.p99Ms} ms); load ${load}; CPU ${cpuLine(cpu)}`,
          );
        } finally {
          await cluster?.stop();
          await broker.stop();
        }
      }
    }
    const summary = (label: '1x' | '2x') => {
      const rs = rounds[label];
      const cpuMedians = Object.fromEntries(Object.keys(rs[0].cpu).map((k) => [k, median(rs.map((r) => r.cpu[k]))]));
      return {
        value: Math.round(median(rs.map((r) => r.rate))),
        p50_ms: median(rs.map((r) => r.p50)),
        p95_ms: median(rs.map((r) => r.p95)),
        p99_ms: median(rs.map((r) => r.p99)),
        rss_mb: median(rs.map((r) => r.rss)),
        notes: `p50/p95/p99 = batch round trip (publish → the portal's reply after commit); CPU (median, % of one core): ${cpuLine(cpuMedians)}; CPU µs per row: ${Object.keys(
          rs[0].cpu,
        )
          .filter((k) => k !== 'machine')
          .map((k) => `${k} ${median(rs.map((r) => (r.cpu[k] * 10_000) / r.rate)).toFixed(1)}`)
          .join(', ')}; load avg ${rs.map((r) => r.load).join('/')}`,
      };
    };
    const a = summary('1x');
    const b = summary('2x');
    const common = `MQTT QoS 1 via one Mosquitto ($share/portal) → ack after commit (+ rollups), 40 controllers × 3 × 500 rows, ${seconds} s × ${ctx.rounds}`;
    return [
      { figure: 'ingest_1x', unit: 'rows/s', ...a, notes: `one instance; ${common}; ${a.notes}` },
      {
        figure: 'ingest_2x',
        unit: 'rows/s',
        ...b,
        baseline: a.value,
        ratio: Number((b.value / a.value).toFixed(3)),
        notes: `two instances; ${common}; baseline = ingest_1x; ${b.notes}`,
      },
    ];
  } finally {
    await pg.end().catch(() => undefined);
    await db.drop();
  }
}

// ---------------------------------------------------------------- live_tabs

const TABS = Number(process.env.BENCH_TABS ?? 1000);

/**
 * Figure `live_tabs`: TABS open tabs on one instance (direct, no proxy): each holds its live stream
 * (portalNotification.onEvent over SSE), checks its session every second (GET /api/auth/session
 * with If-None-Match, answered 304 as in a browser) and refreshes the home twice a minute
 * (fleet.overview), as `idle_tab` counted. Measured: the instance's RSS growth per open stream and
 * its CPU while serving TABS tabs' requests at their rate for BENCH_SECONDS (per tab: CPU / the tabs' rate actually served). value = the tabs one
 * instance holds at 70 % of one core (CPU per tab from the run), rss_mb = RSS per 1,000 streams.
 */
export async function liveTabsFigure(ctx: BenchContext): Promise<FigureResult> {
  const db = await scratchDatabase(ctx.serverUrl, 'tabs');
  const database = new URL(db.url).pathname.slice(1);
  const cluster = await startCluster({
    instances: 1,
    databaseUrl: db.url,
    env: { SEED_DEMO: 'true', MQTT_PORT: '0', NODE_OPTIONS: productionNodeArgs().join(' ') },
  });
  const pg = new Client({ connectionString: db.url });
  const streams: ClientRequest[] = [];
  try {
    await pg.connect();
    const base = cluster.instances[0].server!.baseUrl;
    const pid = cluster.instances[0].server!.proc.pid!;
    const emails = ['superuser', 'installer', 'expert', 'basic'].map((u) => `${u}@demo.local`);
    const cookies: string[] = [];
    for (const e of emails) cookies.push(await loginCookie(base, e));
    // Settle, then RSS before the streams.
    await new Promise((r) => setTimeout(r, 3000));
    const rssBefore = rssMb(pid);
    let open = 0;
    const u = new URL(`${base}/api/trpc/portalNotification.onEvent`);
    await new Promise<void>((done, fail) => {
      for (let i = 0; i < TABS; i++) {
        const req = httpRequest(
          { host: u.hostname, port: u.port, path: u.pathname, headers: { cookie: cookies[i % cookies.length], accept: 'text/event-stream' }, agent: false },
          (res) => {
            if (res.statusCode !== 200) fail(new Error(`live stream answered ${res.statusCode}`));
            res.once('data', () => {
              if (++open === TABS) done();
            });
            res.resume();
          },
        );
        req.on('error', (e) => (open < TABS ? fail(e) : undefined));
        req.end();
        streams.push(req);
      }
    });
    await new Promise((r) => setTimeout(r, 5000));
    const rssStreams = rssMb(pid);
    const perStreamKb = ((rssStreams - rssBefore) * 1024) / TABS;
    ctx.log(`live_tabs: ${TABS} streams open, RSS ${rssBefore.toFixed(1)} → ${rssStreams.toFixed(1)} MB (${perStreamKb.toFixed(1)} KB per stream)`);

    // The tabs' requests at their rate: TABS session checks a second, TABS/30 overviews a second.
    const sessionUrl = `${base}/api/auth/session`;
    const etags: Record<string, string>[] = [];
    for (const cookie of cookies) {
      const res = await fetch(sessionUrl, { headers: { cookie } });
      const etag = res.headers.get('etag');
      await res.arrayBuffer();
      etags.push(etag ? { cookie, 'if-none-match': etag } : { cookie });
    }
    const overviewUrl = `${base}/api/trpc/fleet.overview`;
    const loads: number[] = [];
    const cpus: number[] = [];
    const perTab: number[] = [];
    const served_: number[] = [];
    const p99s: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      const load = load1();
      const watch = await watchCpu({ instance: [pid] }, { client: pg, database });
      let next = 0;
      const [checks, homes] = await Promise.all([
        autocannon({
          url: sessionUrl,
          connections: 50,
          overallRate: TABS,
          duration: ctx.durationSeconds,
          requests: [{ setupRequest: (req: any) => ({ ...req, headers: { ...(req.headers ?? {}), ...etags[next++ % etags.length] } }) }],
        }),
        autocannon({
          url: overviewUrl,
          connections: 5,
          overallRate: Math.max(1, Math.round(TABS / 30)),
          duration: ctx.durationSeconds,
          headers: { cookie: cookies[1] },
        }),
      ]);
      const cpu = await watch.stop();
      const notOk = checks.errors + checks.timeouts + homes.non2xx + homes.errors + homes.timeouts + (checks.non2xx - (checks['3xx'] ?? 0));
      if (notOk) throw new Error(`live_tabs: ${notOk} failed requests`);
      loads.push(load);
      // CPU per tab from the rate the instance actually served (a busy machine may not reach TABS/s).
      const served = Math.min(checks.requests.average, homes.requests.average * 30);
      served_.push(served);
      cpus.push(cpu.instance);
      perTab.push(cpu.instance / served);
      p99s.push(checks.latency.p99);
      ctx.log(
        `live_tabs round ${round}: ${checks.requests.average.toFixed(0)} session checks/s (${checks['3xx'] ?? 0} answered 304, p99 ${checks.latency.p99} ms), ${homes.requests.average.toFixed(1)} overviews/s; load ${load}; CPU ${cpuLine(cpu)}`,
      );
    }
    const cpuPerTab = median(perTab); // % of one core per tab
    const tabs = Math.floor(70 / cpuPerTab);
    return {
      figure: 'live_tabs',
      value: tabs,
      unit: 'tabs',
      p99_ms: median(p99s),
      rss_mb: r1((perStreamKb * 1000) / 1024),
      notes: `${TABS} streams open, the requests of ${Math.round(median(served_))} tabs/s served: instance CPU ${median(cpus)}% of one core (${cpuPerTab.toFixed(4)}% per tab), ${perStreamKb.toFixed(1)} KB RSS per stream; value = tabs at 70% of one core; load avg ${loads.join('/')}`,
    };
  } finally {
    for (const s of streams) s.destroy();
    await pg.end().catch(() => undefined);
    await cluster.stop();
    await db.drop();
  }
}
