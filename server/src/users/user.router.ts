import { Injectable } from '@nestjs/common';
import { SessionService } from '../auth/session.service';
import { ZSessionContext } from '../auth/session.schema';
import { ZPreferencesInput } from '../notifications/notifications.schema';
import { refreshSession } from '../trpc/refresh-session';
import { procedure, router } from '../trpc/trpc';
import { ZUserFindOneInput, ZUserFindOneOutput, ZUserIdInput, ZUserStatusOutput } from './users.schema';
import { UsersService } from './users.service';

@Injectable()
export class UserRouter {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
  ) {}

  readonly router = router({
    /** Spec §7 `user findOne` by email. */
    findOne: procedure
      .meta({ perm: 'session.self' })
      .input(ZUserFindOneInput)
      .output(ZUserFindOneOutput)
      .query(({ ctx, input }) => this.users.findOneByEmail(ctx.actor, input.email)),

    /** The caller's own toast preferences; answers the refreshed session context. */
    updatePreferences: procedure
      .meta({ perm: 'session.self' })
      .input(ZPreferencesInput)
      .output(ZSessionContext)
      .mutation(async ({ ctx, input }) => {
        await this.users.updatePreferences(ctx.actor, input);
        return refreshSession(this.sessions, ctx);
      }),

    deactivate: procedure
      .meta({ perm: 'users.deactivate' })
      .input(ZUserIdInput)
      .output(ZUserStatusOutput)
      .mutation(({ ctx, input }) => this.users.setInactive(ctx.actor, input.user_cuid, true)),

    reactivate: procedure
      .meta({ perm: 'users.deactivate' })
      .input(ZUserIdInput)
      .output(ZUserStatusOutput)
      .mutation(({ ctx, input }) => this.users.setInactive(ctx.actor, input.user_cuid, false)),
  });
}
