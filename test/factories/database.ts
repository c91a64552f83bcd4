import 'reflect-metadata';
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
    return openDatabase({ dataDir: 'memory://', entities: ENTITIES });
  }
  const name = `portal_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${templateDb()}`));
  const db = await openDatabase({ url: withDatabase(serverUrl, name), poolSize: 5, entities: ENTITIES }, false);
  return {
    ...db,
    close: async () => {
      await db.close();
      await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
