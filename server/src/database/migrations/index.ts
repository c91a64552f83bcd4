import type { MigrationInterface } from 'typeorm';
import { modulesIn } from '../modules-in';

/** A migration's file name: `<13-digit timestamp>-<name>.ts` (`.js` once built). */
export const MIGRATION_FILE = /^(\d{13})-[a-z0-9]+(?:-[a-z0-9]+)*\.(?:ts|js)$/;

type MigrationClass = new () => MigrationInterface;

/**
 * The migrations of one file: the classes it exports whose name ends with the file's timestamp
 * (TypeORM orders and records migrations by that suffix). Exactly one, or the file is refused.
 */
function migrationOf(file: string, exported: Readonly<Record<string, unknown>>): MigrationClass {
  const timestamp = MIGRATION_FILE.exec(file)![1];
  const classes = Object.values(exported).filter(
    (v): v is MigrationClass => typeof v === 'function' && v.name.endsWith(timestamp) && typeof (v.prototype as MigrationInterface).up === 'function',
  );
  if (classes.length !== 1) throw new Error(`database/migrations/${file}: exports ${classes.length} migration classes named …${timestamp}; one is expected`);
  return classes[0];
}

/**
 * Every migration, in order: each `<timestamp>-<name>.ts` file of this folder, found when the
 * server starts (a new migration is its file, nothing else). The schema is what these say;
 * `synchronize` is never used.
 */
export const MIGRATIONS: MigrationClass[] = modulesIn(__dirname, /^(?!index\.)(?!.*\.spec\.[tj]s$).*\.[tj]s$/).map(({ file, exported }) => {
  // A misnamed file would otherwise be skipped without a word.
  if (!MIGRATION_FILE.test(file)) throw new Error(`database/migrations/${file}: not named <13-digit timestamp>-<name>.ts`);
  return migrationOf(file, exported);
});

const stamps = MIGRATIONS.map((m) => m.name.slice(-13));
if (new Set(stamps).size !== stamps.length) throw new Error(`database/migrations: two migrations share a timestamp (${stamps.join(', ')})`);
