import { randomBytes } from 'node:crypto';
import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../server/src/api/app-config';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../../server/src/seed/demo-seed';
import { issueSimulatorToken } from '../../../server/src/simulator/fleet';
import { type Clock, loadTelemetrySettings, TELEMETRY_CLOCK, TELEMETRY_SETTINGS, type TelemetrySettings } from '../../../server/src/telemetry/telemetry.config';
import { configureApp, createFastifyAdapter } from '../../../server/src/app';
import { AppModule } from '../../../server/src/app.module';
import { createDemoDataSource, type TestDatabase } from '../../factories/database';
import { freePort as freePortOf } from '../../factories/mosquitto';
import { patience } from '../../factories/patience';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private t: number = Date.now()) {}
  now(): Date {
    return new Date(this.t);
  }
  set(t: Date | number): void {
    this.t = typeof t === 'number' ? t : t.getTime();
  }
  advance(ms: number): Date {
    this.t += ms;
    return this.now();
  }
}

export interface DemoFixture {
  farm: string;
  workshop: string;
  clinic: string;
  /** Devices of demo-ctrl-1 by entity type. */
  inverter: string;
  battery: string;
  pvCharger: string;
  genset: string;
  demoCompany: string;
  otherCompany: string;
  /** API tokens: of the demo company (owns demo-ctrl-1) and of the other company. */
  demoToken: string;
  otherToken: string;
}

export interface TelemetryTestApp {
  app: NestFastifyApplication;
  db: TestDatabase;
  baseUrl: string;
  settings: TelemetrySettings;
  clock: Clock;
  demo: DemoFixture;
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** Telemetry settings for tests: no timers (sweeps and retention are called by the test), no broker, no simulator. */
export function testSettings(env: Record<string, string> = {}): TelemetrySettings {
  return loadTelemetrySettings(
    {
      MQTT_PORT: '0',
      ONLINE_SWEEP_SECONDS: '0',
      TELEMETRY_RETENTION_INTERVAL_MINUTES: '0',
      SIMULATOR: 'false',
      TELEMETRY_CACHE_TTL_MS: '1000',
      ...env,
    },
    false,
  );
}

export async function demoFixture(db: TestDatabase): Promise<DemoFixture> {
  const q = (sql: string, p?: unknown[]) => db.dataSource.query(sql, p);
  const systems = (await q(`SELECT system_cuid, name FROM system`)) as { system_cuid: string; name: string }[];
  const sys = (name: string) => systems.find((s) => s.name === name)!.system_cuid;
  const devices = (await q(`SELECT entity_cuid, entitytype_id FROM entity WHERE controller_id = $1`, [DEMO_CONTROLLER_ID])) as {
    entity_cuid: string;
    entitytype_id: string;
  }[];
  const dev = (type: string) => devices.find((d) => d.entitytype_id === type)!.entity_cuid;
  const [{ company_cuid: demoCompany }] = await q(`SELECT company_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
  const [{ company_cuid: otherCompany }] = await q(`SELECT company_cuid FROM company WHERE name = 'Other Energy Co'`);
  return {
    farm: sys(DEMO_SYSTEMS.farm),
    workshop: sys(DEMO_SYSTEMS.workshop),
    clinic: sys(DEMO_SYSTEMS.clinic),
    inverter: dev('victron-multiplus-ii'),
    battery: dev('pylontech-us5000'),
    pvCharger: dev('victron-smartsolar-mppt-250-100'),
    genset: dev('diesel-genset'),
    demoCompany,
    otherCompany,
    demoToken: await issueSimulatorToken(db.dataSource, demoCompany, 'test token'),
    otherToken: await issueSimulatorToken(db.dataSource, otherCompany, 'test token'),
  };
}

/**
 * The whole portal (telemetry settings and clock under the test's control) over real HTTP on a random port, on a fresh seeded database
 * (PostgreSQL when TEST_DATABASE_URL is set). `env` adds telemetry settings (MQTT_URL, …).
 */
export async function startTelemetryTestApp(options: { env?: Record<string, string>; clock?: Clock } = {}): Promise<TelemetryTestApp> {
  const config = loadConfig({ NODE_ENV: 'test', SESSION_SECRET: randomBytes(32).toString('base64url'), LOG_LEVEL: 'error' });
  const db = await createDemoDataSource();
  const settings = testSettings(options.env);
  const clock = options.clock ?? { now: () => new Date() };
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(config, db, false)] })
    .overrideProvider(TELEMETRY_SETTINGS)
    .useValue(settings)
    .overrideProvider(TELEMETRY_CLOCK)
    .useValue(clock)
    .compile();
  moduleRef.useLogger(['error']);
  const app = await configureApp(moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(config), { logger: ['error'] }), config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    db,
    baseUrl: `http://127.0.0.1:${port}`,
    settings,
    clock,
    demo: await demoFixture(db),
    query: (sql, params) => db.dataSource.query(sql, params),
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/** The app with its in-process MQTT broker on a free local port; `env` adds settings. */
export async function startBrokerApp(env: Record<string, string> = {}): Promise<{ t: TelemetryTestApp; port: number; url: string }> {
  const port = await freePortOf();
  const t = await startTelemetryTestApp({ env: { MQTT_PORT: String(port), MQTT_HOST: '127.0.0.1', ...env } });
  return { t, port, url: `mqtt://127.0.0.1:${port}` };
}

/** A controller of company B (the demo's other company), of the demo controller's type. */
export async function addOtherCompanyController(t: TelemetryTestApp, controller_id: string): Promise<void> {
  const [{ controllertype_cuid }] = await t.query<{ controllertype_cuid: string }>(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [
    DEMO_CONTROLLER_ID,
  ]);
  await t.query(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, name) VALUES ($1, $2, $3, 'B')`, [
    controller_id,
    controllertype_cuid,
    t.demo.otherCompany,
  ]);
}

/** POST to the HTTP ingest with a token. */
export async function ingest(
  baseUrl: string,
  controller_id: string,
  token: string | undefined,
  body: unknown,
  kind = 'telemetry',
  raw?: string,
  contentType = 'application/json',
) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${baseUrl}/api/ingest/${controller_id}/${kind}`, { method: 'POST', headers, body: raw ?? JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text };
}

export { freePort, type Mosquitto, startMosquitto } from '../../factories/mosquitto';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` returns a truthy value or the time is up (returns the last value). */
export async function eventually<T>(check: () => Promise<T>, ms = 15_000, every = 100): Promise<T> {
  const until = Date.now() + patience(ms);
  let last = await check();
  while (!last && Date.now() < until) {
    await sleep(every);
    last = await check();
  }
  return last;
}
