import { useMutation, useQuery } from '@tanstack/react-query';
import type { MutationOptions } from '../kit/api';
import { trpc } from '../trpc';
import { isActive } from './job';

// Data exports' calls: the caller's jobs (list, one followed, start, cancel), a system's export
// templates, and what the template form reads (a system's devices, an e-mail channel's address).

/** How often a job followed from a system page is asked again while it runs. */
export const JOB_POLL_MS = 500;

/** The caller's export jobs: every second while one runs, else every 10 s. */
export function useExportJobs() {
  return useQuery({
    queryKey: ['exportJob.list'],
    queryFn: ({ signal }) => trpc.exportJob.list.query(undefined, { signal }),
    refetchInterval: (q) => ((q.state.data?.data ?? []).some((j) => isActive(j)) ? 1000 : 10_000),
  });
}

/** One job, asked every JOB_POLL_MS until it ends (none while `jobId` is null). */
export function useExportJob(jobId: string | null) {
  return useQuery({
    queryKey: ['exportJob.get', jobId],
    queryFn: ({ signal }) => trpc.exportJob.get.query({ id: jobId! }, { signal }),
    enabled: !!jobId,
    refetchInterval: (q) => (isActive(q.state.data) || !q.state.data ? JOB_POLL_MS : false),
    retry: false,
  });
}

export type StartExportInput = Parameters<typeof trpc.exportJob.start.mutate>[0];
type Started = Awaited<ReturnType<typeof trpc.exportJob.start.mutate>>;

/** Starts an export of a template over a range (the answer is the new job). */
export function useStartExport(options: MutationOptions<Started, StartExportInput> = {}) {
  return useMutation({ ...options, mutationFn: (input: StartExportInput) => trpc.exportJob.start.mutate(input) });
}

/** Cancels a job by its id. */
export function useCancelExport(options: MutationOptions<unknown, string> = {}) {
  return useMutation({ ...options, mutationFn: (id: string) => trpc.exportJob.cancel.mutate({ id }) });
}

export type ExportTemplate = { template_cuid: string; name: string; config: Record<string, unknown> };

export const exportTemplatesKey = (systemCuid: string) => ['systemDataExportTemplate.getList', systemCuid];

/** The system's export templates the caller may run. */
export function useExportTemplates(systemCuid: string) {
  return useQuery({
    queryKey: exportTemplatesKey(systemCuid),
    queryFn: async ({ signal }) => (await trpc.exportJob.templates.query({ system_cuid: systemCuid }, { signal })).data as ExportTemplate[],
  });
}

export type Latest = Awaited<ReturnType<typeof trpc.telemetry.latest.query>>;

/** A system's devices and the parameters each logs (the same answer the system page shows). */
export function useSystemDevices(systemCuid: string | undefined) {
  return useQuery({
    queryKey: ['telemetry.latest', systemCuid],
    queryFn: ({ signal }) => trpc.telemetry.latest.query({ system_cuid: systemCuid! }, { signal }),
    enabled: !!systemCuid,
    staleTime: 30_000,
    retry: false,
  });
}

/** A channel's details (an e-mail channel's address: the channel list itself does not carry it). */
export function useChannelDetails(channel_cuid: string | undefined) {
  return useQuery({
    queryKey: ['channelDetails', channel_cuid],
    queryFn: () => trpc.channelDetails.get.query({ channel_cuid: channel_cuid! }),
    enabled: !!channel_cuid,
    staleTime: 60_000,
  });
}
