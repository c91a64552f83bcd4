import { z } from 'zod';
import { PasswordChangeBrake } from '../auth/password-change-brake';
import { SessionService } from '../auth/session.service';
import { ZSessionContext } from '../auth/session.schema';
import { refreshSession } from '../trpc/refresh-session';
import { callerLocale } from '../common/locale';
import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { listParams, referenceParams, ZBoolFilter } from '../crud/list-query';
import { readProcedures, removeProcedures } from '../crud/procedures';
import {
  USER_SORTS,
  ZCuid,
  ZInvitationOutcome,
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

export const userRoutes = declareRoutes(
  { users: UsersService, sessions: SessionService, passwordBrake: PasswordChangeBrake },
  ({ users, sessions, passwordBrake }) =>
    router({
      /** Spec §7 `user findOne` by email. */
      findOne: procedure
        .meta({ perm: 'session.self' })
        .input(ZUserFindOneInput)
        .output(ZUserFindOneOutput)
        .query(({ ctx, input }) => users.findOneByEmail(ctx.actor, input.email)),

      /** The caller's own toast preferences; answers the refreshed session context. */
      updatePreferences: procedure
        .meta({ perm: 'session.self' })
        .input(ZPreferencesInput)
        .output(ZSessionContext)
        .mutation(async ({ ctx, input }) => {
          await users.updatePreferences(ctx.actor, input);
          return refreshSession(sessions, ctx);
        }),

      deactivate: procedure
        .meta({ perm: 'users.deactivate' })
        .input(ZUserIdInput)
        .output(ZUserStatusOutput)
        .mutation(({ ctx, input }) => users.setInactive(ctx.actor, input.user_cuid, true)),

      reactivate: procedure
        .meta({ perm: 'users.deactivate' })
        .input(ZUserIdInput)
        .output(ZUserStatusOutput)
        .mutation(({ ctx, input }) => users.setInactive(ctx.actor, input.user_cuid, false)),

      // react-admin's calls (spec §6 Users). No updateMany: a user is edited one at a time.
      ...readProcedures({
        perm: 'users.view',
        record: ZUserRecord,
        list: ZUserListParams,
        /** Users with a membership in the company `id` (target `company_cuid`). */
        reference: ZUserReferenceParams,
        source: {
          getList: (actor, input, reference) => users.list(actor, input, reference),
          getOne: (actor, id) => users.getOne(actor, id),
          getMany: (actor, ids) => users.getMany(actor, ids),
        },
      }),

      create: procedure
        .meta({ perm: 'users.create' })
        .input(ZUserCreateParams)
        .output(z.object({ data: ZUserRecord, invitation: ZInvitationOutcome.optional() }))
        .mutation(async ({ ctx, input }) => {
          await passwordBrake.admit(ctx.actor.user_cuid);
          // Without a password the user is invited, by default in the admin's language.
          return users.create(ctx.actor, input.data, {
            locale: callerLocale(ctx.session.ctx.user.meta, ctx.req.headers['accept-language']),
            host: ctx.req.headers.host,
            protocol: ctx.req.protocol,
          });
        }),

      update: procedure
        .meta({ perm: 'users.edit' })
        .input(ZUserUpdateParams)
        .output(z.object({ data: ZUserRecord }))
        .mutation(async ({ ctx, input }) => {
          if (input.data.password !== undefined) await passwordBrake.admit(ctx.actor.user_cuid);
          return users.update(ctx.actor, input.id, input.data, { address: ctx.req.ip });
        }),

      ...removeProcedures({
        perm: 'users.delete',
        manyPerm: 'users.deleteAny',
        record: ZUserRecord,
        remove: (actor, ids, many) => users.remove(actor, ids, many ? 'users.deleteAny' : 'users.delete'),
        idOf: (u) => u.user_cuid,
      }),
    }),
);
