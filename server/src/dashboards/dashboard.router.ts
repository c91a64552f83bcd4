import { z } from 'zod';
import { crudProcedures } from '../crud/crud-router.factory';
import { CrudService } from '../crud/crud.service';
import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { dashboardResource } from './dashboard.resource';
import { DashboardsService, MINE_LIMIT } from './dashboards.service';

export { MINE_LIMIT };

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
export const dashboardRoutes = declareRoutes({ crud: CrudService, dashboards: DashboardsService }, ({ crud, dashboards }) =>
  router({
    ...crudProcedures(dashboardResource, crud, { checkInput: (_kind, row) => dashboards.checkInput(row) }),
    mine: procedure
      .meta({ perm: dashboardResource.perms.view })
      .input(ZMineInput)
      .output(z.array(ZMineDashboard))
      .query(({ ctx, input }) => dashboards.mine(ctx.actor, input?.system_cuid)),
  }),
);
