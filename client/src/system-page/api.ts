import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { httpStatusOf, trpc } from '../trpc';
import { systemLatestQuery } from '../systems/api';

/** A system's page data: its latest values (header, devices, controllers), its dashboards, a device's series. */
export type Latest = Awaited<ReturnType<typeof trpc.telemetry.latest.query>>;
export type Device = Latest['devices'][number];
export type OnlineState = Latest['controllers'][number]['online_state'];

/** How often the latest values refresh. */
export const REFRESH_MS = 10_000;

/** The page's first query (shared with the links' prefetch), refreshed every REFRESH_MS; a server error is retried twice. */
export function useSystemLatest(system_cuid: string) {
  return useQuery({
    ...systemLatestQuery(system_cuid),
    refetchInterval: REFRESH_MS,
    retry: (count, error) => httpStatusOf(error) >= 500 && count < 2,
  });
}

/** The system's own dashboards made for the user (issue 13 §2). */
export function useMySystemDashboards(system_cuid: string) {
  return useQuery({ queryKey: ['dashboard.mine', system_cuid], queryFn: ({ signal }) => trpc.dashboard.mine.query({ system_cuid }, { signal }), retry: false });
}

export interface SeriesRequest {
  entity_cuid: string;
  parameter_ids: string[];
  from: number;
  to: number;
  points: number;
  timezone: string;
  /** False until the chart knows its width and something is chosen. */
  enabled: boolean;
}

/** A device's series for the chart; while a new range loads, the previous answer stays (keepPreviousData). */
export function useSystemSeries({ entity_cuid, parameter_ids, from, to, points, timezone, enabled }: SeriesRequest) {
  return useQuery({
    queryKey: ['telemetry.series', entity_cuid, parameter_ids, from, to, points],
    queryFn: ({ signal }) => trpc.telemetry.series.query({ entity_cuid, parameter_ids, from: new Date(from), to: new Date(to), points, timezone }, { signal }),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** A system's changelog, newest first, PAGE entries a page, filtered by kind; more on demand. */
export function useChangelogPages(system_cuid: string, show: string, filter: Record<string, string | string[]>, perPage: number) {
  return useInfiniteQuery({
    queryKey: ['systemChangelog', system_cuid, show],
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      trpc.systemChangelog.getManyReference.query(
        { target: 'system_cuid', id: system_cuid, pagination: { page: pageParam, perPage }, sort: { field: 'timestamp', order: 'DESC' }, filter },
        { signal },
      ),
    getNextPageParam: (last, all) => (all.length * perPage < last.total ? all.length + 1 : undefined),
  });
}

/** Adds a manual changelog entry (the caller refetches the pages). */
export const addChangelogEntry = (input: { system_cuid: string; title: string; message: string }) => trpc.systemChangelog.create.mutate(input);

/** Who may edit or delete which manual entry (level 2 in the owner company, or the author): the server says. */
export function useChangelogAccess(system_cuid: string, ids: string[]) {
  return useQuery({
    queryKey: ['systemChangelog.access', system_cuid, ids],
    queryFn: ({ signal }) => trpc.systemChangelog.access.query({ ids }, { signal }),
    enabled: ids.length > 0,
  });
}
