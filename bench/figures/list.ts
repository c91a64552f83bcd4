import { Client } from 'pg';
import superjson from 'superjson';
import { type BenchContext, type FigureResult, load, median, scratchDatabase, startServer } from '../lib';

const CLIENTS = 100;
const SYSTEMS = 100_000;

/**
 * Figure `list`: react-admin's getList on systems (page 1 of 25, sorted by name) with 100,000
 * systems in the caller's company, 100 concurrent clients, as the installer of that company
 * (scoped SQL, not the superuser's unscoped one). Baseline: GET /api/health in the same run.
 */
export async function listFigure(ctx: BenchContext): Promise<FigureResult> {
  const db = await scratchDatabase(ctx.serverUrl, 'list');
  const server = await startServer({
    DATABASE_URL: db.url,
    SEED_DEMO: 'true',
    SIMULATOR: 'false',
    MQTT_PORT: '0',
    SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
  });
  try {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    await pg.query(
      `INSERT INTO system (system_cuid, company_cuid, name, timezone, asset_number)
       SELECT 'bench' || lpad(i::text, 19, '0'), c.company_cuid, 'Plant ' || lpad(i::text, 6, '0'), 'Africa/Nairobi', 'A-' || i
         FROM generate_series(1, $1::int) AS i, (SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd') c`,
      [SYSTEMS],
    );
    await pg.query('ANALYZE system');
    await pg.end();
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'installer@demo.local', password: 'demo-password' }),
    });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('liuc='))?.split(';')[0];
    if (login.status !== 200 || !cookie) throw new Error(`login failed: ${login.status}`);
    const input = encodeURIComponent(
      JSON.stringify(superjson.serialize({ pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: {} })),
    );
    const url = `${server.baseUrl}/api/trpc/system.getList?input=${input}`;
    const check = await (await fetch(url, { headers: { cookie } })).json();
    const total = check?.result?.data?.json?.total;
    if (!(total >= SYSTEMS)) throw new Error(`unexpected total ${total}`); // plus the demo systems
    await load({ url, connections: CLIENTS, durationSeconds: 3, headers: { cookie } }); // warm-up
    const rates: number[] = [];
    const p99s: number[] = [];
    const floors: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      const r = await load({ url, connections: CLIENTS, durationSeconds: ctx.durationSeconds, headers: { cookie } });
      if (r.non2xx || r.errors) throw new Error(`getList failed: ${r.non2xx} non-2xx, ${r.errors} errors`);
      const b = await load({ url: `${server.baseUrl}/api/health`, connections: CLIENTS, durationSeconds: ctx.durationSeconds });
      rates.push(r.requestsPerSecond);
      p99s.push(r.p99Ms);
      floors.push(b.requestsPerSecond);
      ctx.log(`list round ${round}: ${r.requestsPerSecond.toFixed(0)} req/s, p99 ${r.p99Ms} ms; baseline /api/health ${b.requestsPerSecond.toFixed(0)} req/s`);
    }
    const value = Math.round(median(rates));
    const baseline = Math.round(median(floors));
    return {
      figure: 'list',
      value,
      unit: 'req/s',
      p99_ms: median(p99s),
      baseline,
      ratio: Number((value / baseline).toFixed(3)),
      notes: `system.getList page 1/25 by name over ${SYSTEMS} systems, ${CLIENTS} clients, ${ctx.durationSeconds} s x ${ctx.rounds}; baseline = GET /api/health`,
    };
  } finally {
    await server.stop();
    await db.drop();
  }
}
