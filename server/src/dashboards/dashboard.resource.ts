import { z } from 'zod';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../../../shared/access/policy';
import { resourceAccess } from '../../../shared/access/resources';
import { scopeOf } from '../access/scope';
import { notFound } from '../common/errors';
import { ZName, ZRefCuid } from '../../../shared/common/zod-fields';
import { fieldError } from '../common/field-error';
import type { ResourceDefinition } from '../crud/resource';
import { systemJob } from '../common/system-job';
import { layoutReferences, ZDashboardLayout, ZDashboardMeta } from '../../../shared/dashboards/dashboard-layout.schema';
import { DASHBOARD_VISIBILITY, DashboardsRepository } from './dashboards.repository';

export { DASHBOARD_META_MAX_BYTES } from '../../../shared/dashboards/dashboard-layout.schema';
export { dashboardRoleSql } from './dashboards.repository';

/** Who asks the existence checks before a write: the CRUD's input check (no caller at hand; the write itself is scoped). */
const INPUT_CHECK = systemJob('dashboard-input-check');

/**
 * Dashboards (spec §3.3): owned by a company or a system (`entityowner_cuid`), optionally made for a
 * role. Members see those of their companies and visible systems made for their level or above;
 * create, edit and delete need level 0 (spec §6 "Dashboard create, edit and save need level 0").
 * `meta` is a layout (dashboard-layout.schema.ts) whose systems and devices the saver must see.
 */
export const dashboardResource: ResourceDefinition = {
  name: 'dashboard',
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
  create: z.object({
    entityowner_cuid: ZRefCuid,
    name: ZName,
    meta: ZDashboardMeta.default(ZDashboardLayout.parse({})),
    role_cuid: ZRefCuid.nullable().optional(),
  }),
  update: z.object({ entityowner_cuid: ZRefCuid, name: ZName, meta: ZDashboardMeta, role_cuid: ZRefCuid.nullable() }).partial(),
  ...resourceAccess('dashboard'),
  ...DASHBOARD_VISIBILITY,
  search: ['name'],
  filters: ['entityowner_cuid', 'role_cuid'],
  sorts: ['name', 'entityowner_cuid', 'role_cuid'],
  defaultSort: { field: 'name', order: 'ASC' },
  beforeWrite: (tx, actor, row, current) => checkLayoutReferences(tx, actor, row, current),
};

/** Before a dashboard is written: its owner (a company or a system) and its role exist. */
export async function checkDashboard(repo: DashboardsRepository, row: Record<string, unknown>): Promise<void> {
  if (row.entityowner_cuid !== undefined) {
    if (!(await repo.ownerExists(INPUT_CHECK, row.entityowner_cuid))) throw fieldError(['data', 'entityowner_cuid'], 'Owner not found', 'NOT_FOUND');
  }
  if (row.role_cuid !== undefined && row.role_cuid !== null) {
    if (!(await repo.roleExists(INPUT_CHECK, row.role_cuid))) throw notFound('Role');
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
  const repo = new DashboardsRepository(tx.connection);
  for (const ref of layoutReferences(parsed.data)) {
    if (!(await repo.seesSystem(scope, tx, ref.system_cuid, ref.entity_cuid)))
      throw fieldError(['data', 'meta', ...ref.path], ref.entity_cuid ? 'Device not found' : 'System not found', 'NOT_FOUND');
  }
}
