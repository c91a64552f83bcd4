import { Client } from 'pg';
import { eventually } from '../factories/alert-fixtures';
import { type Cluster, startDemoCluster } from '../factories/cluster';
import { createTestDataSource, type TestDatabase } from '../factories/database';
import { type Mosquitto, startMosquitto } from '../factories/mosquitto';
import { parsePrometheus, total } from '../factories/prometheus';
import { type SpawnedServer, spawnTelemetryServer } from '../factories/spawn-server';

/**
 * Readiness of the built server against the real parts it needs (PostgreSQL: TEST_DATABASE_URL;
 * `npm run build` first): the database refusing connections, the test's own Mosquitto stopped and
 * started again, SIGTERM (draining while liveness answers), and HAProxy taking a draining instance
 * out before it stops, with every request through the proxy answered.
 */
describe('readiness of a built instance', () => {
  let db: TestDatabase;
  let dbName: string;
  let broker: Mosquitto;
  let server: SpawnedServer | undefined;

  const admin = async (sql: string) => {
    const c = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const get = async (path: string) => {
    const res = await fetch(`${server!.baseUrl}${path}`);
    const text = await res.text();
    return { status: res.status, text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    db = await createTestDataSource();
    dbName = new URL((db.dataSource.options as { url: string }).url).pathname.slice(1);
    broker = await startMosquitto();
    server = await spawnTelemetryServer({
      DATABASE_URL: (db.dataSource.options as { url: string }).url,
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: 'portal-readiness',
      INSTANCE_NAME: 'ready-a',
      // Long enough that "at once" and "after the drain" stay apart on a slow machine.
      SHUTDOWN_DRAIN_SECONDS: '5',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await broker?.stop();
    await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await db?.close();
  });

  it('ready with the database and the broker; the broker connection shows in portal_mqtt_connected', async () => {
    const ready = await eventually(
      async () => {
        const r = await get('/api/health/ready');
        return r.status === 200 ? r : undefined;
      },
      20_000,
      'ready',
    );
    expect(ready.body).toEqual({ status: 'ok', checks: { instance: 'ok', database: 'ok', broker: 'ok' } });
    const samples = parsePrometheus((await get('/metrics')).text);
    expect(total(samples, 'portal_mqtt_connected', { instance: 'ready-a' })).toBe(1);
  });

  it('the database refusing connections: 503 naming the database, liveness and /metrics still answer; back → 200', async () => {
    await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName}'`);
    try {
      const down = await eventually(
        async () => {
          const r = await get('/api/health/ready');
          return r.status === 503 ? r : undefined;
        },
        20_000,
        'not ready',
      );
      expect(down.body).toMatchObject({
        code: 'UNAVAILABLE',
        status: 'not_ready',
        message: 'The database does not answer',
        checks: { database: 'down', broker: 'ok' },
      });
      expect(down.body.not_ready).toEqual(['database']);
      expect(down.text).not.toMatch(/SELECT|ALLOW_CONNECTIONS|does not allow|stack/i);
      expect((await get('/api/health/live')).status).toBe(200);
      // The scrape answers; what it could not read is said, not a 500.
      const metrics = await get('/metrics');
      expect(metrics.status).toBe(200);
      const samples = parsePrometheus(metrics.text);
      expect(total(samples, 'portal_metric_errors', { source: 'commands' })).toBe(1);
      expect(total(samples, 'portal_metric_errors', { source: 'outbox' })).toBe(1);
    } finally {
      await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
    }
    const back = await eventually(
      async () => {
        const r = await get('/api/health/ready');
        return r.status === 200 ? r : undefined;
      },
      30_000,
      'ready again',
    );
    expect(back.body.checks.database).toBe('ok');
    expect(total(parsePrometheus((await get('/metrics')).text), 'portal_metric_errors')).toBe(0);
  });

  it('the broker stopped: 503 naming the broker and portal_mqtt_connected 0; started again → 200', async () => {
    const port = broker.port;
    await broker.stop();
    try {
      const down = await eventually(
        async () => {
          const r = await get('/api/health/ready');
          return r.status === 503 ? r : undefined;
        },
        20_000,
        'not ready',
      );
      expect(down.body).toMatchObject({
        status: 'not_ready',
        message: 'The MQTT broker is not reachable',
        not_ready: ['broker'],
        checks: { database: 'ok', broker: 'down' },
      });
      expect(total(parsePrometheus((await get('/metrics')).text), 'portal_mqtt_connected')).toBe(0);
    } finally {
      broker = await startMosquitto([], { port });
    }
    // The client reconnects with its backoff (a few seconds).
    await eventually(async () => (await get('/api/health/ready')).status === 200, 45_000, 'ready again');
    expect(total(parsePrometheus((await get('/metrics')).text), 'portal_mqtt_connected')).toBe(1);
  });

  it('SIGTERM: readiness answers 503 draining at once, liveness answers until the process exits', async () => {
    const proc = server!.proc;
    let gone = false;
    const exited = new Promise<number | null>((done) => proc.once('exit', (code) => ((gone = true), done(code))));
    proc.kill('SIGTERM');
    // Draining is seen while the process still runs (an order: it comes before the exit).
    const draining = await eventually(
      async () => {
        if (gone) return { status: 0, body: { status: 'exited before draining was seen', not_ready: [] } };
        const r = await get('/api/health/ready');
        return r.status === 503 ? r : undefined;
      },
      60_000,
      'draining',
    );
    expect(draining.body).toMatchObject({ status: 'draining', message: 'This instance is shutting down' });
    expect(draining.body.not_ready[0]).toBe('instance');
    // Liveness keeps answering 200 until the process exits after the drain time (5 s).
    let lives = 0;
    while (!gone) {
      const r = await get('/api/health/live').catch(() => undefined);
      if (r && !gone) {
        expect(r.status).toBe(200);
        lives++;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(lives).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    // That the exit waits SHUTDOWN_DRAIN_SECONDS is checked as an order, with the drain held open, in
    // test/http/health.spec.ts; here the built process shows the same order: draining, alive, exit 0.
    server = undefined;
  });
});

describe('HAProxy and a draining instance', () => {
  let db: TestDatabase;
  let cluster: Cluster;

  beforeAll(async () => {
    ({ db, cluster } = await startDemoCluster({ env: { SHUTDOWN_DRAIN_SECONDS: '5' } }));
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    await db?.close();
  });

  it('SIGTERM of one instance: HAProxy marks it DOWN before it stops, and every request through the proxy is answered', async () => {
    const a = cluster.instances.find((i) => i.name === 'a')!;
    const proc = a.server!.proc;
    let exitedAt = 0;
    const exited = new Promise<void>((done) =>
      proc.once('exit', () => {
        exitedAt = Date.now();
        done();
      }),
    );
    const statuses: number[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const res = await fetch(`${cluster.url}/api/health/live`).catch(() => undefined);
        statuses.push(res?.status ?? 0);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    proc.kill('SIGTERM');
    await cluster.proxy.waitFor('DOWN', ['a'], 15_000);
    const downAt = Date.now();
    await exited;
    a.server = undefined;
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await load;
    expect(downAt).toBeLessThan(exitedAt);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});
