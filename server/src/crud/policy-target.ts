import type { EntityManager } from 'typeorm';
import type { Actor, PolicyTarget } from '../../../shared/access/policy';
import { scopeOf } from '../access/scope';
import { notFound } from '../common/errors';
import { withField } from '../common/field-error';
import type { ResourceDefinition } from './resource';
import { systemVisibleTo } from '../tenancy/visible-records.repository';
import { referencedCompany, referencedSystem, systemCompany, systemOwner } from './references.repository';
import type { Row } from './sql-builder';
import { textOf } from '../../../shared/common/text';

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
      return (await systemOwner(manager, owner)) ?? { company_cuid: owner };
    }
    case 'systemSelf':
    case 'system': {
      const system_cuid = (def.scope.kind === 'systemSelf' ? row[def.key] : row[def.scope.column]) as string | undefined;
      const company = def.scope.kind === 'systemSelf' ? (row.company_cuid as string) : undefined;
      if (!system_cuid) return { company_cuid: company };
      return (await systemOwner(manager, system_cuid)) ?? { company_cuid: company };
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
    if (!(await systemVisibleTo(scope, manager, owner))) throw notFound('Owner');
  }
  if (def.scope.kind === 'system') {
    const system = input[def.scope.column] as string | undefined;
    if (system === undefined || system === null) return;
    if (!(await systemVisibleTo(scope, manager, system))) throw notFound('System');
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
  for (const ref of def.sameSystemReferences ?? [])
    await withField(ref.column, async () => {
      const value = row[ref.column];
      if (value === undefined || value === null) return;
      if (changed && !changed.includes(ref.column) && !(systemColumn && changed.includes(systemColumn))) return;
      const found = await referencedSystem(manager, ref, textOf(value));
      if (!found || !systemColumn || found.system_cuid === null || found.system_cuid !== row[systemColumn]) throw notFound(ref.label);
    });
  let company = row.company_cuid as string | undefined;
  for (const ref of def.sameCompanyReferences ?? [])
    await withField(ref.column, async () => {
      const value = row[ref.column];
      if (value === undefined || value === null) return;
      if (company === undefined && def.scope.kind === 'system') {
        // Rows that belong to a system take the system's owner company.
        company = await systemCompany(manager, row[def.scope.column]);
      }
      const found = await referencedCompany(manager, ref, textOf(value));
      if (!found || found.company_cuid !== company) throw notFound(ref.label);
    });
}
