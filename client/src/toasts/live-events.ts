import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';
import type { TLiveEvent } from '../../../server/src/alerts/portal/portal.schema';

// What the live events (portalNotification.onEvent) say about data: an event that means "this
// changed" makes those queries stale through the query client, so whichever screen shows them
// asks again. Nothing listens to toasts for that: a toast is for the person.

/** Tracked events arrive as { id, data }; plain ones as the event itself. */
export function unwrapLiveEvent(value: unknown): TLiveEvent | undefined {
  const v = value as { id?: unknown; data?: unknown; kind?: unknown } | null;
  if (v && typeof v === 'object' && 'data' in v && 'id' in v && !('kind' in v)) return v.data as TLiveEvent;
  return v && typeof v === 'object' && v.kind === 'toast' ? (v as TLiveEvent) : undefined;
}

/** A controller's configuration (desired against reported), controllerConfig.get. */
export const controllerConfigKey = (controller_id: string) => ['controllerConfig', controller_id];

/** react-admin keys a resource's queries [resource, method, params]: params.filter names the controller. */
const controllerOf = (queryKey: readonly unknown[]): unknown => (queryKey[2] as { filter?: { controller_id?: unknown } } | undefined)?.filter?.controller_id;

/**
 * The queries a command of this controller changes: its command lists (react-admin's controllerCommand
 * queries filtered by the controller) and its configuration (an apply_config answered changes it).
 */
export function commandQueries(controller_id: string): InvalidateQueryFilters[] {
  return [{ queryKey: ['controllerCommand'], predicate: (q) => controllerOf(q.queryKey) === controller_id }, { queryKey: controllerConfigKey(controller_id) }];
}

/** The queries a live event makes stale: a command's new status (a toast carrying `command`) → commandQueries. */
export function staleQueriesOf(event: TLiveEvent): InvalidateQueryFilters[] {
  const command = event.kind === 'toast' ? event.toast.command : undefined;
  return command ? commandQueries(command.controller_id) : [];
}

/** Invalidates every one of these queries (the active ones are asked again). */
export async function invalidate(queryClient: QueryClient, filters: readonly InvalidateQueryFilters[]): Promise<void> {
  await Promise.all(filters.map((f) => queryClient.invalidateQueries(f)));
}
