import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { trpc } from '../trpc';

export interface EnergyPeriod {
  label: string;
  kwh: number | null;
}

export interface EnergyRequest {
  /** One system (telemetry.energy); absent → the fleet (fleet.energy), optionally one company's. */
  system_cuid?: string;
  company_cuid?: string;
  granularity: 'day' | 'month';
  from: Date;
  to: Date;
}

/** PV energy per period and its total; while a new range loads, the previous answer stays. */
export function useEnergy({ system_cuid, company_cuid, granularity, from, to }: EnergyRequest) {
  return useQuery({
    queryKey: ['energy', system_cuid ?? null, company_cuid ?? null, granularity, from.getTime(), to.getTime()],
    queryFn: async ({ signal }): Promise<{ periods: EnergyPeriod[]; total_kwh: number }> =>
      system_cuid
        ? trpc.telemetry.energy.query({ system_cuid, from, to, granularity }, { signal })
        : trpc.fleet.energy.query({ from, to, granularity, ...(company_cuid ? { company_cuid } : {}) }, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
