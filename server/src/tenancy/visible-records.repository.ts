import { SqlParams } from '../database/sql-params';
import { type Caller, visibleSystemSql } from './visibility';

/** Anything that sends a statement: the data source, an entity manager, a transaction. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * "Does this caller see that record?" for the records many domains check before acting on an id
 * (a foreign or unknown one answers NOT_FOUND the same way): the caller first, then where to ask.
 */

/** Whether the caller sees the system (owned by, or shared with, one of their companies). */
export async function systemVisibleTo(caller: Caller, db: Queryable, system_cuid: string): Promise<boolean> {
  const p = new SqlParams([system_cuid]);
  const rows = (await db.query(`SELECT 1 FROM system s WHERE s.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}`, p.values)) as unknown[];
  return rows.length > 0;
}

/** Whether the caller sees the alert trigger's system. */
export async function triggerVisibleTo(caller: Caller, db: Queryable, trigger_cuid: string): Promise<boolean> {
  const p = new SqlParams([trigger_cuid]);
  const rows = (await db.query(
    `SELECT 1 FROM notification_trigger t JOIN system s ON s.system_cuid = t.system_cuid
      WHERE t.trigger_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}`,
    p.values,
  )) as unknown[];
  return rows.length > 0;
}
