import { join } from 'node:path';
import { getMetadataArgsStorage } from 'typeorm';
import { modulesIn } from '../database/modules-in';

/** An entity's file name: `<name>.entity.ts` (`.js` once built), anywhere under server/src. */
export const ENTITY_FILE = /\.entity\.(?:ts|js)$/;

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type of an entity class
type EntityClass = Function;

/** The classes a module exports that TypeORM knows as entities (`@Entity`). */
function entitiesOf(exported: Readonly<Record<string, unknown>>): EntityClass[] {
  const tables = getMetadataArgsStorage().tables;
  return Object.values(exported).filter((v): v is EntityClass => typeof v === 'function' && tables.some((t) => t.target === v));
}

/**
 * Every TypeORM entity: the `@Entity` classes of every `*.entity.ts` file under server/src, found
 * when this module loads (a new entity is its file, nothing else). The schema itself is defined by
 * the migrations; a test (`schema-sync.spec.ts`) proves these classes and the migrated schema agree.
 */
export const ENTITIES: EntityClass[] = modulesIn(join(__dirname, '..'), ENTITY_FILE, { recursive: true }).flatMap(({ file, exported }) => {
  const found = entitiesOf(exported);
  if (found.length === 0) throw new Error(`server/src/${file}: an entity file without an @Entity class`);
  return found;
});
