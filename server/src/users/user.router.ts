import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { PasswordChangeBrake } from '../auth/password-change-brake';
import { SessionService } from '../auth/session.service';
import { ZSessionContext } from '../auth/session.schema';
import { refreshSession } from '../trpc/refresh-session';
import { procedure, router } from '../trpc/trpc';
import { ZDeleteManyParams, ZDeleteParams, ZGetManyParams, ZGetOneParams } from '../crud/crud.schema';
import { listParams, referenceParams, ZBoolFilter } from '../crud/list-query';
import {
  USER_SORTS,
  ZCuid,
  ZUserCreateParams,
  ZUserFindOneInput,
  ZUserFindOneOutput,
  ZUserIdInput,
  ZUserRecord,
  ZUserStatusOutput,
  ZUserUpdateParams,
  ZPreferencesInput,
} from './users.schema';
import { UsersService } from './users.service';

const userFilters = { company_cuid: ZCuid.optional(), inactive: ZBoolFilter.optional() };
const ZUserListParams = listParams(userFilters, USER_SORTS);
const ZUserReferenceParams = referenceParams(userFilters, USER_SORTS, ['company_cuid']);
const ZUserList = z.object({ data: z.array(ZUserRecord), total: z.number() });
const ZIdList = z.object({ data: z.array(z.string()) });

@Injectable()
export class UserRouter {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    private readonly passwordBrake: PasswordChangeBrake,
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

    // react-admin's calls (spec §6 Users). No updateMany: a user is edited one at a time.
    getList: procedure
      .meta({ perm: 'users.view' })
      .input(ZUserListParams)
      .output(ZUserList)
      .query(({ ctx, input }) => this.users.list(ctx.actor, input)),

    getOne: procedure
      .meta({ perm: 'users.view' })
      .input(ZGetOneParams)
      .output(z.object({ data: ZUserRecord }))
      .query(({ ctx, input }) => this.users.getOne(ctx.actor, input.id)),

    getMany: procedure
      .meta({ perm: 'users.view' })
      .input(ZGetManyParams)
      .output(z.object({ data: z.array(ZUserRecord) }))
      .query(({ ctx, input }) => this.users.getMany(ctx.actor, input.ids)),

    /** Users with a membership in the company `id` (target `company_cuid`). */
    getManyReference: procedure
      .meta({ perm: 'users.view' })
      .input(ZUserReferenceParams)
      .output(ZUserList)
      .query(({ ctx, input }) => this.users.list(ctx.actor, input, { target: input.target, id: input.id })),

    create: procedure
      .meta({ perm: 'users.create' })
      .input(ZUserCreateParams)
      .output(z.object({ data: ZUserRecord }))
      .mutation(({ ctx, input }) => {
        this.passwordBrake.admit(ctx.actor.user_cuid);
        return this.users.create(ctx.actor, input.data);
      }),

    update: procedure
      .meta({ perm: 'users.edit' })
      .input(ZUserUpdateParams)
      .output(z.object({ data: ZUserRecord }))
      .mutation(({ ctx, input }) => {
        if (input.data.password !== undefined) this.passwordBrake.admit(ctx.actor.user_cuid);
        return this.users.update(ctx.actor, input.id, input.data, { address: ctx.req.ip });
      }),

    delete: procedure
      .meta({ perm: 'users.delete' })
      .input(ZDeleteParams)
      .output(z.object({ data: ZUserRecord }))
      .mutation(async ({ ctx, input }) => ({ data: (await this.users.remove(ctx.actor, [input.id], 'users.delete'))[0] })),

    deleteMany: procedure
      .meta({ perm: 'users.deleteAny' })
      .input(ZDeleteManyParams)
      .output(ZIdList)
      .mutation(async ({ ctx, input }) => ({ data: (await this.users.remove(ctx.actor, input.ids, 'users.deleteAny')).map((u) => u.user_cuid) })),
  });
}
