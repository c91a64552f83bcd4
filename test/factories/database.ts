import 'reflect-metadata';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ENTITIES } from '../../server/src/api/entities';
import { type Database, openDatabase } from '../../server/src/database/data-source';
import { seedDemo, seedRoles } from '../../server/src/seed/demo-seed';

/**
 * Name of the migrated template database the test databases are copied from (PostgreSQL only).
 * One per test run (globalSetup sets PORTAL_TEST_TEMPLATE; workers inherit it), so two runs on the
 * same server do not drop each other's template.
 */
export const templateDb = (): string => process.env.PORTAL_TEST_TEMPLATE ?? 'portal_test_template';
/** The same, with the roles and the demo seeded (what most test files start from). */
const seededTemplateDb = (): string => `${templateDb()}_demo`;

/** What a test file's database holds at the start. */
export type Start = 'migrated' | 'demo';

/** The roles and the demo, as `npm start` seeds them on a fresh database. */
async function seedTheDemo(ds: DataSource): Promise<void> {
  await seedRoles(ds);
  await seedDemo(ds);
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(serverUrl: string, work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates the two templates once per test run (Jest globalSetup): migrated, and migrated with the
 * demo seeded (one argon2 hash per demo user, about a second a file when each file seeded its own).
 */
export async function createTemplate(serverUrl: string): Promise<void> {
  process.env.PORTAL_TEST_TEMPLATE = `portal_test_template_${process.pid}`;
  const [migrated, demo] = [templateDb(), seededTemplateDb()];
  await admin(serverUrl, async (c) => {
    for (const name of [demo, migrated]) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${migrated}`);
  });
  const db = await openDatabase({ url: withDatabase(serverUrl, migrated), poolSize: 1, entities: ENTITIES });
  await db.close();
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${demo} TEMPLATE ${migrated}`));
  const seeded = await openDatabase({ url: withDatabase(serverUrl, demo), poolSize: 1, entities: ENTITIES }, false);
  try {
    await seedTheDemo(seeded.dataSource);
  } finally {
    await seeded.close();
  }
}

export async function dropTemplate(serverUrl: string): Promise<void> {
  await admin(serverUrl, async (c) => {
    for (const name of [seededTemplateDb(), templateDb()]) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** Where the embedded templates' data folders are kept during a run (globalSetup sets them; workers inherit them). */
const SNAPSHOT_ENV: Record<Start, string> = { migrated: 'PORTAL_TEST_SNAPSHOT', demo: 'PORTAL_TEST_DEMO_SNAPSHOT' };

/**
 * Embedded runs: migrates one in-memory PGlite once per test run (Jest globalSetup) and keeps its
 * data folder in a temporary file that every test file's database starts from (about 1 s instead
 * of an empty start plus every migration, 5–10 s on a busy machine); then seeds the demo into it
 * and keeps that too. The write-ahead log is checkpointed first, so the copy holds the data once.
 */
export async function createEmbeddedTemplate(): Promise<void> {
  const db = await openDatabase({ dataDir: 'memory://', entities: ENTITIES });
  try {
    // The app's database is `postgres`: the two template databases would only be copied into every file's start.
    for (const name of ['template0', 'template1']) {
      await db.dataSource.query(`ALTER DATABASE ${name} IS_TEMPLATE false`);
      await db.dataSource.query(`DROP DATABASE ${name}`);
    }
    const keep = async (start: Start) => {
      await db.dataSource.query('CHECKPOINT');
      const file = join(tmpdir(), `portal-test-${start}-${process.pid}.tar`);
      writeFileSync(file, Buffer.from(await (await db.dump!()).arrayBuffer()));
      process.env[SNAPSHOT_ENV[start]] = file;
    };
    await keep('migrated');
    await seedTheDemo(db.dataSource);
    await keep('demo');
  } finally {
    await db.close();
  }
}

export function dropEmbeddedTemplate(): void {
  for (const name of Object.values(SNAPSHOT_ENV)) if (process.env[name]) rmSync(process.env[name], { force: true });
}

const snapshots = new Map<Start, Blob>();
function embeddedSnapshot(start: Start): Blob | undefined {
  const file = process.env[SNAPSHOT_ENV[start]];
  if (!file) return undefined;
  if (!snapshots.has(start)) snapshots.set(start, new Blob([readFileSync(file)]));
  return snapshots.get(start);
}

/**
 * With SQL_TRACE_DIR set, records the distinct SQL statements this test file sends to PostgreSQL
 * (placeholders and whitespace folded) in one file per test file: `scripts/sql-coverage.mjs` reads
 * them to choose the PostgreSQL step's files. Returns the flush to call when the file's database closes.
 */
let traced: Set<string> | undefined;
function traceSql(): (() => void) | undefined {
  const dir = process.env.SQL_TRACE_DIR;
  if (!dir) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the same module instance the app's driver uses
  const pg = require('pg') as { Client: { prototype: { query: (...a: unknown[]) => unknown } } };
  if (!traced) {
    const seen = new Set<string>();
    traced = seen;
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0];
      const text = typeof q === 'string' ? q : (q as { text?: string } | undefined)?.text;
      if (text && sentByServer()) seen.add(normalizeSql(text));
      return original.apply(this, args);
    };
  }
  const seen = traced;
  return () => {
    const testPath = (expect.getState().testPath ?? 'unknown').replace(process.cwd() + '/', '');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, testPath.replace(/[/\\]/g, '__') + '.sql'), JSON.stringify({ testPath, sql: [...seen] }));
  };
}

/** Whether the statement comes from the product's code (a test's own set-up SQL is not counted). */
function sentByServer(): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return /\/server\/src\/(?!seed\/)/.test(stack);
}

export function normalizeSql(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '$')
    .replace(/\$(, \$)+/g, '$,…')
    .trim();
}

export interface TestDatabase extends Database {
  dataSource: DataSource;
}

/**
 * A fresh, migrated database for one test file: a copy of the template on PostgreSQL when
 * TEST_DATABASE_URL is set, otherwise an in-memory PGlite. `demo`: with the roles and the demo
 * seeded (as `npm start` has them); without a template (a test run outside Jest's globalSetup) they
 * are seeded here.
 */
export async function createTestDataSource(start: Start = 'migrated'): Promise<TestDatabase> {
  const db = await copyOfTemplate(start);
  if (start === 'demo' && !hasTemplate(start)) await seedTheDemo(db.dataSource);
  return db;
}

/** A fresh database with the roles and the demo seeded. */
export const createDemoDataSource = (): Promise<TestDatabase> => createTestDataSource('demo');

function hasTemplate(start: Start): boolean {
  return process.env.TEST_DATABASE_URL ? process.env.PORTAL_TEST_TEMPLATE !== undefined : process.env[SNAPSHOT_ENV[start]] !== undefined;
}

async function copyOfTemplate(start: Start): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // Migrations still run: they find nothing pending in the migrated copy.
    return openDatabase({ dataDir: 'memory://', snapshot: embeddedSnapshot(start), entities: ENTITIES });
  }
  const template = start === 'demo' && hasTemplate(start) ? seededTemplateDb() : templateDb();
  const name = `portal_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const db = await openDatabase({ url: withDatabase(serverUrl, name), poolSize: 5, entities: ENTITIES }, false);
  const trace = traceSql();
  return {
    ...db,
    close: async () => {
      trace?.();
      await db.close();
      await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
