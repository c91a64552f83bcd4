import { Injectable } from '@nestjs/common';
import { crudProcedures } from '../crud/crud-router.factory';
import { CrudService } from '../crud/crud.service';
import { ZChangelog, ZChangelogCreateInput } from './notifications.schema';
import { PortalNotificationsService } from './portal-notifications.service';
import { procedure, router } from '../trpc/trpc';
import { systemChangelogResource } from '../systems/system-changelog.resource';

@Injectable()
export class SystemChangelogRouter {
  constructor(
    private readonly notifications: PortalNotificationsService,
    // Optional only for the procedure-permission snapshot, which builds routers without services.
    crud?: CrudService,
  ) {
    const {
      getList,
      getOne,
      getMany,
      getManyReference,
      update,
      delete: remove,
      deleteMany,
      access,
    } = crudProcedures(systemChangelogResource, crud as CrudService);
    this.router = router({
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
        .mutation(({ ctx, input }) => this.notifications.createChangelog(ctx.actor, input)),
    });
  }

  readonly router;
}
