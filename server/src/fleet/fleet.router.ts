import { procedure, router, sharedOutput } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { ZFleetEnergy, ZFleetEnergyInput, ZFleetOverview, ZFleetOverviewInput, ZMapSettings } from './fleet.schema';
import { FleetService } from './fleet.service';

/** The operator's home (docs/home.md): `fleet.overview`, `fleet.energy`, `fleet.mapSettings`. */
export const fleetRoutes = declareRoutes({ fleet: FleetService }, ({ fleet }) =>
  router({
    /** Counts, energy, the attention list, pins, alarms and commands of the caller's systems, in one call. */
    overview: procedure
      .meta({ perm: 'fleet.view' })
      .input(ZFleetOverviewInput)
      // One overview is shared by the callers who see the same systems: checked and serialised once.
      .output(sharedOutput(ZFleetOverview))
      .query(({ ctx, input }) => fleet.overview(ctx.actor, input ?? {})),

    /** PV kWh of the caller's systems per day or month. */
    energy: procedure
      .meta({ perm: 'fleet.view' })
      .input(ZFleetEnergyInput)
      .output(ZFleetEnergy)
      .query(({ ctx, input }) => fleet.energy(ctx.actor, input)),

    /** The map's tile server (MAP_TILE_URL) and its attribution; empty → offline borders only. */
    mapSettings: procedure
      .meta({ perm: 'fleet.view' })
      .output(ZMapSettings)
      .query(() => fleet.mapSettings()),
  }),
);
