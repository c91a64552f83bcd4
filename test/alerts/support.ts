import { randomBytes } from 'node:crypto';
import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { AlertEngine } from '../../server/src/alerts/engine/alert-engine.worker';
import { OutboxSignal } from '../../server/src/alerts/outbox-signal';
import { configureApp, createFastifyAdapter } from '../../server/src/app';
import { AppModule } from '../../server/src/app.module';
import { loadConfig } from '../../server/src/api/app-config';
import { ControllerOnlineStateService } from '../../server/src/telemetry/controller-online-state.service';
import { TELEMETRY_CLOCK, TELEMETRY_SETTINGS } from '../../server/src/telemetry/telemetry.config';
import { createDemoDataSource, type TestDatabase } from '../factories/database';
import { HttpClient } from '../factories/http-client';
import { type DemoFixture, demoFixture, ManualClock, testSettings } from '../mqtt/support/telemetry-app';

export { ingest } from '../mqtt/support/telemetry-app';
export { ManualClock };

export interface AlertTestApp {
  app: NestFastifyApplication;
  db: TestDatabase;
  baseUrl: string;
  clock: ManualClock;
  engine: AlertEngine;
  online: ControllerOnlineStateService;
  demo: DemoFixture;
  /** OutboxSignal.kick() calls seen. */
  kicks: { count: number };
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A signed-in tRPC client of a demo user. */
  client(email: string): Promise<HttpClient>;
  /** Stops the app; the database stays unless `dropDatabase`. */
  close(dropDatabase?: boolean): Promise<void>;
}

/**
 * The whole portal over HTTP with the engine's timer and the outbox off (tests call engine.tick()) and a manual
 * clock shared by telemetry and the engine. With `db`, a new app on an existing database (a restart).
 */
export async function startAlertApp(options: { db?: TestDatabase; clock?: ManualClock; env?: Record<string, string> } = {}): Promise<AlertTestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'error',
    SIMULATOR: 'false',
    MQTT_PORT: '0',
    ALERTS_TIMER_INTERVAL_MS: '0',
    ALERTS_INDEX_CHECK_SECONDS: '0',
    // The engine's events are read as the engine wrote them (PENDING); delivery has its own tests (outbox-*.spec.ts).
    ALERTS_DELIVERY_ENABLED: 'false',
    ...options.env,
  });
  let db = options.db;
  if (!db) {
    db = await createDemoDataSource();
  }
  const clock = options.clock ?? new ManualClock();
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(config, db, false)] })
    .overrideProvider(TELEMETRY_SETTINGS)
    .useValue(testSettings(options.env))
    .overrideProvider(TELEMETRY_CLOCK)
    .useValue(clock)
    .compile();
  moduleRef.useLogger(['error']);
  const app = await configureApp(moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(config), { logger: ['error'] }), config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const kicks = { count: 0 };
  app.get(OutboxSignal).onKick(() => kicks.count++);
  const theDb = db;
  return {
    app,
    db: theDb,
    baseUrl,
    clock,
    engine: app.get(AlertEngine),
    online: app.get(ControllerOnlineStateService),
    demo: await demoFixture(theDb),
    kicks,
    query: (sql, params) => theDb.dataSource.query(sql, params),
    client: async (email) => {
      const c = new HttpClient(baseUrl);
      const res = await c.login(email);
      if (res.status !== 200) throw new Error(`login of ${email}: ${res.status}`);
      return c;
    },
    close: async (dropDatabase = true) => {
      await app.close();
      if (dropDatabase) await theDb.close();
    },
  };
}

/** Events of a trigger in device-time order: [state, ISO time]. */
export async function eventsOf(t: AlertTestApp, trigger_cuid: string): Promise<[string, string][]> {
  const rows = await t.query<{ timestamp: Date; state: string }>(
    `SELECT "timestamp", value->>'state' AS state FROM notification_trigger_event WHERE trigger_cuid = $1 ORDER BY "timestamp", created_at`,
    [trigger_cuid],
  );
  return rows.map((r) => [r.state, new Date(r.timestamp).toISOString()]);
}
