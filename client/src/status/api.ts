import { useMutation, useQuery } from '@tanstack/react-query';
import type { MutationOptions } from '../kit/api';
import { trpc } from '../trpc';

// The status view's calls: a system's status (devices, controllers, mutes), muting a device and
// ending a mute, and editing or deleting a manual changelog entry.

export type Status = Awaited<ReturnType<typeof trpc.systemStatus.get.query>>;
export type Device = Status['devices'][number];
export type Controller = Status['controllers'][number];
export type OnlineState = Controller['online_state'];

/** How often the status refreshes. */
export const REFRESH_MS = 30_000;

export const systemStatusKey = (system_cuid: string) => ['systemStatus', system_cuid];

/** A system's status, refreshed every REFRESH_MS. */
export function useSystemStatus(system_cuid: string) {
  return useQuery({
    queryKey: systemStatusKey(system_cuid),
    queryFn: ({ signal }) => trpc.systemStatus.get.query({ system_cuid }, { signal }),
    refetchInterval: REFRESH_MS,
  });
}

export type MuteInput = Parameters<typeof trpc.deviceMute.create.mutate>[0];

/** Mutes a device's alarms until a time (the caller refreshes the status). */
export function useMuteDevice(options: MutationOptions<unknown, MuteInput> = {}) {
  return useMutation({ ...options, mutationFn: (input: MuteInput) => trpc.deviceMute.create.mutate(input) });
}

/** Ends a mute by its id (the caller refreshes the status). */
export function useEndMute(options: MutationOptions<unknown, string> = {}) {
  return useMutation({ ...options, mutationFn: (mute_cuid: string) => trpc.deviceMute.end.mutate({ mute_cuid }) });
}

export type ChangelogUpdate = Parameters<typeof trpc.systemChangelog.update.mutate>[0];

/** Changes a manual changelog entry's title and message. */
export function useUpdateChangelogEntry(options: MutationOptions<unknown, ChangelogUpdate> = {}) {
  return useMutation({ ...options, mutationFn: (input: ChangelogUpdate) => trpc.systemChangelog.update.mutate(input) });
}

/** Deletes a manual changelog entry by its id. */
export function useDeleteChangelogEntry(options: MutationOptions<unknown, string> = {}) {
  return useMutation({ ...options, mutationFn: (id: string) => trpc.systemChangelog.delete.mutate({ id }) });
}
