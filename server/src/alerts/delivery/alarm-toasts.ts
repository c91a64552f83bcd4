import type { EntityManager } from 'typeorm';
import type { NotificationSeverityValue } from '../../common/enums';
import type { TToast } from '../../notifications/notifications.schema';
import { companySeesSystemSql } from '../../tenancy/visibility';

/** What an alarm toast is made of (one event, once its Notification row exists). */
export interface AlarmToastInput {
  notification_cuid: string;
  trigger_cuid: string;
  trigger_name: string;
  system_cuid: string;
  system_name: string;
  timezone: string;
  severity: NotificationSeverityValue;
  state: 'TRIGGERED' | 'RELEASED';
  /** The rendered message (text). */
  message: string;
  /** Device time of the state change. */
  deviceTime: Date;
}

/** A NOTIFICATION toast for an alarm; a click opens the system's alarm tab. */
export function alarmToast(a: AlarmToastInput): TToast {
  return {
    id: a.notification_cuid,
    type: 'NOTIFICATION',
    title: `${a.system_name}: ${a.trigger_name}${a.state === 'RELEASED' ? ' ended' : ''}`,
    message: a.message,
    severity: a.severity,
    triggeredAt: { timestamp: a.deviceTime, timezone: a.timezone },
    onClickTarget: `/systems/${a.system_cuid}/alarms`,
    alarm: { notification_cuid: a.notification_cuid, trigger_cuid: a.trigger_cuid, system_cuid: a.system_cuid, state: a.state },
  };
}

/**
 * Who gets an alarm's toast: the active members of the companies that see the system (its owner
 * and the companies it is shared with, the rule of tenancy/visibility.ts), minus those who muted
 * the trigger (a NotificationUserBlacklist row without `until` or with `until` still ahead) and
 * those who turned toasts off (user.meta.preferences.toast_notifications.toast_notifications_disabled).
 */
export async function alarmToastRecipients(tx: EntityManager, system_cuid: string, trigger_cuid: string): Promise<string[]> {
  const rows = (await tx.query(
    `SELECT DISTINCT u.user_cuid
       FROM system s
       JOIN company_membership m ON ${companySeesSystemSql('m.company_cuid')}
       JOIN "user" u ON u.user_cuid = m.user_cuid
      WHERE s.system_cuid = $1
        AND u.inactive = false
        AND (u.meta -> 'preferences' -> 'toast_notifications' -> 'toast_notifications_disabled') IS DISTINCT FROM 'true'::jsonb
        AND NOT EXISTS (SELECT 1 FROM notification_user_blacklist b
                         WHERE b.user_cuid = u.user_cuid AND b.trigger_cuid = $2 AND (b.until IS NULL OR b.until > now()))`,
    [system_cuid, trigger_cuid],
  )) as { user_cuid: string }[];
  return rows.map((r) => r.user_cuid);
}
