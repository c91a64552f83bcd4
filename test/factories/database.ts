import 'reflect-metadata';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ENTITIES } from '../../server/src/api/entities';
import { type Database, openDatabase } from '../../server/src/database/data-source';

/**
 * Name of the migrated template database the test databases are copied from (PostgreSQL only).
 * One per test run (globalSetup sets PORTAL_TEST_TEMPLATE; workers inherit it), so two runs on the
 * same server do not drop each other's template.
 */
export const templateDb = (): string => process.env.PORTAL_TEST_TEMPLATE ?? 'portal_test_template';

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

/** Creates the migrated template once per test run (Jest globalSetup). */
export async function createTemplate(serverUrl: string): Promise<void> {
  process.env.PORTAL_TEST_TEMPLATE = `portal_test_template_${process.pid}`;
  const TEMPLATE_DB = templateDb();
  await admin(serverUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  });
  const db = await openDatabase({ url: withDatabase(serverUrl, TEMPLATE_DB), poolSize: 1, entities: ENTITIES });
  await db.close();
}

export async function dropTemplate(serverUrl: string): Promise<void> {
  await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${templateDb()} WITH (FORCE)`));
}

/**
 * Embedded runs: migrates one in-memory PGlite once per test run (Jest globalSetup) and keeps its
 * data folder in a temporary file that every test file's database starts from (about 1 s instead
 * of an empty start plus every migration, 5–10 s on a busy machine).
 */
export async function createEmbeddedTemplate(): Promise<void> {
  const db = await openDatabase({ dataDir: 'memory://' });
  try {
    const file = join(tmpdir(), `portal-test-template-${process.pid}.tar`);
    writeFileSync(file, Buffer.from(await (await db.dump!()).arrayBuffer()));
    process.env.PORTAL_TEST_SNAPSHOT = file;
  } finally {
    await db.close();
  }
}

export function dropEmbeddedTemplate(): void {
  if (process.env.PORTAL_TEST_SNAPSHOT) rmSync(process.env.PORTAL_TEST_SNAPSHOT, { force: true });
}

let snapshot: Blob | undefined;
function embeddedSnapshot(): Blob | undefined {
  const file = process.env.PORTAL_TEST_SNAPSHOT;
  if (!file) return undefined;
  snapshot ??= new Blob([readFileSync(file)]);
  return snapshot;
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
 * TEST_DATABASE_URL is set, otherwise an in-memory PGlite.
 */
export async function createTestDataSource(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // Migrations still run: they find nothing pending in the migrated copy.
    return openDatabase({ dataDir: 'memory://', snapshot: embeddedSnapshot(), entities: ENTITIES });
  }
  const name = `portal_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${templateDb()}`));
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
