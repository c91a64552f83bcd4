import { trpc } from '../trpc';

/** A system's latest values: its header, devices and their parameters, controllers (telemetry.latest). */
export type Latest = Awaited<ReturnType<typeof trpc.telemetry.latest.query>>;

/** The system page's first query (its header and latest values): the page and the prefetch share it. */
export function systemLatestQuery(system_cuid: string) {
  return {
    queryKey: ['telemetry.latest', system_cuid] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) => trpc.telemetry.latest.query({ system_cuid }, { signal }),
  };
}
