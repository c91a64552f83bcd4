import { useQuery } from '@tanstack/react-query';
import type { NOTIFICATION_CHANNEL_SOURCES } from '../../../../shared/common/enums';
import { trpc } from '../../trpc';
import { textOf } from '../../../../shared/common/text';

// The alerts setup's calls beyond react-admin's data provider: a channel's details, test message and
// verification mail, and which triggers it delivers.

export const channelDetailsKey = (channel_cuid: string) => ['channelDetails', channel_cuid];

/** A channel's details (address, verification or link state); asked again every `pendingPollMs` while it is PENDING. */
export function useChannelDetails(channel_cuid: string, pendingPollMs: number) {
  return useQuery({
    queryKey: channelDetailsKey(channel_cuid),
    queryFn: () => trpc.channelDetails.get.query({ channel_cuid }),
    enabled: !!channel_cuid,
    refetchInterval: (q) => (q.state.data?.channel.status === 'PENDING' ? pendingPollMs : false),
  });
}

/** The same details for a list row's address, kept 30 s (the list shows many). */
export function useChannelAddress(channel_cuid: string) {
  return useQuery({
    queryKey: channelDetailsKey(channel_cuid),
    queryFn: () => trpc.channelDetails.get.query({ channel_cuid }),
    enabled: !!channel_cuid,
    staleTime: 30_000,
  });
}

/** The channel kinds this portal can deliver through (configured senders). */
export function useChannelSources() {
  return useQuery({ queryKey: ['channelDetails', 'sources'], queryFn: () => trpc.channelDetails.sources.query(), staleTime: 60_000 });
}

/** Creates a channel of one kind (e-mail: a verification mail; Telegram: a link to open; Discord: a webhook). */
export async function createChannel(source: (typeof NOTIFICATION_CHANNEL_SOURCES)[number], company_cuid: string, values: Record<string, unknown>) {
  return source === 'EMAIL'
    ? await trpc.emailChannel.create.mutate({ company_cuid, email: textOf(values.email ?? '') })
    : source === 'TELEGRAM'
      ? await trpc.telegramChannel.create.mutate({ company_cuid })
      : await trpc.discordChannel.create.mutate({ company_cuid, name: textOf(values.name ?? ''), webhook: textOf(values.webhook ?? '') });
}

export const sendChannelTest = (channel_cuid: string) => trpc.channelDetails.sendTest.mutate({ channel_cuid });
export const resendChannelVerification = (channel_cuid: string) => trpc.emailChannel.resendVerification.mutate({ channel_cuid });

export const channelLinksKey = (channel_cuid: string) => ['channelLink', channel_cuid];

/** The triggers the channel's company sees, each with whether this channel delivers it. */
export function useChannelLinks(channel_cuid: string) {
  return useQuery({ queryKey: channelLinksKey(channel_cuid), queryFn: () => trpc.channelLink.list.query({ channel_cuid }) });
}

export const setChannelLink = (channel_cuid: string, v: { trigger_cuid: string; enabled: boolean }) => trpc.channelLink.set.mutate({ channel_cuid, ...v });

export type TriggerStatus = Awaited<ReturnType<typeof trpc.triggerStatus.list.query>>[number];

/** The evaluation state of several triggers at once (a list's page), every 30 s. */
export function useTriggerStatuses(trigger_cuids: string[]) {
  return useQuery({
    queryKey: ['alarm', 'triggerStatus', trigger_cuids],
    queryFn: () => trpc.triggerStatus.list.query({ trigger_cuids }),
    enabled: trigger_cuids.length > 0,
    refetchInterval: 30_000,
  });
}

/** One trigger's evaluation state (its edit page), every 15 s. */
export function useTriggerStatus(trigger_cuid: string) {
  return useQuery({
    queryKey: ['alarm', 'triggerStatus', trigger_cuid],
    queryFn: () => trpc.triggerStatus.get.query({ trigger_cuid }),
    enabled: !!trigger_cuid,
    refetchInterval: 15_000,
  });
}
