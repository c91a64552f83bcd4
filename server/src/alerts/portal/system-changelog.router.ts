import { crudProcedures } from '../../crud/crud-router.factory';
import { CrudService } from '../../crud/crud.service';
import { ZChangelog, ZChangelogCreateInput } from './portal.schema';
import { PortalNotificationsService } from './portal-notifications.service';
import { procedure, router } from '../../trpc/trpc';
import { declareRoutes } from '../../trpc/routes';
import { systemChangelogResource } from '../../systems/system-changelog.resource';

/** `systemChangelog`: the generated reads, edits and deletes; `create` also tells who watches the system. */
export const systemChangelogRoutes = declareRoutes({ notifications: PortalNotificationsService, crud: CrudService }, ({ notifications, crud }) => {
  const { getList, getOne, getMany, getManyReference, update, delete: remove, deleteMany, access } = crudProcedures(systemChangelogResource, crud);
  return router({
    getList,
    getOne,
    getMany,
    getManyReference,
    update,
    delete: remove,
    deleteMany,
    access,
    /** Writes a changelog entry and tells the people who watch that system (a CHANGELOG toast). */
    create: procedure
      .meta({ perm: 'changelog.create' })
      .input(ZChangelogCreateInput)
      .output(ZChangelog)
      .mutation(({ ctx, input }) => notifications.createChangelog(ctx.actor, input)),
  });
});
