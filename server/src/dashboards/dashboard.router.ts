import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { scopeOf } from '../access/scope';
import { crudProcedures } from '../crud/crud-router.factory';
import { CrudService } from '../crud/crud.service';
import { scopeSql } from '../crud/sql-builder';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { procedure, router } from '../trpc/trpc';
import { checkDashboard, dashboardResource } from './dashboard.resource';

/** Most dashboards `dashboard.mine` answers (the home shows a handful). */
export const MINE_LIMIT = 200;

export const ZMineInput = z
  .object({
    /** Only the dashboards of this system (its page's "Dashboard" tab). */
    system_cuid: z.string().trim().min(1).max(32).optional(),
  })
  .strict()
  .optional();

export const ZMineDashboard = z.object({
  dashboard_cuid: z.string(),
  name: z.string(),
  entityowner_cuid: z.string(),
  owner_kind: z.enum(['company', 'system']),
  owner_name: z.string(),
  role_cuid: z.string().nullable(),
  role_name: z.string().nullable(),
  role_level: z.number().int().nullable(),
});
export type TMineDashboard = z.infer<typeof ZMineDashboard>;

/**
 * `dashboard`: the generated CRUD (owner and role checked before a write), and `dashboard.mine`:
 * the dashboards the caller sees (their companies' and visible systems', for their role level or
 * above) with the owner's name, for the home page and a system's page.
 */
@Injectable()
export class DashboardRouter {
  readonly router;

  constructor(crud: CrudService, @Inject(DATA_SOURCE) ds: DataSource) {
    const query = (sql: string, params: unknown[]) => ds.query(sql, params) as Promise<unknown[]>;
    this.router = router({
      ...crudProcedures(dashboardResource, crud, { checkInput: (_kind, row) => checkDashboard(query, row) }),
      mine: procedure
        .meta({ perm: dashboardResource.perms.view })
        .input(ZMineInput)
        .output(z.array(ZMineDashboard))
        .query(async ({ ctx, input }) => {
          const p = new SqlParams();
          const where = [scopeSql(dashboardResource, scopeOf(ctx.actor), p)];
          if (input?.system_cuid) where.push(`t.entityowner_cuid = ${p.add(input.system_cuid)}`);
          const rows = (await ds.query(
            `SELECT t.dashboard_cuid, t.name, t.entityowner_cuid,
                    CASE WHEN c.company_cuid IS NOT NULL THEN 'company' ELSE 'system' END AS owner_kind,
                    COALESCE(c.name, s.name, '') AS owner_name,
                    t.role_cuid, r.name AS role_name, r.level::int AS role_level
               FROM dashboard t
               LEFT JOIN company c ON c.company_cuid = t.entityowner_cuid
               LEFT JOIN system s ON s.system_cuid = t.entityowner_cuid
               LEFT JOIN role r ON r.role_cuid = t.role_cuid
              WHERE ${where.join(' AND ')}
              ORDER BY owner_kind, owner_name, r.level DESC NULLS FIRST, t.name, t.dashboard_cuid
              LIMIT ${MINE_LIMIT}`,
            p.values,
          )) as TMineDashboard[];
          return rows.map((r) => ({ ...r, role_level: r.role_level === null ? null : Number(r.role_level) }));
        }),
    });
  }
}
