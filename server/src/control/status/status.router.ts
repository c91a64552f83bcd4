import { z } from 'zod';
import { procedure, router } from '../../trpc/trpc';
import { declareRoutes } from '../../trpc/routes';
import { SystemStatusService } from './status.service';
import { ZMute, ZMuteCreateInput, ZMuteEndInput, ZMuteListInput, ZSystemStatus, ZSystemStatusInput } from './status.schema';

/**
 * The system status view (spec §6 "system status view 2") and device mutes ("mute states 1"):
 * `systemStatus.get`, `deviceMute.list` / `create` / `end`. docs/control.md.
 */
export const systemStatusRoutes = declareRoutes({ status: SystemStatusService }, ({ status }) => ({
  systemStatus: router({
    /** Devices with their latest readable state, controllers with their online timeline, the active mutes. */
    get: procedure
      .meta({ perm: 'systemStatus.view' })
      .input(ZSystemStatusInput)
      .output(ZSystemStatus)
      .query(({ ctx, input }) => status.get(ctx.actor, input)),
  }),

  deviceMute: router({
    list: procedure
      .meta({ perm: 'systemStatus.view' })
      .input(ZMuteListInput)
      .output(z.array(ZMute))
      .query(({ ctx, input }) => status.listMutes(ctx.actor, input)),

    /** Mutes a device's state-driven alarms until a time (at most 30 days); a MUTE changelog entry. */
    create: procedure
      .meta({ perm: 'states.mute' })
      .input(ZMuteCreateInput)
      .output(ZMute)
      .mutation(({ ctx, input }) => status.createMute(ctx.actor, input)),

    /** Ends a running mute now; a MUTE changelog entry. */
    end: procedure
      .meta({ perm: 'states.mute' })
      .input(ZMuteEndInput)
      .output(ZMute)
      .mutation(({ ctx, input }) => status.endMute(ctx.actor, input.mute_cuid)),
  }),
}));
