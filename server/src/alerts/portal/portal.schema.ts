import { z } from 'zod';
import { ACTION_RESPONSES, TOAST_TYPES } from '../../../../shared/common/spec-constants';
import { CONTROLLER_COMMAND_STATUSES, NOTIFICATION_SEVERITIES, PORTAL_NOTIFICATION_TYPES, TRIGGER_STATES } from '../../../../shared/common/enums';
import { ZCuid } from '../../users/users.schema';

/** Spec §3.2: a toast as the browser shows it. */
export const ZToast = z.object({
  id: z.string(),
  type: z.enum(TOAST_TYPES),
  title: z.string(),
  message: z.string(),
  severity: z.enum(NOTIFICATION_SEVERITIES),
  triggeredAt: z.object({ timestamp: z.date(), timezone: z.string() }),
  onClickTarget: z.string(),
  actionResponse: z.enum(ACTION_RESPONSES).optional(),
  source: z
    .object({
      notification_cuid: z.string(),
      system_cuid: z.string().nullable(),
      notification_type: z.enum(PORTAL_NOTIFICATION_TYPES),
    })
    .optional(),
  /**
   * An ACTION_RESPONSE about a command (issue: control): the toast's id is the command_id, so the
   * SUCCESS / FAILURE toast replaces the PENDING one; lists of commands refresh on it.
   */
  command: z
    .object({
      command_id: z.string(),
      controller_id: z.string(),
      status: z.enum(CONTROLLER_COMMAND_STATUSES),
    })
    .optional(),
  /** An alarm (a trigger's state change): Acknowledge writes NotificationUserHistory, Mute a NotificationUserBlacklist. */
  alarm: z
    .object({
      notification_cuid: z.string(),
      trigger_cuid: z.string(),
      system_cuid: z.string(),
      state: z.enum(TRIGGER_STATES),
    })
    .optional(),
});
export type TToast = z.infer<typeof ZToast>;

export const ZLiveEvent = z.object({ kind: z.literal('toast'), toast: ZToast });
export type TLiveEvent = z.infer<typeof ZLiveEvent>;

export const ZChangelogCreateInput = z.object({
  system_cuid: ZCuid,
  title: z.string().trim().min(1, 'Required').max(200),
  message: z.string().trim().max(10_000).default(''),
});

export const ZChangelog = z.object({
  log_cuid: z.string(),
  timestamp: z.date(),
  title: z.string(),
  message: z.string().nullable(),
  user_cuid: z.string().nullable(),
  system_cuid: z.string(),
  role_cuid: z.string().nullable(),
});
export type TChangelog = z.infer<typeof ZChangelog>;

export const ZAcknowledgeInput = z.object({ notification_cuid: ZCuid });
export const ZMuteInput = z.object({ system_cuid: ZCuid, notification_type: z.enum(PORTAL_NOTIFICATION_TYPES) });

export const ZPortalNotification = z.object({
  notification_cuid: z.string(),
  message: z.string(),
  sent_at: z.date(),
  severity_level: z.enum(NOTIFICATION_SEVERITIES),
  system_cuid: z.string(),
  type: z.enum(PORTAL_NOTIFICATION_TYPES),
  args: z.record(z.string(), z.unknown()),
  read: z.boolean(),
});
export type TPortalNotification = z.infer<typeof ZPortalNotification>;
