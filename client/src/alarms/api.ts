import { formatDateTime } from '../i18n/format';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { useSessionManager } from '../session/SessionProvider';
import { messageOf, trpc } from '../trpc';

export type ActiveAlarm = Awaited<ReturnType<typeof trpc.alarm.active.query>>[number];
export type HistoryRow = Awaited<ReturnType<typeof trpc.alarm.history.query>>['data'][number];
export type InboxItem = Awaited<ReturnType<typeof trpc.inbox.list.query>>['data'][number];
export type TriggerStatus = Awaited<ReturnType<typeof trpc.triggerStatus.list.query>>[number];

/** Mute lengths the menus offer (null: until unmuted). */
export const MUTE_CHOICES = [
  { key: '1h', ms: 3600_000 },
  { key: '8h', ms: 8 * 3600_000 },
  { key: '24h', ms: 24 * 3600_000 },
  { key: '7d', ms: 7 * 24 * 3600_000 },
  { key: 'forever', ms: null },
] as const;
export type MuteChoice = (typeof MUTE_CHOICES)[number]['key'];

export const untilOf = (choice: MuteChoice): Date | undefined => {
  const ms = MUTE_CHOICES.find((c) => c.key === choice)?.ms;
  return ms ? new Date(Date.now() + ms) : undefined;
};

/** Acknowledge / mute / unmute, with the session's blacklist kept in step (toasts read it) and the lists refreshed. */
export function useAlarmActions() {
  const manager = useSessionManager();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ predicate: (q) => ['alarm', 'inbox'].includes(String(q.queryKey[0])) });
  const fail = (error: unknown) => notify('portal.alarms.action_failed', { type: 'error', messageArgs: { message: messageOf(error) } });
  return {
    acknowledge: (notification_cuid: string) =>
      trpc.alarm.acknowledge
        .mutate({ notification_cuid })
        .then(() => notify('portal.alarms.acknowledged', { type: 'info' }))
        .then(refresh, fail),
    mute: (trigger_cuid: string, choice: MuteChoice) =>
      trpc.alarm.mute
        .mutate({ trigger_cuid, until: untilOf(choice) })
        .then((context) => {
          manager.replaceContext(context);
          notify('portal.alarms.muted', { type: 'info' });
        })
        .then(refresh, fail),
    unmute: (trigger_cuid: string) =>
      trpc.alarm.unmute
        .mutate({ trigger_cuid })
        .then((context) => {
          manager.replaceContext(context);
          notify('portal.alarms.unmuted', { type: 'info' });
        })
        .then(refresh, fail),
  };
}

export { isTriggerMuted } from '../toasts/mute';

export function formatDeviceTime(value: Date | string | null | undefined, timezone: string, locale: string): string {
  return formatDateTime(value, locale, { timeZone: timezone, seconds: true });
}

export const showValue = (v: unknown): string => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
