import type { NotificationSeverityValue } from '../../../../shared/common/enums';
import type { TToast } from '../portal/portal.schema';

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
