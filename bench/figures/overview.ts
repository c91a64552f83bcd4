import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { type BenchContext, type FigureResult, load, loginCookie, requestsAgainstHealth, scratchDatabase, startServer } from '../lib';

const CLIENTS = 100;
/**
 * Uncached, every call is the whole statement (~100–250 ms here): 100 clients would queue past the
 * load generator's 10 s timeout, so the cold line uses 10.
 */
const CLIENTS_COLD = 10;
const SYSTEMS = 2_000;
/** Counter readings every 2 hours over the last 35 days (today's and this month's energy). */
const READING_HOURS = 2;
const READING_DAYS = 35;

/**
 * Figure `overview` (and `overview_cold`): fleet.overview, the home's one call, for a company with
 * 2,000 systems (controllers in every online state, 5 % in alarm, battery SoC on every system,
 * counter readings over 35 days in three time zones, sites with coordinates), 100 concurrent
 * clients signed in as the company's installer. Baseline: GET /api/health in the same run.
 * `overview` runs with the default OVERVIEW_CACHE_MS (the shared overview); `overview_cold` with
 * OVERVIEW_CACHE_MS=0, every call computed (the uncached cost of the SQL), with 10 clients.
 */
export async function overviewFigures(ctx: BenchContext): Promise<FigureResult[]> {
  return [await overviewRun(ctx, 'overview', undefined, CLIENTS), await overviewRun(ctx, 'overview_cold', '0', CLIENTS_COLD)];
}

async function overviewRun(ctx: BenchContext, figure: string, cacheMs: string | undefined, clients: number): Promise<FigureResult> {
  const db = await scratchDatabase(ctx.serverUrl, figure);
  const server = await startServer({
    DATABASE_URL: db.url,
    SEED_DEMO: 'true',
    SIMULATOR: 'false',
    MQTT_PORT: '0',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ...(cacheMs === undefined ? {} : { OVERVIEW_CACHE_MS: cacheMs }),
  });
  try {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    await fill(pg);
    await pg.end();
    const cookie = await loginCookie(server.baseUrl, 'installer@demo.local');
    const url = `${server.baseUrl}/api/trpc/fleet.overview`;
    const check = await (await fetch(url, { headers: { cookie } })).json();
    const counts = check?.result?.data?.json?.counts;
    if (!(counts?.systems >= SYSTEMS) || !(counts.in_alarm > 0) || !(counts.offline > 0))
      throw new Error(`unexpected overview ${JSON.stringify(check).slice(0, 300)}`);
    ctx.log(`${figure}: ${JSON.stringify(counts)}`);
    return await requestsAgainstHealth(ctx, {
      figure,
      unit: 'req/s',
      baseUrl: server.baseUrl,
      connections: clients,
      notes: `fleet.overview of ${SYSTEMS} systems, ${clients} clients, OVERVIEW_CACHE_MS=${cacheMs ?? 'default (3000)'}`,
      run: (seconds) => load({ url, connections: clients, durationSeconds: seconds, headers: { cookie } }),
    });
  } finally {
    await server.stop();
    await db.drop();
  }
}

export async function fill(pg: Client): Promise<void> {
  const [{ company_cuid }] = (await pg.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`)).rows;
  const [{ controllertype_cuid }] = (await pg.query(`SELECT controllertype_cuid FROM controller_type LIMIT 1`)).rows;
  const [{ entitytype_id }] = (await pg.query(`SELECT entitytype_id FROM entity_type_log_parameter_assignment WHERE parameter_id = 'battery_soc' LIMIT 1`))
    .rows;
  const n = SYSTEMS;
  await pg.query(
    `INSERT INTO site (site_cuid, name, lat, long, company_cuid)
     SELECT 'bsite' || i, 'Site ' || i, -4 + (i % 80) / 10.0, 30 + (i % 97) / 10.0, $1 FROM generate_series(1, $2::int / 4) i`,
    [company_cuid, n],
  );
  await pg.query(
    `INSERT INTO system (system_cuid, company_cuid, name, timezone, site_cuid)
     SELECT 'bsys' || i, $1, 'Plant ' || lpad(i::text, 5, '0'),
            (ARRAY['Africa/Nairobi', 'Europe/Paris', 'America/Bogota'])[1 + i % 3], 'bsite' || (1 + i % ($2::int / 4))
       FROM generate_series(1, $2::int) i`,
    [company_cuid, n],
  );
  await pg.query(
    `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name)
     SELECT 'bctl' || i, $2, $1, 'bsys' || i, 'Controller ' || i FROM generate_series(1, $3::int) i`,
    [company_cuid, controllertype_cuid, n],
  );
  // 85 % online, 10 % offline (for up to 4 days), 5 % unstable.
  await pg.query(
    `INSERT INTO controller_online_state (controller_id, online_state)
     SELECT 'bctl' || i, (CASE WHEN i % 20 < 17 THEN 'ONLINE' WHEN i % 20 < 19 THEN 'OFFLINE' ELSE 'UNSTABLE' END)::controller_online_state_value
       FROM generate_series(1, $1::int) i`,
    [n],
  );
  await pg.query(
    `INSERT INTO controller_presence (controller_id, last_seen_at, state_since)
     SELECT 'bctl' || i, CASE WHEN i % 20 BETWEEN 17 AND 18 THEN now() - (i % 96) * interval '1 hour' ELSE now() - interval '20 seconds' END,
            now() - (i % 96) * interval '1 hour'
       FROM generate_series(1, $1::int) i`,
    [n],
  );
  await pg.query(
    `INSERT INTO entity (entity_cuid, name, entitytype_id, system_cuid, controller_id)
     SELECT 'bent' || i, 'Battery ' || i, $2, 'bsys' || i, 'bctl' || i FROM generate_series(1, $1::int) i`,
    [n, entitytype_id],
  );
  // SoC over the last 6 hours in 5 min buckets (stale for every 50th system: its data stopped 6 h ago).
  await pg.query(
    `INSERT INTO parameter_rollup_5m (entity_cuid, parameter_id, bucket, min, max, sum, count, last, last_ts)
     SELECT 'bent' || i, 'battery_soc', b, v, v, v, 1, v, b + interval '4 minutes'
       FROM generate_series(1, $1::int) i,
            generate_series(date_bin('5 minutes', now(), TIMESTAMPTZ '2000-01-01') - interval '6 hours',
                            date_bin('5 minutes', now(), TIMESTAMPTZ '2000-01-01') - interval '5 minutes', interval '5 minutes') b,
            LATERAL (SELECT ((i * 37) % 100)::float8 AS v) x
      WHERE i % 50 <> 0 OR b < now() - interval '5 hours'`,
    [n],
  );
  // 5 % in alarm (plus released triggers on every system).
  await pg.query(
    `INSERT INTO notification_trigger (trigger_cuid, name, message, system_cuid, severity_level)
     SELECT 'btrg' || i || '-' || k, 'Trigger ' || k, 'm', 'bsys' || i, (ARRAY['INFO','WARNING','ERROR','CRITICAL'])[1 + (i + k) % 4]::notification_severity
       FROM generate_series(1, $1::int) i, generate_series(1, 2) k`,
    [n],
  );
  await pg.query(
    `INSERT INTO notification_trigger_status (trigger_cuid, trigger_state, state_since)
     SELECT 'btrg' || i || '-' || k, (CASE WHEN k = 1 AND i % 20 = 3 THEN 'TRIGGERED' ELSE 'RELEASED' END)::trigger_state, now() - (i % 30) * interval '1 hour'
       FROM generate_series(1, $1::int) i, generate_series(1, 2) k`,
    [n],
  );
  await pg.query(
    `INSERT INTO system_standard_value_log (system_cuid, "timestamp", total_pv_kwh)
     SELECT 'bsys' || i, t, (extract(epoch FROM t - (now() - $3::int * interval '1 day')) / 3600 * (1 + i % 5))::numeric(14,3)
       FROM generate_series(1, $1::int) i,
            generate_series(now() - $3::int * interval '1 day', now(), $2::int * interval '1 hour') t`,
    [n, READING_HOURS, READING_DAYS],
  );
  await pg.query(
    `INSERT INTO controller_command (command_id, controller_id, company_cuid, system_cuid, kind, status, requested_at, not_after)
     SELECT 'bcmd' || i, 'bctl' || i, $1, 'bsys' || i, 'reboot', (CASE WHEN i % 3 = 0 THEN 'FAILURE' ELSE 'SUCCESS' END)::controller_command_status,
            now() - (i % 48) * interval '1 hour', now() + interval '1 hour'
       FROM generate_series(1, $2::int) i`,
    [company_cuid, n],
  );
  await pg.query('ANALYZE');
}
