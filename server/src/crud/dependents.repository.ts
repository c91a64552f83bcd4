import type { EntityManager } from 'typeorm';
import { quote } from './sql-builder';

/**
 * The statements behind dependents.ts: the foreign-key graph of the schema (pg_catalog) and the
 * rows that refer to given rows. They run in the caller's transaction (`manager` first) on ids the
 * service has already checked are the caller's; table and column names come from the catalogue's
 * own graph (quoted), values are parameters.
 */

export type ForeignKeyRow = { parent: string; pcol: string; child: string; ccol: string; del: string; kind: string };

/** Every single-column foreign key of the current schema (partition children left out). */
export function foreignKeys(manager: EntityManager): Promise<ForeignKeyRow[]> {
  return manager.query<ForeignKeyRow[]>(
    `SELECT pc.relname AS parent, fa.attname AS pcol, cc.relname AS child, a.attname AS ccol, c.confdeltype AS del, cc.relkind AS kind
       FROM pg_constraint c
       JOIN pg_class pc ON pc.oid = c.confrelid
       JOIN pg_class cc ON cc.oid = c.conrelid
       JOIN pg_namespace n ON n.oid = cc.relnamespace AND n.nspname = current_schema()
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = c.confkey[1]
      WHERE c.contype = 'f' AND c.conparentid = 0 AND array_length(c.conkey, 1) = 1`,
  );
}

/** The single-column primary key of every table of the current schema that has one. */
export function singleColumnKeys(manager: EntityManager): Promise<{ table: string; key: string }[]> {
  return manager.query<{ table: string; key: string }[]>(
    `SELECT cl.relname AS "table", min(a.attname) AS key
       FROM pg_index i
       JOIN pg_class cl ON cl.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = cl.relnamespace AND n.nspname = current_schema()
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indisprimary
      GROUP BY cl.relname HAVING count(*) = 1`,
  );
}

/** The distinct values of `column` of the rows `ids` (by `key`) of `table`. */
export async function columnValues(manager: EntityManager, table: string, column: string, key: string, ids: string[]): Promise<string[]> {
  const rows = await manager.query<{ v: string }[]>(
    `SELECT DISTINCT ${quote(column)}::text AS v FROM ${quote(table)} WHERE ${quote(key)}::text = ANY($1::text[])`,
    [ids],
  );
  return rows.map((r) => r.v);
}

/** How many rows of `child` refer to `values` through `column`, counted up to `limit` + 1. */
export async function countReferring(manager: EntityManager, child: string, column: string, values: string[], limit: number): Promise<number> {
  const [{ n }] = await manager.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${quote(child)} WHERE ${quote(column)}::text = ANY($1::text[]) LIMIT ${limit + 1}) x`,
    [values],
  );
  return n;
}

/** The keys of at most `limit` + 1 rows of `child` that refer to `values` through `column`. */
export async function referringKeys(
  manager: EntityManager,
  child: string,
  childKey: string,
  column: string,
  values: string[],
  limit: number,
): Promise<string[]> {
  const rows = await manager.query<{ k: string }[]>(
    `SELECT ${quote(childKey)}::text AS k FROM ${quote(child)} WHERE ${quote(column)}::text = ANY($1::text[]) LIMIT ${limit + 1}`,
    [values],
  );
  return rows.map((r) => r.k);
}
