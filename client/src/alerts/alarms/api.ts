import { formatDateTime } from '../../i18n/format';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { historyCsvHeader, historyCsvLines } from '../../../../shared/alerts/history-csv';
import type { NOTIFICATION_SEVERITIES } from '../../../../shared/common/enums';
import { useSessionManager } from '../../session/SessionProvider';
import { messageOf, trpc } from '../../trpc';
import { textOf } from '../../../../shared/common/text';

export type ActiveAlarm = Awaited<ReturnType<typeof trpc.alarm.active.query>>[number];
export type HistoryRow = Awaited<ReturnType<typeof trpc.alarm.history.query>>['data'][number];
export type InboxItem = Awaited<ReturnType<typeof trpc.inbox.list.query>>['data'][number];
export type TriggerStatus = Awaited<ReturnType<typeof trpc.triggerStatus.list.query>>[number];

/** How often the active alarms refresh. */
export const ACTIVE_REFRESH_MS = 15_000;

/** Triggers now TRIGGERED: of one system, or of every system the user sees. */
export function useActiveAlarms(system_cuid: string | undefined) {
  return useQuery({
    queryKey: ['alarm', 'active', system_cuid ?? null],
    queryFn: ({ signal }) => trpc.alarm.active.query(system_cuid ? { system_cuid } : {}, { signal }),
    refetchInterval: ACTIVE_REFRESH_MS,
  });
}

export interface HistoryFilter {
  system_cuid?: string;
  severity_level?: (typeof NOTIFICATION_SEVERITIES)[number];
  from?: Date;
  to?: Date;
}

/** One page (from 0) of the filtered alarm history, newest first; the previous page stays while the next loads. */
export function useAlarmHistory(filter: HistoryFilter, page: number, perPage: number, enabled: boolean) {
  return useQuery({
    queryKey: ['alarm', 'history', filter, page, perPage],
    queryFn: ({ signal }) =>
      trpc.alarm.history.query({ filter, pagination: { page: page + 1, perPage }, sort: { field: 'timestamp', order: 'DESC' } }, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

const CSV_PAGE = 1000;

/** Every page of the filtered history as CSV text, 1,000 rows a call (what the server gives at most). */
export async function historyCsv(filter: HistoryFilter): Promise<string> {
  let csv = historyCsvHeader();
  for (let page = 1; ; page++) {
    const { data } = await trpc.alarm.history.query({ filter, pagination: { page, perPage: CSV_PAGE }, sort: { field: 'timestamp', order: 'ASC' } });
    csv += historyCsvLines(data);
    if (data.length < CSV_PAGE) return csv;
  }
}

/** The systems the history's filter offers (by name), kept a minute. */
export function useAlarmSystems(enabled: boolean) {
  return useQuery({
    queryKey: ['alarm', 'systems'],
    queryFn: () => trpc.system.getList.query({ pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' }, filter: {} }),
    enabled,
    staleTime: 60_000,
  });
}

/** The inbox's unread count (polled every 30 s). */
export function useInboxUnreadCount() {
  return useQuery({ queryKey: ['inbox', 'unreadCount'], queryFn: () => trpc.inbox.unreadCount.query(), refetchInterval: 30_000, staleTime: 10_000 });
}

/** One page (from 0) of the inbox, newest first, every 30 s; the previous page stays while the next loads. */
export function useInboxList(unreadOnly: boolean, page: number, perPage: number) {
  return useQuery({
    queryKey: ['inbox', 'list', unreadOnly, page, perPage],
    queryFn: ({ signal }) => trpc.inbox.list.query({ pagination: { page: page + 1, perPage }, unreadOnly }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

export type MarkReadInput = Parameters<typeof trpc.inbox.markRead.mutate>[0];

/** Marks inbox items (or all) read; the caller refreshes the inbox queries. */
export function useMarkInboxRead() {
  return useMutation({ mutationFn: (input: MarkReadInput) => trpc.inbox.markRead.mutate(input) });
}

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

export { isTriggerMuted } from '../../toasts/mute';

export function formatDeviceTime(value: Date | string | null | undefined, timezone: string, locale: string): string {
  return formatDateTime(value, locale, { timeZone: timezone, seconds: true });
}

export const showValue = (v: unknown): string => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : textOf(v));
