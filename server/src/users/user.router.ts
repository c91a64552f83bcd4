import { Injectable } from '@nestjs/common';
import { procedure, router } from '../trpc/trpc';
import { ZUserFindOneInput, ZUserFindOneOutput, ZUserIdInput, ZUserStatusOutput } from './users.schema';
import { UsersService } from './users.service';

@Injectable()
export class UserRouter {
  constructor(private readonly users: UsersService) {}

  readonly router = router({
    /** Spec §7 `user findOne` by email. */
    findOne: procedure
      .meta({ perm: 'session.self' })
      .input(ZUserFindOneInput)
      .output(ZUserFindOneOutput)
      .query(({ ctx, input }) => this.users.findOneByEmail(ctx.actor, input.email)),

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
