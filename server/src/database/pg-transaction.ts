import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * A transaction on a pooled connection of the data source, bypassing TypeORM's query runner:
 * less overhead per batch, and a failed batch does not dump thousands of parameters into the log.
 * Works in both database modes (the embedded PGlite is reached through the same `pg` pool).
 */
export async function withPgTransaction<T>(ds: DataSource, work: (c: PoolClient) => Promise<T>): Promise<T> {
  const pool = (ds.driver as unknown as { master: Pool }).master;
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw error;
  } finally {
    client.release(broken ? true : undefined);
  }
}
