import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/src/api/app.router';

export type { AppRouter };

const url = '/api/trpc';

/**
 * The one tRPC client (spec §7): queries as GET and mutations as POST, batched (batch=1) and
 * serialized with superjson; subscriptions over SSE (httpSubscriptionLink) on the same origin,
 * so the session cookie goes with every call.
 */
export const trpc = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url, transformer: superjson }),
      // maxItems stays within the server's TRPC_MAX_BATCH_SIZE default (50): a screen that asks more
      // at once sends several batches instead of one the server refuses with 413.
      false: httpBatchLink({ url, transformer: superjson, maxURLLength: 4000, maxItems: 50 }),
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
