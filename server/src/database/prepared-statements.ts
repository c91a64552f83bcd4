import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { isEmbedded } from './data-source';

/**
 * Statements PostgreSQL prepares once per pooled connection and keeps a plan for (named
 * statements of the `pg` driver), for hot queries whose planning costs more than their execution
 * and whose best plan does not depend on the values (lookups by key). TypeORM's `query()` sends
 * every statement unnamed: parsed and planned on each call.
 *
 * A name is given per query shape by the caller; the text's hash is added, so a changed text
 * (another setting, a new column) is a new statement, never a clash on a connection that holds
 * the old one. Callers use a fixed set of names: each connection holds at most that many.
 *
 * On the embedded PGlite the statements go unnamed: through its node-postgres adapter a named
 * statement that fails (any error) ends the connection, and every later call on it fails too
 * (the last test of test/medium/prepared-statements.spec.ts fails there with named statements).
 */
export class PreparedStatements {
  private readonly names = new Map<string, string>();

  constructor(private readonly ds: DataSource) {}

  private get pool(): Pool {
    return (this.ds.driver as PostgresDriver).master as Pool;
  }

  async query<T = Record<string, unknown>>(name: string, text: string, values: unknown[]): Promise<T[]> {
    if (isEmbedded(this.ds)) return await this.ds.query<T[]>(text, values);
    const key = `${name}\u0000${text}`;
    let full = this.names.get(key);
    if (!full) {
      full = `${name}-${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
      this.names.set(key, full);
    }
    const { rows } = await this.pool.query({ name: full, text, values });
    return rows as T[];
  }
}
