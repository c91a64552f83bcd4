import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
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

export const dashboardKey = (id: string) => ['dashboard.getOne', id];

/** One dashboard (its layout in `meta`); a server error is retried twice, a refusal not. */
export function useDashboard(id: string) {
  return useQuery({
    queryKey: dashboardKey(id),
    queryFn: ({ signal }) => trpc.dashboard.getOne.query({ id }, { signal }),
    retry: noRetry,
  });
}

export type DashboardCreateInput = Parameters<typeof trpc.dashboard.create.mutate>[0];
export type DashboardUpdateInput = Parameters<typeof trpc.dashboard.update.mutate>[0];

/** A new dashboard (the caller refreshes the lists and opens it). */
export function useCreateDashboard() {
  return useMutation({ mutationFn: (input: DashboardCreateInput) => trpc.dashboard.create.mutate(input) });
}

/** Saves a dashboard (its layout); the caller refreshes it. */
export function useUpdateDashboard() {
  return useMutation({ mutationFn: (input: DashboardUpdateInput) => trpc.dashboard.update.mutate(input) });
}

const BY_NAME = { pagination: { page: 1, perPage: 500 }, sort: { field: 'name', order: 'ASC' as const }, filter: {} };

/** The systems a dashboard or a widget may name (by name, 500 at most). */
export function useDashboardSystems(enabled: boolean) {
  return useQuery({ queryKey: ['dashboard.systems'], queryFn: () => trpc.system.getList.query(BY_NAME), enabled });
}

/** The companies a dashboard may belong to (by name, 500 at most). */
export function useDashboardCompanies(enabled: boolean) {
  return useQuery({ queryKey: ['dashboard.companies'], queryFn: () => trpc.company.getList.query(BY_NAME), enabled });
}

/** Every role (a dashboard may be made for one). */
export function useRoles() {
  return useQuery({ queryKey: ['role.all'], queryFn: () => trpc.role.all.query() });
}

/** The fleet's PV energy per day over a range (a KPI widget's total). */
export function useFleetEnergyDays(range: { from: Date; to: Date }) {
  return useQuery({
    queryKey: ['fleet.energy', 'day', range.from.getTime(), range.to.getTime()],
    queryFn: ({ signal }) => trpc.fleet.energy.query({ from: range.from, to: range.to, granularity: 'day' }, { signal }),
    retry: false,
  });
}

export interface WidgetSeriesRequest {
  system_cuid: string;
  /** Per device, the parameters shown. */
  byDevice: [string, string[]][];
  from: number;
  to: number;
  points: number;
  /** False until the chart knows its width. */
  enabled: boolean;
}

/** A time-series widget's series, one call per device; while a new range loads, the previous answer stays. */
export function useWidgetSeries({ system_cuid, byDevice, from, to, points, enabled }: WidgetSeriesRequest) {
  return useQuery({
    queryKey: ['dashboard.series', system_cuid, byDevice, from, to, points],
    queryFn: ({ signal }) =>
      Promise.all(
        byDevice.map(([entity_cuid, parameter_ids]) =>
          trpc.telemetry.series.query({ entity_cuid, parameter_ids, from: new Date(from), to: new Date(to), points }, { signal }),
        ),
      ),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
