import { type BenchContext, type FigureResult, load, median, scratchDatabase, startServer } from '../lib';

/**
 * Figure `session`: GET /api/auth/session with a valid cookie, 50 concurrent clients, on
 * PostgreSQL (the spec re-checks each open tab every second). Baseline: GET /api/health, the
 * same server's floor with no session work, in the same run.
 */
const CLIENTS = 50;

export async function sessionFigure(ctx: BenchContext): Promise<FigureResult> {
  const db = await scratchDatabase(ctx.serverUrl, 'session');
  const server = await startServer({
    DATABASE_URL: db.url,
    SEED_DEMO: 'true',
    SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
  });
  try {
    // One session per client, as 50 open tabs of the demo users would have.
    const emails = ['superuser', 'installer', 'expert', 'basic', 'other'].map((u) => `${u}@demo.local`);
    const cookies: string[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const login = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: emails[i % emails.length], password: 'demo-password' }),
      });
      const cookie = login.headers.getSetCookie().find((c) => c.startsWith('liuc='))?.split(';')[0];
      if (login.status !== 200 || !cookie) throw new Error(`login failed: ${login.status}`);
      cookies.push(cookie);
    }
    const url = `${server.baseUrl}/api/auth/session`;
    await load({ url, connections: CLIENTS, durationSeconds: 3, perConnectionHeaders: cookies.map((cookie) => ({ cookie })) }); // warm-up
    const checks: number[] = [];
    const p99s: number[] = [];
    const floors: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      const s = await load({ url, connections: CLIENTS, durationSeconds: ctx.durationSeconds, perConnectionHeaders: cookies.map((cookie) => ({ cookie })) });
      if (s.non2xx || s.errors) throw new Error(`session checks failed: ${s.non2xx} non-2xx, ${s.errors} errors`);
      const b = await load({ url: `${server.baseUrl}/api/health`, connections: CLIENTS, durationSeconds: ctx.durationSeconds });
      checks.push(s.requestsPerSecond);
      p99s.push(s.p99Ms);
      floors.push(b.requestsPerSecond);
      ctx.log(`session round ${round}: ${s.requestsPerSecond.toFixed(0)} checks/s, p99 ${s.p99Ms} ms; baseline /api/health ${b.requestsPerSecond.toFixed(0)} req/s`);
    }
    const value = Math.round(median(checks));
    const baseline = Math.round(median(floors));
    return {
      figure: 'session',
      value,
      unit: 'checks/s',
      p99_ms: median(p99s),
      baseline,
      ratio: Number((value / baseline).toFixed(3)),
      notes: `${CLIENTS} clients with their own sessions, ${ctx.durationSeconds} s x ${ctx.rounds} rounds, baseline = GET /api/health`,
    };
  } finally {
    await server.stop();
    await db.drop();
  }
}
