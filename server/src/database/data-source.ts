import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';

export interface DatabaseSettings {
  /** PostgreSQL connection string; undefined → embedded PGlite. */
  url?: string;
  /** Folder of the embedded database, or 'memory://' for a throw-away one. */
  dataDir?: string;
  /**
   * A throw-away embedded database starts as a copy of this data folder (a PGlite dump, see
   * `Database.dump`) instead of empty: tests copy one migrated database instead of migrating each.
   */
  snapshot?: Blob;
  poolSize?: number;
  logging?: boolean;
  /**
   * The entity classes TypeORM maps (the composition root's list, api/entities.ts). Callers that
   * only send SQL (the simulator, benches) leave it out; the schema-sync test and the seeds need it.
   */
  entities?: DataSourceOptions['entities'];
}

export interface Database {
  kind: 'postgres' | 'embedded';
  /** The PostgreSQL connection string (postgres only): LISTEN needs a connection of its own. */
  url?: string;
  dataSource: DataSource;
  /** Closes the pool and, in embedded mode, the PGlite instance (Jest hangs otherwise). */
  close(): Promise<void>;
  /** Embedded only: the whole data folder as an uncompressed tarball (`DatabaseSettings.snapshot`). */
  dump?(): Promise<Blob>;
}

function baseOptions(settings: DatabaseSettings): Omit<DataSourceOptions, 'type'> {
  return {
    entities: settings.entities ?? [],
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: settings.logging ? ['error', 'warn', 'migration'] : ['error'],
  };
}

/** Data sources on the embedded PGlite (some driver features behave differently there). */
const EMBEDDED = new WeakSet<DataSource>();

/** Whether the data source is the embedded PGlite (one process, one connection) rather than a PostgreSQL server. */
export function isEmbedded(ds: DataSource): boolean {
  return EMBEDDED.has(ds);
}

/**
 * Creates (but does not initialize) the data source. In embedded mode a PGlite instance is
 * started and reached through its node-postgres adapter: the real `pg` pool with one connection,
 * so concurrent transactions queue instead of sharing a connection.
 */
export async function createDataSource(settings: DatabaseSettings): Promise<Database> {
  if (settings.url) {
    const dataSource = new DataSource({
      ...baseOptions(settings),
      type: 'postgres',
      url: settings.url,
      poolSize: settings.poolSize ?? 10,
      extra: { max: settings.poolSize ?? 10, idleTimeoutMillis: 30_000 },
    } as DataSourceOptions);
    return {
      kind: 'postgres',
      url: settings.url,
      dataSource,
      close: async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const dir = settings.dataDir ?? './data';
  let pglite: InstanceType<typeof PGlite>;
  if (dir.startsWith('memory://')) {
    pglite = await PGlite.create(settings.snapshot ? { loadDataDir: settings.snapshot } : {});
  } else {
    const full = resolve(dir, 'pglite');
    mkdirSync(full, { recursive: true });
    pglite = await PGlite.create(full);
  }
  const dataSource = new DataSource({
    ...baseOptions(settings),
    type: 'postgres',
    poolSize: 1,
    extra: createPgConfig(pglite),
  } as DataSourceOptions);
  EMBEDDED.add(dataSource);
  return {
    kind: 'embedded',
    dataSource,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      if (!pglite.closed) await pglite.close();
    },
    dump: () => pglite.dumpDataDir('none'),
  };
}

/** Opens the database and applies pending migrations. */
export async function openDatabase(settings: DatabaseSettings, migrate = true): Promise<Database> {
  const db = await createDataSource(settings);
  await db.dataSource.initialize();
  if (migrate) await runMigrations(db);
  return db;
}

/** Advisory lock key held while one instance migrates and seeds (others wait, then find nothing to do). */
const STARTUP_LOCK = 7_000_001;

/** Applies pending migrations (under the start-up lock). */
export function runMigrations(db: Database): Promise<void> {
  return underStartupLock(db, async () => {
    await db.dataSource.runMigrations({ transaction: 'each' });
  });
}

/**
 * Runs start-up work (migrations, seeds) one instance at a time. On PostgreSQL several instances
 * may start at once: the first takes a session advisory lock on a connection of its own, the others
 * wait for it and then find nothing pending, so no migration or seed ever runs twice at once.
 */
export async function underStartupLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  if (db.kind !== 'postgres' || !db.url) return work();
  const { Client } = await import('pg');
  const lock = new Client({ connectionString: db.url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
    return await work();
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
    await lock.end().catch(() => undefined);
  }
}
