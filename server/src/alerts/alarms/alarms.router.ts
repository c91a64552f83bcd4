import { z } from 'zod';
import { ZSessionContext } from '../../auth/session.schema';
import { SessionService } from '../../auth/session.service';
import { refreshSession } from '../../trpc/refresh-session';
import { procedure, router } from '../../trpc/trpc';
import { declareRoutes } from '../../trpc/routes';
import {
  ZAcknowledgeAlarmInput,
  ZAcknowledgeAlarmOutput,
  ZActiveAlarm,
  ZActiveInput,
  ZAlarmMuteInput,
  ZAlarmUnmuteInput,
  ZHistoryInput,
  ZHistoryOutput,
  ZInboxListInput,
  ZInboxListOutput,
  ZInboxMarkReadInput,
  ZInboxMarkReadOutput,
  ZTriggerStatus,
  ZTriggerStatusGetInput,
  ZTriggerStatusListInput,
  ZUnreadCount,
} from './alarms.schema';
import { AlarmsService } from './alarms.service';

/**
 * Alarm screens. Permissions (spec §6 is silent on alarms; decided in docs/alerts.md, "Alarm screens"):
 * alarms are notifications ("Channels and notifications: open to all"), so every member who sees a
 * system sees its alarms, acknowledges them and mutes them for themselves; a trigger's evaluation
 * state belongs to the trigger ("Events: triggers view 2").
 */
export const alarmRoutes = declareRoutes({ alarms: AlarmsService, sessions: SessionService }, ({ alarms, sessions }) => ({
  alarm: router({
    /** Triggers now TRIGGERED, of one system or of every system the caller sees. */
    active: procedure
      .meta({ perm: 'notifications.view' })
      .input(ZActiveInput)
      .output(z.array(ZActiveAlarm))
      .query(({ ctx, input }) => alarms.active(ctx.actor, input.system_cuid)),

    /** State changes (device time), filtered and paged; the CSV export pages through it. */
    history: procedure
      .meta({ perm: 'notifications.view' })
      .input(ZHistoryInput)
      .output(ZHistoryOutput)
      .query(({ ctx, input }) => alarms.history(ctx.actor, input)),

    /** The caller has seen this alarm (NotificationUserHistory; idempotent). */
    acknowledge: procedure
      .meta({ perm: 'notifications.change' })
      .input(ZAcknowledgeAlarmInput)
      .output(ZAcknowledgeAlarmOutput)
      .mutation(({ ctx, input }) => alarms.acknowledge(ctx.actor, input.notification_cuid)),

    /** Mutes a trigger for the caller (NotificationUserBlacklist); answers the refreshed session context. */
    mute: procedure
      .meta({ perm: 'notifications.change' })
      .input(ZAlarmMuteInput)
      .output(ZSessionContext)
      .mutation(async ({ ctx, input }) => {
        await alarms.mute(ctx.actor, input.trigger_cuid, input.until ?? null);
        return refreshSession(sessions, ctx);
      }),

    unmute: procedure
      .meta({ perm: 'notifications.change' })
      .input(ZAlarmUnmuteInput)
      .output(ZSessionContext)
      .mutation(async ({ ctx, input }) => {
        await alarms.unmute(ctx.actor, input.trigger_cuid);
        return refreshSession(sessions, ctx);
      }),
  }),

  inbox: router({
    list: procedure
      .meta({ perm: 'notifications.view' })
      .input(ZInboxListInput)
      .output(ZInboxListOutput)
      .query(({ ctx, input }) => alarms.inboxList(ctx.actor, input)),

    unreadCount: procedure
      .meta({ perm: 'notifications.view' })
      .input(z.void())
      .output(ZUnreadCount)
      .query(({ ctx }) => alarms.unreadCount(ctx.actor)),

    /** `{items}` or `{all: true}`. */
    markRead: procedure
      .meta({ perm: 'notifications.change' })
      .input(ZInboxMarkReadInput)
      .output(ZInboxMarkReadOutput)
      .mutation(({ ctx, input }) => alarms.markRead(ctx.actor, input)),
  }),

  triggerStatus: router({
    /** Statuses of the visible triggers among `trigger_cuids` (others are left out). */
    list: procedure
      .meta({ perm: 'eventTriggers.view' })
      .input(ZTriggerStatusListInput)
      .output(z.array(ZTriggerStatus))
      .query(({ ctx, input }) => alarms.triggerStatuses(ctx.actor, input.trigger_cuids)),

    get: procedure
      .meta({ perm: 'eventTriggers.view' })
      .input(ZTriggerStatusGetInput)
      .output(ZTriggerStatus)
      .query(({ ctx, input }) => alarms.triggerStatus(ctx.actor, input.trigger_cuid)),
  }),
}));
