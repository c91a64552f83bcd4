import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { procedure, router } from '../../trpc/trpc';
import { SystemStatusService } from './status.service';
import { ZMute, ZMuteCreateInput, ZMuteEndInput, ZMuteListInput, ZSystemStatus, ZSystemStatusInput } from './status.schema';

/**
 * The system status view (spec §6 "system status view 2") and device mutes ("mute states 1"):
 * `systemStatus.get`, `deviceMute.list` / `create` / `end`. docs/control.md.
 */
@Injectable()
export class SystemStatusRouters {
  // Optional only for the procedure-permission snapshot, which builds routers without services.
  constructor(private readonly status?: SystemStatusService) {}

  private get service(): SystemStatusService {
    return this.status!;
  }

  readonly systemStatus = router({
    /** Devices with their latest readable state, controllers with their online timeline, the active mutes. */
    get: procedure
      .meta({ perm: 'systemStatus.view' })
      .input(ZSystemStatusInput)
      .output(ZSystemStatus)
      .query(({ ctx, input }) => this.service.get(ctx.actor, input)),
  });

  readonly deviceMute = router({
    list: procedure
      .meta({ perm: 'systemStatus.view' })
      .input(ZMuteListInput)
      .output(z.array(ZMute))
      .query(({ ctx, input }) => this.service.listMutes(ctx.actor, input)),

    /** Mutes a device's state-driven alarms until a time (at most 30 days); a MUTE changelog entry. */
    create: procedure
      .meta({ perm: 'states.mute' })
      .input(ZMuteCreateInput)
      .output(ZMute)
      .mutation(({ ctx, input }) => this.service.createMute(ctx.actor, input)),

    /** Ends a running mute now; a MUTE changelog entry. */
    end: procedure
      .meta({ perm: 'states.mute' })
      .input(ZMuteEndInput)
      .output(ZMute)
      .mutation(({ ctx, input }) => this.service.endMute(ctx.actor, input.mute_cuid)),
  });
}
