import { randomBytes } from 'node:crypto';
import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/api/app-config';
import type { AppConfig } from '../../server/src/config/config';
import { createDemoDataSource, type TestDatabase } from './database';

export interface TestApp {
  app: NestFastifyApplication;
  db: TestDatabase;
  config: AppConfig;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The whole application over real HTTP on a random port, on a fresh seeded database.
 * One application per test file: passport keeps its strategies process-wide, so a second app in
 * the same module registry would take over the first one's login.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { liveOverPostgres?: boolean } = {}): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'error',
    // Tests write their own telemetry: no simulator, and no MQTT broker unless a test asks for one.
    SIMULATOR: 'false',
    MQTT_PORT: '0',
    // Tests drive the API far faster than people do: the per-session brake is off unless a test
    // sets it (test/http/request-brake.spec.ts; the browser tests run with the default).
    REQUESTS_PER_SESSION_PER_SECOND: '0',
    ...env,
  });
  const db = await createDemoDataSource();
  // Live events through LISTEN/NOTIFY on PostgreSQL, as a deployment with DATABASE_URL has them.
  const url = (db.dataSource.options as { url?: string }).url;
  if (options.liveOverPostgres && url) config.DATABASE_URL = url;
  const app = await createApp(config, db, false);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    db,
    config,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}
