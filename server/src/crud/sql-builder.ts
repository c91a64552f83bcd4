import { TRPCError } from '@trpc/server';
import type { Scope } from '../access/scope';
import type { SqlParams } from '../database/sql-params';
import { ownedOrSharedSql, visibleCompanySql, visibleSystemIdSql } from '../tenancy/visibility';
import { likeNeedle } from './list-query';
import type { ResourceDefinition } from './resource';
import { textOf } from '../../../shared/common/text';

/**
 * The SQL of the generic CRUD over a resource definition. Identifiers come from the definition
 * only (quoted); every value is a parameter.
 */
export type Row = Record<string, unknown>;

export const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/** `<expr> AS "<column>"` for every column of the record (computed ones from `computed`, when given). */
export function selectSql(def: ResourceDefinition, computed?: Record<string, string>): string {
  return Object.keys(def.record.shape)
    .map((c) => `${computed?.[c] ?? def.selectExpressions?.[c] ?? `t.${quote(c)}`} AS ${quote(c)}`)
    .join(', ');
}

/** SQL condition limiting rows of `t` to what the caller may see. */
export function scopeSql(def: Pick<ResourceDefinition, 'scope' | 'callerWhere' | 'baseWhere'>, scope: Scope, p: SqlParams): string {
  if (def.baseWhere) return `(${def.baseWhere}) AND ${scopeSql({ ...def, baseWhere: undefined }, scope, p)}`;
  if (def.callerWhere) return `(${def.callerWhere(scope, p)}) AND ${scopeSql({ ...def, callerWhere: undefined }, scope, p)}`;
  if (scope.superuser || def.scope.kind === 'global') return 'TRUE';
  switch (def.scope.kind) {
    case 'company':
      return visibleCompanySql(scope, p, `t.${quote(def.scope.column)}`);
    case 'companyOrGlobal':
      return visibleCompanySql(scope, p, `t.${quote(def.scope.column)}`, { orGlobal: true });
    case 'systemSelf':
      return ownedOrSharedSql(scope, p, { company: 't.company_cuid', system: 't.system_cuid' });
    case 'system':
      return visibleSystemIdSql(scope, p, `t.${quote(def.scope.column)}`);
    case 'companyOrSystem': {
      const column = `t.${quote(def.scope.column)}`;
      return `(${visibleCompanySql(scope, p, column)} OR ${visibleSystemIdSql(scope, p, column)})`;
    }
  }
}

/** Conditions for react-admin's `filter`: `q` over the search columns, equality or a list otherwise. */
export function filterSql(def: ResourceDefinition, filter: Record<string, unknown>, p: SqlParams): string[] {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined || value === '') continue;
    if (field === 'q') {
      if (!def.search.length) continue;
      const needle = p.add(likeNeedle(textOf(value)));
      parts.push(`(${def.search.map((c) => `t.${quote(c)}::text ILIKE ${needle}`).join(' OR ')})`);
      continue;
    }
    const column = field === 'id' ? def.key : field;
    if (field !== 'id' && !def.filters.includes(field)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown filter: ${field}` });
    }
    if (value === null) parts.push(`t.${quote(column)} IS NULL`);
    else if (Array.isArray(value)) parts.push(`t.${quote(column)}::text = ANY(${p.add(value.map(String))}::text[])`);
    else parts.push(`t.${quote(column)}::text = ${p.add(textOf(value))}`);
  }
  return parts;
}

/** The `where` of a list: scope, filter, and a getManyReference target (one of the filters) when given. */
export function listWhere(
  def: ResourceDefinition,
  scope: Scope,
  filter: Record<string, unknown>,
  p: SqlParams,
  extra?: { target: string; id: string },
): string[] {
  const where = [scopeSql(def, scope, p), ...filterSql(def, filter, p)];
  if (extra) {
    if (!def.filters.includes(extra.target)) throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown reference: ${extra.target}` });
    where.push(`t.${quote(extra.target)}::text = ${p.add(extra.id)}`);
  }
  return where;
}

/** Objects (JSON columns) are written as JSON text; dates and scalars as they are. */
const serialize = (value: unknown): unknown => (value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value);

/** `INSERT … RETURNING <key> AS key` of the defined columns of `row`. */
export function insertSql(def: ResourceDefinition, row: Row, p: SqlParams): string {
  const cols = Object.keys(row).filter((c) => row[c] !== undefined);
  const values = cols.map((c) => p.add(serialize(row[c])));
  return cols.length
    ? `INSERT INTO ${quote(def.table)} (${cols.map(quote).join(', ')}) VALUES (${values.join(', ')}) RETURNING ${quote(def.key)} AS key`
    : `INSERT INTO ${quote(def.table)} DEFAULT VALUES RETURNING ${quote(def.key)} AS key`;
}

/** `UPDATE … SET` the given columns of the row with key `id`. */
export function updateSql(def: ResourceDefinition, id: string, changes: Row, cols: string[], p: SqlParams): string {
  const sets = cols.map((c) => `${quote(c)} = ${p.add(serialize(changes[c]))}`);
  return `UPDATE ${quote(def.table)} SET ${sets.join(', ')} WHERE ${quote(def.key)}::text = ${p.add(id)}`;
}
