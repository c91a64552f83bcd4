import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import superjson from 'superjson';
import { type BenchContext, type FigureResult, load, loginCookie, requestsAgainstHealth, scratchDatabase, startServer } from '../lib';

const CLIENTS = 100;
export const SYSTEMS = 100_000;

/** The `list` figures' world: SYSTEMS systems of the demo company (the installer's), analysed. */
export async function insertBenchSystems(pg: Client): Promise<void> {
  await pg.query(
    `INSERT INTO system (system_cuid, company_cuid, name, timezone, asset_number)
     SELECT 'bench' || lpad(i::text, 19, '0'), c.company_cuid, 'Plant ' || lpad(i::text, 6, '0'), 'Africa/Nairobi', 'A-' || i
       FROM generate_series(1, $1::int) AS i, (SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd') c`,
    [SYSTEMS],
  );
  await pg.query('ANALYZE system');
}

/**
 * Figure `list`: react-admin's getList on systems (page 1 of 25, sorted by name) with 100,000
 * systems in the caller's company, 100 concurrent clients, as the installer of that company
 * (scoped SQL, not the superuser's unscoped one). Baseline: GET /api/health in the same run.
 * Asked as a browser asks (`accept-encoding: br, gzip`: the answer is compressed, brotli 4);
 * BENCH_ACCEPT_ENCODING=identity measures the same server sending it uncompressed.
 */
export async function listFigure(ctx: BenchContext): Promise<FigureResult> {
  const db = await scratchDatabase(ctx.serverUrl, 'list');
  const server = await startServer({
    DATABASE_URL: db.url,
    SEED_DEMO: 'true',
    SIMULATOR: 'false',
    MQTT_PORT: '0',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  });
  try {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    await insertBenchSystems(pg);
    await pg.end();
    const cookie = await loginCookie(server.baseUrl, 'installer@demo.local');
    const input = encodeURIComponent(
      JSON.stringify(superjson.serialize({ pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: {} })),
    );
    const url = `${server.baseUrl}/api/trpc/system.getList?input=${input}`;
    const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING ?? 'br, gzip';
    const answer = await fetch(url, { headers: { cookie, 'accept-encoding': acceptEncoding } });
    const encoding = answer.headers.get('content-encoding') ?? 'identity';
    const check = await answer.json();
    const total = check?.result?.data?.json?.total;
    const rawBytes = Buffer.byteLength(JSON.stringify(check));
    if (!(total >= SYSTEMS)) throw new Error(`unexpected total ${total}`); // plus the demo systems
    return await requestsAgainstHealth(ctx, {
      figure: 'list',
      unit: 'req/s',
      baseUrl: server.baseUrl,
      connections: CLIENTS,
      notes: `system.getList page 1/25 by name over ${SYSTEMS} systems, ${CLIENTS} clients, answers ${encoding} (${rawBytes} bytes raw)`,
      run: (seconds) => load({ url, connections: CLIENTS, durationSeconds: seconds, headers: { cookie, 'accept-encoding': acceptEncoding } }),
    });
  } finally {
    await server.stop();
    await db.drop();
  }
}
