import { z } from 'zod';
import { PasswordChangeBrake } from '../auth/password-change-brake';
import { callerLocale } from '../common/locale';
import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { AccountsService } from './accounts.service';
import { ZChangePasswordInput, ZInvitationOutcome, ZResendInvitationInput } from './accounts.schema';

/** The signed-in side of accounts: one's own password, and an admin's re-sent invitation. */
export const accountRoutes = declareRoutes({ accounts: AccountsService, passwordBrake: PasswordChangeBrake }, ({ accounts, passwordBrake }) =>
  router({
    /**
     * One's own password, with the current one: a wrong one is a field error on
     * `current_password` (braked like a login). The other sessions end; this one goes on.
     */
    changePassword: procedure
      .meta({ perm: 'session.self' })
      .input(ZChangePasswordInput)
      .output(z.object({ ok: z.literal(true) }))
      .mutation(async ({ ctx, input }) => {
        await passwordBrake.admit(ctx.actor.user_cuid);
        await accounts.changePassword(ctx.actor, input.current_password, input.new_password, ctx.req.ip ?? 'unknown');
        return { ok: true as const };
      }),

    /** A new invitation link for a user who has not set a password yet (who may edit the user may re-send it). */
    resendInvitation: procedure
      .meta({ perm: 'users.edit' })
      .input(ZResendInvitationInput)
      .output(ZInvitationOutcome)
      .mutation(({ ctx, input }) =>
        accounts.resendInvitation(
          ctx.actor,
          input.user_cuid,
          callerLocale(ctx.session.ctx.user.meta, ctx.req.headers['accept-language']),
          { host: ctx.req.headers.host, protocol: ctx.req.protocol },
          input.company_cuid,
        ),
      ),
  }),
);
