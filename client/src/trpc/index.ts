import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable, type Unsubscribable } from '@trpc/server/observable';
import superjson from 'superjson';
import type { AppRouter } from '../../../server/src/api/app.router';
import { connection, type Connection } from './connection';

export type { AppRouter };

const url = '/api/trpc';

/**
 * fetch that tells the connection whether the server answered (any status) or nobody did, and
 * which writes (POST: mutations) are out.
 */
export function trackedFetch(conn: Connection = connection): typeof fetch {
  return async (input, init) => {
    const write = (init?.method ?? 'GET').toUpperCase() === 'POST';
    if (write) conn.writeStarted();
    try {
      const res = await fetch(input, init);
      conn.markAnswered();
      return res;
    } catch (error) {
      if (!init?.signal?.aborted) conn.markUnreachable();
      throw error;
    } finally {
      if (write) conn.writeEnded();
    }
  };
}

/** A call that got no answer at all (no HTTP status, no response): the link is down. */
export function isUnanswered(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const meta = error.meta as { response?: unknown } | undefined;
  return error.data == null && !meta?.response && !(error.cause instanceof Error && error.cause.name === 'AbortError');
}

/**
 * Queries that got no answer wait for the connection and go again (one banner instead of an
 * error per screen; the data on screen stays). Mutations and subscriptions fail as they are:
 * a save must say it did not happen.
 */
export function holdWhileUnreachableLink(conn: Connection = connection): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        let current: Unsubscribable | undefined;
        let stopped = false;
        const attempt = () => {
          current = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (error) => {
              if (stopped || op.type !== 'query' || op.signal?.aborted || !isUnanswered(error)) return observer.error(error);
              conn.markUnreachable();
              conn.whenReachable(op.signal ?? undefined).then(
                () => !stopped && attempt(),
                () => observer.error(error),
              );
            },
          });
        };
        attempt();
        return () => {
          stopped = true;
          current?.unsubscribe();
        };
      });
}

/**
 * The one tRPC client (spec §7): queries as GET and mutations as POST, batched (batch=1) and
 * serialized with superjson; subscriptions over SSE (httpSubscriptionLink) on the same origin,
 * so the session cookie goes with every call.
 */
export const trpc = createTRPCClient<AppRouter>({
  links: [
    holdWhileUnreachableLink(),
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url, transformer: superjson }),
      // maxItems stays within the server's TRPC_MAX_BATCH_SIZE default (50): a screen that asks more
      // at once sends several batches instead of one the server refuses with 413.
      false: httpBatchLink({ url, transformer: superjson, maxURLLength: 4000, maxItems: 50, fetch: trackedFetch() }),
    }),
  ],
});

/** HTTP status of a failed call (0 for a network failure). */
export function httpStatusOf(error: unknown): number {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
    return typeof status === 'number' ? status : 0;
  }
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : 0;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
