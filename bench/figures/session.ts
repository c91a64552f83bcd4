import { randomBytes } from 'node:crypto';
import { type BenchContext, type FigureResult, load, loginCookie, requestsAgainstHealth, scratchDatabase, startServer } from '../lib';

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
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  });
  try {
    // One session per client, as 50 open tabs of the demo users would have.
    const emails = ['superuser', 'installer', 'expert', 'basic', 'other'].map((u) => `${u}@demo.local`);
    const headers: { cookie: string }[] = [];
    for (let i = 0; i < CLIENTS; i++) headers.push({ cookie: await loginCookie(server.baseUrl, emails[i % emails.length]) });
    const url = `${server.baseUrl}/api/auth/session`;
    return await requestsAgainstHealth(ctx, {
      figure: 'session',
      unit: 'checks/s',
      baseUrl: server.baseUrl,
      connections: CLIENTS,
      notes: `${CLIENTS} clients with their own sessions`,
      run: (seconds) => load({ url, connections: CLIENTS, durationSeconds: seconds, perConnectionHeaders: headers }),
    });
  } finally {
    await server.stop();
    await db.drop();
  }
}
