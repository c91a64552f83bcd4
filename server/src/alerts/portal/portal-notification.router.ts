import { z } from 'zod';
import { SessionService } from '../../auth/session.service';
import { ZSessionContext } from '../../auth/session.schema';
import { procedure, router } from '../../trpc/trpc';
import { declareRoutes } from '../../trpc/routes';
import { refreshSession } from '../../trpc/refresh-session';
import { LiveEventsService } from './live-events.service';
import { ZAcknowledgeInput, ZMuteInput, ZPortalNotification } from './portal.schema';
import { PortalNotificationsService } from './portal-notifications.service';

/** `portalNotification`: the live events stream (SSE), the recent notifications, acknowledge, mute and unmute. */
export const portalNotificationRoutes = declareRoutes(
  { notifications: PortalNotificationsService, live: LiveEventsService, sessions: SessionService },
  ({ notifications, live, sessions }) =>
    router({
      /** The signed-in user's live events, over SSE (httpSubscriptionLink). */
      onEvent: procedure
        .meta({ perm: 'notifications.view' })
        .input(z.void())
        // Typed by the generator (TLiveEvent); tRPC output validators do not apply to streams.
        // The stream follows the session that opened it: signed out, deactivated or re-passworded → cut.
        .subscription(({ ctx, signal }) =>
          live.subscribe(ctx.actor.user_cuid, {
            signal,
            sid: ctx.session.sid,
            stillValid: () => sessions.isStillValid(ctx.session),
            cut: () => ctx.req.raw.destroy(),
          }),
        ),

      recent: procedure
        .meta({ perm: 'notifications.view' })
        .input(z.object({ limit: z.number().int().min(1).max(200).default(50) }).default({ limit: 50 }))
        .output(z.array(ZPortalNotification))
        .query(({ ctx, input }) => notifications.recent(ctx.actor, input.limit)),

      acknowledge: procedure
        .meta({ perm: 'notifications.change' })
        .input(ZAcknowledgeInput)
        .output(z.object({ ok: z.literal(true) }))
        .mutation(({ ctx, input }) => notifications.acknowledge(ctx.actor, input.notification_cuid)),

      /** Silences one type of portal notification of one system; answers the refreshed session context. */
      mute: procedure
        .meta({ perm: 'notifications.change' })
        .input(ZMuteInput)
        .output(ZSessionContext)
        .mutation(async ({ ctx, input }) => {
          await notifications.mute(ctx.actor, input.system_cuid, input.notification_type);
          return refreshSession(sessions, ctx);
        }),

      unmute: procedure
        .meta({ perm: 'notifications.change' })
        .input(ZMuteInput)
        .output(ZSessionContext)
        .mutation(async ({ ctx, input }) => {
          await notifications.unmute(ctx.actor, input.system_cuid, input.notification_type);
          return refreshSession(sessions, ctx);
        }),
    }),
);
