import { isPermission, type Permission } from '../../../shared/access/policy';
import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { ZEnergyInput, ZEnergyOutput, ZLatestInput, ZLatestOutput, ZSeriesInput, ZSeriesOutput } from './telemetry.schema';
import { TelemetryQueryService } from './telemetry-query.service';

/**
 * Reading telemetry needs 'telemetry.view' (proposed: level 3, target systemRead — every member
 * who sees a system sees its charts). Until policy.ts has it, the same rule is 'systems.view'.
 */
export const TELEMETRY_VIEW: Permission = isPermission('telemetry.view') ? 'telemetry.view' : 'systems.view';

export const telemetryRoutes = declareRoutes({ queries: TelemetryQueryService }, ({ queries }) =>
  router({
    /** About `points` buckets per parameter of one device, from the coarsest resolution that has enough. */
    series: procedure
      .meta({ perm: TELEMETRY_VIEW })
      .input(ZSeriesInput)
      .output(ZSeriesOutput)
      .query(({ ctx, input }) => queries.series(ctx.actor, TELEMETRY_VIEW, input)),

    /** Current value of every parameter of every device of a system, and its controllers' online state. */
    latest: procedure
      .meta({ perm: TELEMETRY_VIEW })
      .input(ZLatestInput)
      .output(ZLatestOutput)
      .query(({ ctx, input }) => queries.latest(ctx.actor, TELEMETRY_VIEW, input.system_cuid)),

    /** PV energy per local day or month, from the system's total_pv_kwh counter. */
    energy: procedure
      .meta({ perm: TELEMETRY_VIEW })
      .input(ZEnergyInput)
      .output(ZEnergyOutput)
      .query(({ ctx, input }) => queries.energy(ctx.actor, TELEMETRY_VIEW, input)),
  }),
);
