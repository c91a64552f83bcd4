import { z } from 'zod';
import { NOTIFICATION_SEVERITIES, PORTAL_NOTIFICATION_TYPES, TRIGGER_LOG_PROCESSING_STATUSES, TRIGGER_STATES } from '../../../../shared/common/enums';
import { ZPagination } from '../../crud/crud.schema';
import { ZCuid } from '../../users/users.schema';

/** Longest mute with an end: one year (a mute "until unmuted" has no `until`). */
export const MUTE_MAX_MS = 366 * 24 * 3600 * 1000;

export const ZActiveInput = z.object({ system_cuid: ZCuid.optional() }).default({});

export const ZActiveAlarm = z.object({
  trigger_cuid: z.string(),
  trigger_name: z.string(),
  severity_level: z.enum(NOTIFICATION_SEVERITIES),
  system_cuid: z.string(),
  system_name: z.string(),
  timezone: z.string(),
  /** Device time the trigger fired. */
  since: z.date().nullable(),
  last_value: z.unknown(),
  /** The rendered message of the firing (the delivered notification's text once it exists). */
  message: z.string(),
  /** The notification of the firing (null until the outbox has delivered it): what Acknowledge names. */
  notification_cuid: z.string().nullable(),
  muted: z.boolean(),
  /** End of the caller's mute; null with `muted` = until unmuted. */
  muted_until: z.date().nullable(),
  acknowledged: z.boolean(),
});
export type TActiveAlarm = z.infer<typeof ZActiveAlarm>;

export const HISTORY_SORT_FIELDS = ['timestamp', 'severity_level', 'system_name', 'trigger_name', 'state'] as const;

export const ZHistoryFilter = z
  .object({
    system_cuid: ZCuid.optional(),
    severity_level: z.enum(NOTIFICATION_SEVERITIES).optional(),
    trigger_cuid: ZCuid.optional(),
    state: z.enum(TRIGGER_STATES).optional(),
    /** Device time, inclusive. */
    from: z.date().optional(),
    /** Device time, exclusive. */
    to: z.date().optional(),
  })
  .strict()
  .refine((f) => !f.from || !f.to || f.from < f.to, { message: '"from" must be before "to"', path: ['to'] });

export const ZHistoryInput = z
  .object({
    filter: ZHistoryFilter.default({}),
    pagination: ZPagination,
    sort: z.object({ field: z.enum(HISTORY_SORT_FIELDS), order: z.enum(['ASC', 'DESC']) }).default({ field: 'timestamp', order: 'DESC' }),
  })
  .default({ filter: {}, pagination: { page: 1, perPage: 25 }, sort: { field: 'timestamp', order: 'DESC' } });
export type THistoryInput = z.infer<typeof ZHistoryInput>;

export const ZHistoryRow = z.object({
  /** event_cuid: react-admin's record id. */
  id: z.string(),
  event_cuid: z.string(),
  /** Device time of the state change. */
  timestamp: z.date(),
  state: z.enum(TRIGGER_STATES),
  trigger_cuid: z.string(),
  trigger_name: z.string(),
  severity_level: z.enum(NOTIFICATION_SEVERITIES),
  system_cuid: z.string(),
  system_name: z.string(),
  timezone: z.string(),
  message: z.string(),
  value: z.unknown(),
  notification_cuid: z.string().nullable(),
  /** Outbox state of the event (PENDING / SENDING / SENT / ARCHIVED). */
  delivery: z.string(),
});
export type THistoryRow = z.infer<typeof ZHistoryRow>;
export const ZHistoryOutput = z.object({ data: z.array(ZHistoryRow), total: z.number().int() });

export const ZAcknowledgeAlarmInput = z.object({ notification_cuid: ZCuid });
export const ZAcknowledgeAlarmOutput = z.object({ ok: z.literal(true), acknowledged_at: z.date() });

export const ZAlarmMuteInput = z.object({
  trigger_cuid: ZCuid,
  /** Absent: until unmuted. Otherwise in the future and at most a year ahead. */
  until: z
    .date()
    .refine((d) => d.getTime() > Date.now(), 'Must be in the future')
    .refine((d) => d.getTime() <= Date.now() + MUTE_MAX_MS, 'At most one year ahead')
    .optional(),
});
export const ZAlarmUnmuteInput = z.object({ trigger_cuid: ZCuid });

export const INBOX_KINDS = ['portal', 'alarm'] as const;
export const ZInboxListInput = z
  .object({ pagination: ZPagination, unreadOnly: z.boolean().default(false) })
  .default({ pagination: { page: 1, perPage: 25 }, unreadOnly: false });

export const ZInboxItem = z.object({
  /** `<kind>:<notification_cuid>` (both tables have their own keys). */
  id: z.string(),
  kind: z.enum(INBOX_KINDS),
  notification_cuid: z.string(),
  message: z.string(),
  sent_at: z.date(),
  severity_level: z.enum(NOTIFICATION_SEVERITIES),
  system_cuid: z.string(),
  system_name: z.string(),
  timezone: z.string(),
  /** Portal notifications: their type (CHANGELOG). */
  type: z.enum(PORTAL_NOTIFICATION_TYPES).nullable(),
  /** Alarms: the trigger. */
  trigger_cuid: z.string().nullable(),
  trigger_name: z.string().nullable(),
  read: z.boolean(),
  /** Where the item leads in the portal. */
  target: z.string(),
});
export type TInboxItem = z.infer<typeof ZInboxItem>;
export const ZInboxListOutput = z.object({ data: z.array(ZInboxItem), total: z.number().int() });

export const ZInboxMarkReadInput = z.union([
  z
    .object({
      items: z
        .array(z.object({ kind: z.enum(INBOX_KINDS), notification_cuid: ZCuid }))
        .min(1)
        .max(200),
    })
    .strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export const ZInboxMarkReadOutput = z.object({ marked: z.number().int() });

/** Counts stop at this (the badge shows "999+"): a superuser's fleet may hold millions. */
export const UNREAD_COUNT_CAP = 1000;
export const ZUnreadCount = z.object({ portal: z.number().int(), alarms: z.number().int(), total: z.number().int(), capped: z.boolean() });

export const ZTriggerStatusListInput = z.object({ trigger_cuids: z.array(ZCuid).min(1).max(500) });
export const ZTriggerStatusGetInput = z.object({ trigger_cuid: ZCuid });
export const ZTriggerStatus = z.object({
  trigger_cuid: z.string(),
  trigger_state: z.enum(TRIGGER_STATES),
  state_since: z.date().nullable(),
  /** Wall time of the last evaluation (null: never evaluated). */
  evaluated_at: z.date().nullable(),
  processing_status: z.enum(TRIGGER_LOG_PROCESSING_STATUSES).nullable(),
  next_execution: z.date().nullable(),
  last_value: z.unknown(),
  pending_state: z.enum(TRIGGER_STATES).nullable(),
  pending_since: z.date().nullable(),
});
export type TTriggerStatus = z.infer<typeof ZTriggerStatus>;
