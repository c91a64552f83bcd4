import autocannon from 'autocannon';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { Client } from 'pg';

export interface FigureResult {
  figure: string;
  value: number;
  unit: string;
  p50_ms?: number;
  p95_ms?: number;
  p99_ms?: number;
  baseline?: number;
  ratio?: number;
  /** Memory of the server that matters for the figure (e.g. its peak RSS growth during an export), MB. */
  rss_mb?: number;
  /** Bytes transferred (KB) where the figure is about the network, beside its value. */
  kb?: number;
  /** Decoded size (KB) of what `value` counts as transferred. */
  raw_kb?: number;
  /** The goal the figure is held to, in its unit. */
  goal?: number;
  /** Extra columns for the readable table only. */
  notes?: string;
}

export interface BenchContext {
  /** PostgreSQL server URL (BENCH_DATABASE_URL). */
  serverUrl: string;
  rounds: number;
  durationSeconds: number;
  log(message: string): void;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates a scratch database on the bench server and returns its URL and a drop function. */
export async function scratchDatabase(serverUrl: string, label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_bench_${label}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  return { url: withDatabase(serverUrl, name), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export const freePort = (): Promise<number> =>
  new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

/** The node flags production starts the server with (`npm run start:prod`, docker/Dockerfile). */
export function productionNodeArgs(): string[] {
  const pkg = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = pkg.scripts['start:prod'].split(/\s+/);
  return words.slice(words.indexOf('node') + 1).filter((w) => w.startsWith('--'));
}

/** Runs the built server (dist) in its own process, as production does (same node flags). */
export async function startServer(env: Record<string, string>): Promise<{ baseUrl: string; stop(): Promise<void>; proc: ChildProcess }> {
  const port = await freePort();
  const main = resolve(__dirname, '..', 'server', 'src', 'main.js');
  const nodeArgs = [...productionNodeArgs(), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const proc = spawn(process.execPath, [...nodeArgs, main], {
    // The figures drive one session far faster than a person does: the per-session brake is off
    // unless a figure sets it (fairness measures with the default brake on).
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), REQUESTS_PER_SESSION_PER_SECOND: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr?.on('data', (d) => (stderr += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() - started > 60_000) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    proc,
    stop: () =>
      new Promise<void>((done) => {
        proc.once('exit', () => done());
        proc.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** A fixed-duration load from this process with autocannon. */
export async function load(opts: {
  url: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Headers for each connection in turn (connection i uses entry i modulo the length). */
  perConnectionHeaders?: Record<string, string>[];
}): Promise<LoadResult> {
  let next = 0;
  const per = opts.perConnectionHeaders;
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.durationSeconds,
    headers: opts.headers,
    ...(per?.length
      ? {
          initialContext: {},
          requests: [
            {
              setupRequest: (req: any, context: any) => {
                context.headers ??= per[next++ % per.length];
                return { ...req, headers: { ...(req.headers ?? {}), ...context.headers } };
              },
            },
          ],
        }
      : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Signs in through the API and returns the `liuc=…` cookie pair. */
export async function loginCookie(baseUrl: string, email: string, password = 'demo-password'): Promise<string> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('liuc='))
    ?.split(';')[0];
  if (login.status !== 200 || !cookie) throw new Error(`login of ${email} failed: ${login.status}`);
  return cookie;
}

/**
 * The throughput figures' common shape: a warm-up, then per round the measured load and the same
 * server's floor (GET /api/health, same clients, same length); medians of the rounds.
 */
export async function requestsAgainstHealth(
  ctx: BenchContext,
  spec: { figure: string; unit: string; baseUrl: string; connections: number; notes: string; run: (seconds: number) => Promise<LoadResult> },
): Promise<FigureResult> {
  await spec.run(3); // warm-up
  const rates: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  const floors: number[] = [];
  for (let round = 1; round <= ctx.rounds; round++) {
    const r = await spec.run(ctx.durationSeconds);
    if (r.non2xx || r.errors) throw new Error(`${spec.figure} failed: ${r.non2xx} non-2xx, ${r.errors} errors`);
    const b = await load({ url: `${spec.baseUrl}/api/health`, connections: spec.connections, durationSeconds: ctx.durationSeconds });
    rates.push(r.requestsPerSecond);
    p50s.push(r.p50Ms);
    p99s.push(r.p99Ms);
    floors.push(b.requestsPerSecond);
    ctx.log(
      `${spec.figure} round ${round}: ${r.requestsPerSecond.toFixed(0)} ${spec.unit}, p99 ${r.p99Ms} ms; baseline /api/health ${b.requestsPerSecond.toFixed(0)} req/s`,
    );
  }
  const value = Math.round(median(rates));
  const baseline = Math.round(median(floors));
  return {
    figure: spec.figure,
    value,
    unit: spec.unit,
    p50_ms: median(p50s),
    p99_ms: median(p99s),
    baseline,
    ratio: Number((value / baseline).toFixed(3)),
    notes: `${spec.notes}, ${ctx.durationSeconds} s x ${ctx.rounds} rounds, baseline = GET /api/health`,
  };
}
