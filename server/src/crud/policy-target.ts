import type { EntityManager } from 'typeorm';
import type { Actor, PolicyTarget } from '../access/policy';
import { scopeOf } from '../access/scope';
import { notFound } from '../common/errors';
import { SqlParams } from '../database/sql-params';
import { systemSharesSql, visibleSystemSql } from '../tenancy/visibility';
import { withField } from '../common/field-error';
import type { ResourceDefinition } from './resource';
import { quote, type Row } from './sql-builder';

/**
 * What the policy looks at for a row of a resource (its company, its system's owner and shares),
 * and the checks that the references a caller gives are ones they may use.
 */

/** What the policy's target rule looks at, for a row (or an input) of this resource (with `def.targetExtra`). */
export async function policyTarget(def: ResourceDefinition, row: Row, manager: EntityManager): Promise<PolicyTarget> {
  const base = await scopeTarget(def, row, manager);
  return def.targetExtra ? { ...base, ...(await def.targetExtra(manager, row)) } : base;
}

async function scopeTarget(def: ResourceDefinition, row: Row, manager: EntityManager): Promise<PolicyTarget> {
  switch (def.scope.kind) {
    case 'global':
      return {};
    case 'company':
    case 'companyOrGlobal':
      return { company_cuid: (row[def.scope.column] as string | null) ?? undefined };
    case 'companyOrSystem': {
      const owner = row[def.scope.column] as string | undefined;
      if (!owner) return {};
      const [s] = (await manager.query(
        `SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1`,
        [owner],
      )) as { company_cuid: string; shares: { company_cuid: string; change: boolean }[] }[];
      return s ?? { company_cuid: owner };
    }
    case 'systemSelf':
    case 'system': {
      const system_cuid = (def.scope.kind === 'systemSelf' ? row[def.key] : row[def.scope.column]) as string | undefined;
      const company = def.scope.kind === 'systemSelf' ? (row.company_cuid as string) : undefined;
      if (!system_cuid) return { company_cuid: company };
      const [s] = (await manager.query(
        `SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1`,
        [system_cuid],
      )) as { company_cuid: string; shares: { company_cuid: string; change: boolean }[] }[];
      return s ?? { company_cuid: company };
    }
  }
}

/** The company that owns a row: its company column, or the owner of its system. */
export async function ownerCompany(def: ResourceDefinition, row: Row, manager: EntityManager): Promise<string | undefined> {
  return (await scopeTarget(def, row, manager)).company_cuid;
}

/** A reference the caller gives (company or system of a new row) must be one they can see. */
export async function assertReferenceVisible(actor: Actor, def: ResourceDefinition, input: Row, manager: EntityManager): Promise<void> {
  const scope = scopeOf(actor);
  if (scope.superuser) return;
  if (def.scope.kind === 'company' || def.scope.kind === 'companyOrGlobal' || def.scope.kind === 'systemSelf') {
    const column = def.scope.kind === 'systemSelf' ? 'company_cuid' : def.scope.column;
    const company = input[column] as string | undefined;
    if (company !== undefined && !scope.companies.includes(company)) throw notFound('Company');
  }
  if (def.scope.kind === 'companyOrSystem') {
    const owner = input[def.scope.column] as string | undefined;
    if (owner === undefined || owner === null || scope.companies.includes(owner)) return;
    const p = new SqlParams();
    const [visible] = await manager.query(
      `SELECT 1 FROM system s WHERE s.system_cuid = ${p.add(owner)} AND ${visibleSystemSql(scope, p, 's')}`,
      p.values,
    );
    if (!visible) throw notFound('Owner');
  }
  if (def.scope.kind === 'system') {
    const system = input[def.scope.column] as string | undefined;
    if (system === undefined || system === null) return;
    const p = new SqlParams();
    const [visible] = await manager.query(
      `SELECT 1 FROM system s WHERE s.system_cuid = ${p.add(system)} AND ${visibleSystemSql(scope, p, 's')}`,
      p.values,
    );
    if (!visible) throw notFound('System');
  }
}

/**
 * References that must point at a row of the same company as the record (`sameCompanyReferences`)
 * or of the same system (`sameSystemReferences`); anything else answers NOT_FOUND exactly like a
 * missing id. On an update (`changed` given) the same-system ones are checked when the reference
 * or the record's system changes.
 */
export async function assertSameCompanyReferences(def: ResourceDefinition, row: Row, manager: EntityManager, changed?: readonly string[]): Promise<void> {
  const systemColumn = def.scope.kind === 'system' ? def.scope.column : def.scope.kind === 'systemSelf' ? def.key : undefined;
  for (const ref of def.sameSystemReferences ?? []) await withField(ref.column, async () => {
    const value = row[ref.column];
    if (value === undefined || value === null) return;
    if (changed && !changed.includes(ref.column) && !(systemColumn && changed.includes(systemColumn))) return;
    const [found] = (await manager.query(`SELECT system_cuid FROM ${quote(ref.table)} WHERE ${quote(ref.key)}::text = $1`, [String(value)])) as {
      system_cuid: string | null;
    }[];
    if (!found || !systemColumn || found.system_cuid === null || found.system_cuid !== row[systemColumn]) throw notFound(ref.label);
  });
  let company = row.company_cuid as string | undefined;
  for (const ref of def.sameCompanyReferences ?? []) await withField(ref.column, async () => {
    const value = row[ref.column];
    if (value === undefined || value === null) return;
    if (company === undefined && def.scope.kind === 'system') {
      // Rows that belong to a system take the system's owner company.
      const [s] = (await manager.query(`SELECT company_cuid FROM system WHERE system_cuid = $1`, [row[def.scope.column]])) as {
        company_cuid: string;
      }[];
      company = s?.company_cuid;
    }
    const [found] = (await manager.query(
      `SELECT company_cuid FROM ${quote(ref.table)} WHERE ${quote(ref.key)}::text = $1`,
      [String(value)],
    )) as { company_cuid: string }[];
    if (!found || found.company_cuid !== company) throw notFound(ref.label);
  });
}
