import { z } from 'zod';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../access/policy';
import { resourceAccess } from '../access/resources';
import { scopeOf, type Scope } from '../access/scope';
import { notFound } from '../common/errors';
import { ZName, ZRefCuid } from '../common/zod-fields';
import { fieldError } from '../common/field-error';
import type { ResourceDefinition } from '../crud/resource';
import { SqlParams } from '../database/sql-params';
import { companySeesSystemSql, visibleSystemSql } from '../tenancy/visibility';
import { layoutReferences, ZDashboardLayout, ZDashboardMeta } from './dashboard-layout.schema';

export { DASHBOARD_META_MAX_BYTES } from './dashboard-layout.schema';

/**
 * The role condition of a dashboard (issue 13 §2), on alias `t`: a dashboard without a role is for
 * everyone who sees its owner; one made for a role of level L is for the members whose level in a
 * company that sees the owner (the company itself; for a system, its owner company or a company it
 * is shared with) is L or more powerful (<= L). A superuser sees every dashboard.
 */
export function dashboardRoleSql(scope: Scope, p: SqlParams): string {
  if (scope.superuser) return 'TRUE';
  const entries = Object.entries(scope.levels ?? {});
  const companies = p.add(entries.map(([c]) => c));
  const levels = p.add(entries.map(([, l]) => l));
  return `(t.role_cuid IS NULL OR EXISTS (
    SELECT 1 FROM role dr
      JOIN unnest(${companies}::varchar[], ${levels}::int[]) AS dm(company_cuid, level) ON dm.level <= dr.level
     WHERE dr.role_cuid = t.role_cuid
       AND (dm.company_cuid = t.entityowner_cuid
            OR EXISTS (SELECT 1 FROM system ds WHERE ds.system_cuid = t.entityowner_cuid AND ${companySeesSystemSql('dm.company_cuid', 'ds')}))))`;
}

/**
 * Dashboards (spec §3.3): owned by a company or a system (`entityowner_cuid`), optionally made for a
 * role. Members see those of their companies and visible systems made for their level or above;
 * create, edit and delete need level 0 (spec §6 "Dashboard create, edit and save need level 0").
 * `meta` is a layout (dashboard-layout.schema.ts) whose systems and devices the saver must see.
 */
export const dashboardResource: ResourceDefinition = {
  name: 'dashboard',
  label: 'Dashboard',
  table: 'dashboard',
  key: 'dashboard_cuid',
  generatedKey: true,
  record: z.object({
    dashboard_cuid: z.string(),
    entityowner_cuid: z.string(),
    name: z.string(),
    meta: z.record(z.string(), z.unknown()),
    role_cuid: z.string().nullable(),
  }),
  create: z.object({ entityowner_cuid: ZRefCuid, name: ZName, meta: ZDashboardMeta.default(ZDashboardLayout.parse({})), role_cuid: ZRefCuid.nullable().optional() }),
  update: z.object({ entityowner_cuid: ZRefCuid, name: ZName, meta: ZDashboardMeta, role_cuid: ZRefCuid.nullable() }).partial(),
  ...resourceAccess('dashboard'),
  scope: { kind: 'companyOrSystem', column: 'entityowner_cuid' },
  callerWhere: dashboardRoleSql,
  search: ['name'],
  filters: ['entityowner_cuid', 'role_cuid'],
  sorts: ['name', 'entityowner_cuid', 'role_cuid'],
  defaultSort: { field: 'name', order: 'ASC' },
  beforeWrite: (tx, actor, row, current) => checkLayoutReferences(tx, actor, row, current),
};

/** Before a dashboard is written: its owner (a company or a system) and its role exist. */
export async function checkDashboard(query: (sql: string, params: unknown[]) => Promise<unknown[]>, row: Record<string, unknown>): Promise<void> {
  if (row.entityowner_cuid !== undefined) {
    const [owner] = await query(
      `SELECT 1 FROM company WHERE company_cuid = $1 UNION ALL SELECT 1 FROM system WHERE system_cuid = $1`,
      [row.entityowner_cuid],
    );
    if (!owner) throw fieldError(['data', 'entityowner_cuid'], 'Owner not found', 'NOT_FOUND');
  }
  if (row.role_cuid !== undefined && row.role_cuid !== null) {
    const [role] = await query(`SELECT 1 FROM role WHERE role_cuid = $1`, [row.role_cuid]);
    if (!role) throw notFound('Role');
  }
}

/**
 * The systems and devices a layout names exist and the saver sees them (a device of that very
 * system); otherwise NOT_FOUND on the widget's field (`data.meta.widgets.1.settings.system_cuid`),
 * the same for a foreign id as for a missing one.
 */
async function checkLayoutReferences(tx: EntityManager, actor: Actor, row: Record<string, unknown>, current?: Record<string, unknown>): Promise<void> {
  if (current && row.meta === current.meta) return;
  const parsed = ZDashboardLayout.safeParse(row.meta ?? {});
  if (!parsed.success) return; // input was parsed already; a stored layout is not re-judged here
  const scope = scopeOf(actor);
  for (const ref of layoutReferences(parsed.data)) {
    const p = new SqlParams();
    const device = ref.entity_cuid
      ? `AND EXISTS (SELECT 1 FROM entity e WHERE e.entity_cuid = ${p.add(ref.entity_cuid)} AND e.system_cuid = s.system_cuid)`
      : '';
    const [seen] = await tx.query(
      `SELECT 1 FROM system s WHERE s.system_cuid = ${p.add(ref.system_cuid)} AND ${visibleSystemSql(scope, p, 's')} ${device}`,
      p.values,
    );
    if (!seen) throw fieldError(['data', 'meta', ...ref.path], ref.entity_cuid ? 'Device not found' : 'System not found', 'NOT_FOUND');
  }
}
