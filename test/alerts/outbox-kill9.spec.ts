import { randomBytes } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { addChannel, addEvents, addTrigger, companyByName, eventually, eventValue, systemByName } from '../factories/alert-fixtures';
import { createDemoDataSource, type TestDatabase } from '../factories/database';
import { RecordingPeer } from '../factories/recording-sender';

/**
 * kill -9 of an outbox worker while deliveries are SENDING: after a restart every event ends SENT
 * (or ARCHIVED with a reason), nothing is lost, and a message reached its channel more than once
 * only where the worker counted a possible duplicate (at most one per event and channel).
 *
 * The child is the real OutboxWorker in its own process (test/factories/outbox-worker-process.ts,
 * built by `npm run build:server` to dist/), sending through a RecordingSender to a local peer
 * that answers slowly, so sends are in flight when the process is killed. Needs PostgreSQL
 * (TEST_DATABASE_URL): the child opens the same database. After AlertChannelsModule is merged the
 * same scenario runs against the built server and its TELEGRAM sender (see docs/alerts.md, "The outbox").
 */
const DIST = process.env.TELEMETRY_DIST_DIR ?? resolve(__dirname, '..', '..', 'dist');
const ENTRY = join(DIST, 'test', 'factories', 'outbox-worker-process.js');

describe('kill -9 of an outbox worker in the middle of sending', () => {
  let db: TestDatabase;
  const peer = new RecordingPeer();
  let child: ChildProcess | undefined;
  let output = '';
  const q = (sql: string, params: unknown[] = []) => db.dataSource.query(sql, params);

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run npm run build:server first`);
    await peer.start();
    db = await createDemoDataSource();
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await db?.close();
    await peer.stop();
  });

  const start = async (): Promise<ChildProcess> => {
    const url = (db.dataSource.options as { url?: string }).url!;
    const proc = spawn(process.execPath, [ENTRY], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        NODE_OPTIONS: '',
        DATABASE_URL: url,
        PEER_URL: peer.url,
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        LOG_LEVEL: 'warn',
        ALERTS_DELIVERY_POLL_MS: '200',
        ALERTS_DELIVERY_LEASE_SECONDS: '2',
        ALERTS_DELIVERY_BATCH: '10',
        ALERTS_DELIVERY_CONCURRENCY: '2',
        ALERTS_GROUP_WINDOW_MS: '0',
        ALERTS_GROUP_MIN: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout?.on('data', (d) => (output += d));
    proc.stderr?.on('data', (d) => (output += d));
    await eventually(
      async () => {
        if (proc.exitCode !== null) throw new Error(`worker exited: ${output}`);
        return output.includes('outbox worker ready');
      },
      60_000,
      'the worker process to start',
    );
    return proc;
  };

  it('every event ends SENT after a SIGKILL and a restart; repeats only where counted, at most one per delivery', async () => {
    const farm = await systemByName(db.dataSource, DEMO_SYSTEMS.farm);
    const demo = await companyByName(db.dataSource, DEMO_COMPANY_NAME);
    const triggers: string[] = [];
    for (let i = 0; i < 20; i++) triggers.push(await addTrigger(db.dataSource, farm.system_cuid, { name: `K${i}` }));
    const channels = [await addChannel(db.dataSource, demo, { triggers }), await addChannel(db.dataSource, demo, { triggers })];
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) for (const t of triggers) ids.push(...(await addEvents(db.dataSource, t, [eventValue(farm)])));
    peer.answer = () => ({ status: 200, delayMs: 120 });

    child = await start();
    await eventually(async () => peer.messages.length >= 10, 30_000, 'some messages sent');
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const [{ sending }] = await q(`SELECT count(*)::int AS sending FROM notification_delivery WHERE status = 'SENDING'`);
    expect(sending).toBeGreaterThan(0); // killed mid-send: claimed deliveries left behind
    const atKill = peer.messages.length;
    expect(atKill).toBeLessThan(ids.length * channels.length);

    child = await start();
    await eventually(
      async () => {
        const [{ open }] = await q(
          `SELECT count(*)::int AS open FROM notification_trigger_event WHERE event_cuid = ANY($1::varchar[]) AND status NOT IN ('SENT', 'ARCHIVED')`,
          [ids],
        );
        return open === 0;
      },
      120_000,
      'every event SENT or ARCHIVED',
    );

    const events = await q(`SELECT status::text AS status, last_error FROM notification_trigger_event WHERE event_cuid = ANY($1::varchar[])`, [ids]);
    expect(events.filter((e: { status: string }) => e.status !== 'SENT')).toEqual([]);
    const deliveries = (await q(
      `SELECT event_cuid, channel_cuid, status::text AS status, duplicates FROM notification_delivery WHERE event_cuid = ANY($1::varchar[])`,
      [ids],
    )) as {
      event_cuid: string;
      channel_cuid: string;
      status: string;
      duplicates: number;
    }[];
    expect(deliveries).toHaveLength(ids.length * channels.length);
    const counts = peer.countsByEventAndChannel();
    const wrong = deliveries.filter((d) => {
      const n = counts.get(`${d.event_cuid}/${d.channel_cuid}`) ?? 0;
      return d.status !== 'SENT' || n < 1 || n > 1 + d.duplicates || d.duplicates > 1;
    });
    expect(wrong).toEqual([]); // nothing lost; every repeat counted; at most one duplicate each
    const counted = deliveries.reduce((s, d) => s + d.duplicates, 0);
    expect(counted).toBeGreaterThan(0); // the kill did leave sends in flight, and they were counted
    const repeats = [...counts.values()].reduce((s, n) => s + (n - 1), 0);
    expect(repeats).toBeLessThanOrEqual(counted);
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
    expect(output).not.toMatch(/UnhandledPromiseRejection|TypeError/);
  }, 240_000);
});
