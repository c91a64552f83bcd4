import { randomBytes } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateControllers, loadFleet } from '../../server/src/simulator/fleet';
import { Ledger, Simulator } from '../../server/src/simulator/simulator';
import { MqttTransport } from '../../server/src/simulator/transports';
import { createDemoDataSource, type TestDatabase } from '../factories/database';
import { eventually, freePort, type Mosquitto, sleep, startMosquitto } from './support/telemetry-app';

/**
 * The durability claim, end to end: the built server (a child process) ingests a QoS 1 stream from
 * simulated controllers through Mosquitto, is killed with SIGKILL in the middle, and restarted.
 * Every row the simulator's ledger says was acknowledged must then be stored exactly once, with
 * its value, and the rollups must count each row once (redelivered batches merge nothing twice).
 *
 * Needs PostgreSQL (TEST_DATABASE_URL: the child process opens the same database), Mosquitto and
 * a build (`npm run build:server`; CI builds before testing): the child is dist/server/src/main.js.
 */
const DIST = process.env.TELEMETRY_DIST_DIR ?? resolve(__dirname, '..', '..', 'dist');
const ENTRY = process.env.TELEMETRY_SERVER_ENTRY ?? join(DIST, 'server', 'src', 'main.js');
describe('kill -9 of the server in the middle of a QoS 1 stream', () => {
  let broker: Mosquitto;
  let db: TestDatabase;
  let server: ChildProcess | undefined;
  let output = '';
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telemetry-kill9-'));
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run npm run build:server first`);
    broker = await startMosquitto();
    db = await createDemoDataSource();
    await generateControllers(db.dataSource, 3);
  });
  afterAll(async () => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    await db?.close();
    await broker?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const start = async (port: number) => {
    const url = (db.dataSource.options as { url?: string }).url!;
    const child = spawn(process.execPath, [ENTRY], {
      cwd: resolve(__dirname, '..', '..'),
      env: {
        ...process.env,
        NODE_ENV: 'test',
        NODE_OPTIONS: '',
        DATABASE_URL: url,
        MQTT_URL: broker.url,
        MQTT_CLIENT_ID: 'portal-kill9',
        PORT: String(port),
        HOST: '127.0.0.1',
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        SEED_DEMO: 'false',
        SIMULATOR: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const ready = await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
        try {
          return (await fetch(`http://127.0.0.1:${port}/api/health/ready`)).ok;
        } catch {
          return false;
        }
      },
      60_000,
      200,
    );
    if (!ready) throw new Error(`server did not start: ${output}`);
    return child;
  };
  const stored = async () => (await db.dataSource.query(`SELECT count(*)::int AS n FROM parameter_log`))[0].n as number;

  it('stores every acknowledged row exactly once after a SIGKILL and a restart', async () => {
    const fleet = await loadFleet(db.dataSource);
    expect(fleet.length).toBe(4);
    const port = await freePort();
    server = await start(port);

    const transport = new MqttTransport(broker.url);
    const until = Date.now() - 60_000;
    const sim = new Simulator(fleet, transport, {
      intervalSeconds: 10,
      speed: 0,
      from: until - 8 * 3_600_000,
      until,
      rowsPerMessage: 200,
      inFlight: 8,
      dropoutRate: 0.01,
      offlinePerHour: 0.5,
      seed: 42,
      ledgerFile: join(dir, 'ledger.jsonl'),
    });
    const running = sim.start();

    // Kill it while the stream is flowing.
    expect(await eventually(async () => (await stored()) > 20_000, 60_000, 50)).toBe(true);
    server.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    const atKill = await stored();
    await sleep(1500); // controllers keep publishing; the broker keeps it for the portal's session
    server = await start(port);
    await running;
    await transport.close();
    expect(sim.stats.failures).toBe(0);

    const ledger = sim.ledger.rows;
    expect(atKill).toBeLessThan(ledger.size);
    // Drained: the database holds exactly the ledger.
    expect(await eventually(async () => (await stored()) >= ledger.size, 120_000, 250)).toBe(true);
    await sleep(500);
    expect(await stored()).toBe(ledger.size);
    const rows = await db.dataSource.query<{ entity_cuid: string; parameter_id: string; t: number; value: number }[]>(
      `SELECT entity_cuid, parameter_id, (extract(epoch FROM "timestamp") * 1000)::float8 AS t, value FROM parameter_log`,
    );
    const mismatched = rows.filter((r) => ledger.get(Ledger.key({ entity_cuid: r.entity_cuid, parameter_id: r.parameter_id, timestamp: r.t })) !== r.value);
    expect(mismatched).toEqual([]);
    // The ledger file says the same as the in-memory ledger.
    const fromFile = new Set<string>();
    for (const line of readFileSync(join(dir, 'ledger.jsonl'), 'utf8').split('\n').filter(Boolean)) {
      for (const [e, p, ts] of JSON.parse(line).rows) fromFile.add(`${e}|${p}|${ts}`);
    }
    expect(fromFile.size).toBe(ledger.size);
    // Rollups count each raw row once and sum the same values.
    for (const resolution of ['5m', '1h', '1d']) {
      const [check] = await db.dataSource.query(
        `SELECT (SELECT sum(count)::int FROM parameter_rollup_${resolution}) AS counted,
                (SELECT round(sum(sum)::numeric, 3) FROM parameter_rollup_${resolution}) AS summed,
                (SELECT round(sum(value)::numeric, 3) FROM parameter_log) AS raw`,
      );
      expect({ resolution, counted: check.counted, summed: check.summed }).toEqual({ resolution, counted: ledger.size, summed: check.raw });
    }
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
    expect(output).not.toMatch(/UnhandledPromiseRejection|TypeError/);
  }, 240_000);
});
