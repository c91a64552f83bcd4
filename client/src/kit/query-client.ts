import { QueryClient } from '@tanstack/react-query';
import { httpStatusOf } from '../trpc';

/**
 * Spec §9 data cache settings, in one place. The QueryClient react-admin and every screen's
 * useQuery share (App passes it to <Admin queryClient>): query-client.spec.ts reads them back
 * from a real client's defaults.
 */
/** Unused data leaves the cache after 5 minutes. */
export const QUERY_GC_TIME_MS = 5 * 60_000;
/** Failed queries are tried again 3 times… */
export const QUERY_RETRIES = 3;
/** …after 1 s, 2 s, 4 s…, never more than 30 s apart. */
export const RETRY_BASE_DELAY_MS = 1_000;
export const RETRY_MAX_DELAY_MS = 30_000;
/** Suspense queries are fresh for at least 1 s (no refetch loop right after they resolve). */
export const SUSPENSE_MIN_STALE_MS = 1_000;

/** Delay before retry number `failureCount + 1`: 1 s doubling, at most 30 s. */
export function retryDelay(failureCount: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** Math.max(0, failureCount), RETRY_MAX_DELAY_MS);
}

/**
 * A 4xx answer will answer the same again (a 404, 403, 400): never retried; 408 and 429 are
 * "later" answers and are. 5xx and failures without a status are retried QUERY_RETRIES times.
 * (A query whose link is down never fails: the tRPC client waits for the connection, connection.ts.)
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return false;
  return failureCount < QUERY_RETRIES;
}

/** The portal's QueryClient: the defaults above, and suspense queries' stale time clamped. */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { gcTime: QUERY_GC_TIME_MS, retry: shouldRetryQuery, retryDelay },
      // A save during a drop fails at once with its message (it is not held until the link is back).
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  const defaults = client.defaultQueryOptions.bind(client);
  const clamp = (value: unknown): unknown => (value === 'static' ? value : Math.max(typeof value === 'number' ? value : 0, SUSPENSE_MIN_STALE_MS));
  client.defaultQueryOptions = ((options: Parameters<typeof defaults>[0]) => {
    const defaulted = defaults(options);
    if (defaulted.suspense) {
      const stale: unknown = defaulted.staleTime;
      defaulted.staleTime = (
        typeof stale === 'function' ? (...args: unknown[]) => clamp((stale as (...a: unknown[]) => unknown)(...args)) : clamp(stale)
      ) as typeof defaulted.staleTime;
    }
    return defaulted;
  }) as typeof client.defaultQueryOptions;
  return client;
}
