import { z } from 'zod';
import { notFound } from '../common/errors';
import { boundedJson, ZName, ZRefCuid } from '../common/zod-fields';
import type { ResourceDefinition } from '../crud/resource';
import { resourceAccess } from '../access/resources';

/** Largest dashboard layout, as JSON text (bytes): layouts are larger than other JSON fields. */
export const DASHBOARD_META_MAX_BYTES = 100_000;

const ZMeta = boundedJson(z.record(z.string(), z.unknown()), { maxBytes: DASHBOARD_META_MAX_BYTES });

/**
 * Dashboards of a company (`entityowner_cuid` = the owning company): everyone of the company sees
 * them; create and edit need level 0 (spec §6 "Dashboard create, edit and save need level 0").
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
  create: z.object({ entityowner_cuid: ZRefCuid, name: ZName, meta: ZMeta.default({}), role_cuid: ZRefCuid.nullable().optional() }),
  update: z.object({ entityowner_cuid: ZRefCuid, name: ZName, meta: ZMeta, role_cuid: ZRefCuid.nullable() }).partial(),
  ...resourceAccess('dashboard'),
  scope: { kind: 'company', column: 'entityowner_cuid' },
  search: ['name'],
  filters: ['entityowner_cuid', 'role_cuid'],
  sorts: ['name', 'entityowner_cuid', 'role_cuid'],
  defaultSort: { field: 'name', order: 'ASC' },
};

/** Before a dashboard is written: its owner company and its role exist. */
export async function checkDashboard(query: (sql: string, params: unknown[]) => Promise<unknown[]>, row: Record<string, unknown>): Promise<void> {
  if (row.entityowner_cuid !== undefined) {
    const [company] = await query(`SELECT 1 FROM company WHERE company_cuid = $1`, [row.entityowner_cuid]);
    if (!company) throw notFound('Company');
  }
  if (row.role_cuid !== undefined && row.role_cuid !== null) {
    const [role] = await query(`SELECT 1 FROM role WHERE role_cuid = $1`, [row.role_cuid]);
    if (!role) throw notFound('Role');
  }
}
