import { z } from 'zod';
import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { ZGetManyParams, ZGetOneParams } from '../crud/crud.schema';
import { listParams, ZWholeFilter } from '../crud/list-query';
import { ROLE_SORTS, ZRole, ZRoleRecord } from './users.schema';
import { UsersService } from './users.service';

export const roleRoutes = declareRoutes({ users: UsersService }, ({ users }) =>
  router({
    /** Spec §7 `role.all`: no input (absent or JSON null, as batched clients send it), the four roles. */
    all: procedure
      .meta({ perm: 'roles.view' })
      .input(z.union([z.void(), z.null()]))
      .output(z.array(ZRole))
      .query(() => users.allRoles()),

    // react-admin's reads (roles are fixed: no writes).
    getList: procedure
      .meta({ perm: 'roles.view' })
      .input(listParams({ level: ZWholeFilter(0, 3) }, ROLE_SORTS))
      .output(z.object({ data: z.array(ZRoleRecord), total: z.number() }))
      .query(({ input }) => users.roleList(input)),

    getOne: procedure
      .meta({ perm: 'roles.view' })
      .input(ZGetOneParams)
      .output(z.object({ data: ZRoleRecord }))
      .query(({ input }) => users.roleOne(input.id)),

    getMany: procedure
      .meta({ perm: 'roles.view' })
      .input(ZGetManyParams)
      .output(z.object({ data: z.array(ZRoleRecord) }))
      .query(({ input }) => users.roleMany(input.ids)),
  }),
);
