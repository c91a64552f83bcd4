import { Injectable } from '@nestjs/common';
import { ZChangelog, ZChangelogCreateInput } from '../notifications/notifications.schema';
import { PortalNotificationsService } from '../notifications/portal-notifications.service';
import { procedure, router } from '../trpc/trpc';

@Injectable()
export class SystemChangelogRouter {
  constructor(private readonly notifications: PortalNotificationsService) {}

  readonly router = router({
    /** Writes a changelog entry and tells the people who watch that system (a CHANGELOG toast). */
    create: procedure
      .meta({ perm: 'changelog.create' })
      .input(ZChangelogCreateInput)
      .output(ZChangelog)
      .mutation(({ ctx, input }) => this.notifications.createChangelog(ctx.actor, input)),
  });
}
