import type { EntityManager } from 'typeorm';
import type { Scope } from '../access/scope';
import { SqlParams } from '../database/sql-params';
import { systemSharesSql } from '../tenancy/visibility';
import type { ResourceDefinition } from './resource';
import { quote, scopeSql } from './sql-builder';

/**
 * The statements behind policy-target.ts: who owns a system and whom it is shared with, whether a
 * caller sees a system, and the company or system of a referenced row. Each runs in the caller's
 * transaction (`manager` first); the one that decides visibility takes the caller's scope first.
 * Table and key names come from resource definitions only (quoted); values are parameters.
 */

export type SystemOwner = { company_cuid: string; shares: { company_cuid: string; change: boolean }[] };

/** A system's owner company and its shares (what the policy's target rule looks at), or none. */
export async function systemOwner(manager: EntityManager, system_cuid: string): Promise<SystemOwner | undefined> {
  const [s] = await manager.query<SystemOwner[]>(`SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1`, [
    system_cuid,
  ]);
  return s;
}

/** The company that owns a system, or none. */
export async function systemCompany(manager: EntityManager, system_cuid: unknown): Promise<string | undefined> {
  const [s] = await manager.query<{ company_cuid: string }[]>(`SELECT company_cuid FROM system WHERE system_cuid = $1`, [system_cuid]);
  return s?.company_cuid;
}

/** The system of a referenced row (`table`.`key` = value): undefined when there is no such row. */
export async function referencedSystem(
  manager: EntityManager,
  ref: { table: string; key: string },
  value: string,
): Promise<{ system_cuid: string | null } | undefined> {
  const [found] = await manager.query<{ system_cuid: string | null }[]>(`SELECT system_cuid FROM ${quote(ref.table)} WHERE ${quote(ref.key)}::text = $1`, [
    value,
  ]);
  return found;
}

/** The company of a referenced row (`table`.`key` = value): undefined when there is no such row. */
export async function referencedCompany(
  manager: EntityManager,
  ref: { table: string; key: string },
  value: string,
): Promise<{ company_cuid: string } | undefined> {
  const [found] = await manager.query<{ company_cuid: string }[]>(`SELECT company_cuid FROM ${quote(ref.table)} WHERE ${quote(ref.key)}::text = $1`, [value]);
  return found;
}

/**
 * Rows of a resource the caller sees whose `column` matches one of `names` (trimmed, any case):
 * CSV imports name references (a site, a system) instead of giving their ids.
 */
export async function visibleByName(
  scope: Scope,
  manager: EntityManager,
  def: ResourceDefinition,
  column: string,
  names: string[],
): Promise<{ n: string; id: string }[]> {
  const p = new SqlParams();
  const match = `lower(btrim(t.${quote(column)}::text))`;
  return await manager.query<{ n: string; id: string }[]>(
    `SELECT ${match} AS n, t.${quote(def.key)}::text AS id FROM ${quote(def.table)} t
      WHERE ${match} = ANY(${p.add(names)}::text[]) AND ${scopeSql(def, scope, p)}`,
    p.values,
  );
}
