import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { trpc } from '../trpc';

/** The operator's home: one fleet.overview call (the server may answer from a cache up to OVERVIEW_CACHE_MS old). */
export type Overview = Awaited<ReturnType<typeof trpc.fleet.overview.query>>;
export type State = Overview['attention'][number]['state'];

/** How often the overview refreshes. */
export const REFRESH_MS = 30_000;

/** The overview for one company (or all the caller's), refreshed every REFRESH_MS; the last answer stays while refreshing. */
export function useFleetOverview(company: string, enabled: boolean) {
  return useQuery({
    queryKey: ['fleet.overview', company],
    queryFn: ({ signal }) => trpc.fleet.overview.query(company ? { company_cuid: company } : undefined, { signal }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
    retry: false,
    enabled,
  });
}
