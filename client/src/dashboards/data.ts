import { useQuery } from '@tanstack/react-query';
import { httpStatusOf, trpc } from '../trpc';

/** Refused (403) or unseen (404): a widget says "not available" instead of an error. */
export const isUnavailable = (error: unknown): boolean => [403, 404].includes(httpStatusOf(error));

const noRetry = (count: number, error: unknown) => httpStatusOf(error) >= 500 && count < 2;

/** fleet.overview, shared by every widget of the page (one call per 30 s). */
export function useOverview() {
  return useQuery({
    queryKey: ['fleet.overview'],
    queryFn: ({ signal }) => trpc.fleet.overview.query(undefined, { signal }),
    refetchInterval: 30_000,
    retry: noRetry,
  });
}

/** telemetry.latest of one system (devices, parameters, latest values), shared by the widgets naming it. */
export function useLatest(system_cuid: string | undefined) {
  return useQuery({
    queryKey: ['telemetry.latest', system_cuid],
    queryFn: ({ signal }) => trpc.telemetry.latest.query({ system_cuid: system_cuid! }, { signal }),
    enabled: !!system_cuid,
    refetchInterval: 30_000,
    retry: noRetry,
  });
}

export type Overview = Awaited<ReturnType<typeof trpc.fleet.overview.query>>;
export type Latest = Awaited<ReturnType<typeof trpc.telemetry.latest.query>>;
export type MineDashboard = Awaited<ReturnType<typeof trpc.dashboard.mine.query>>[number];

/** The caller's dashboards (all, or one system's). */
export function useMine(system_cuid?: string) {
  return useQuery({
    queryKey: ['dashboard.mine', system_cuid ?? null],
    queryFn: ({ signal }) => trpc.dashboard.mine.query(system_cuid ? { system_cuid } : undefined, { signal }),
    retry: noRetry,
  });
}
