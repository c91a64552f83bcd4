import { Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Actor } from '../access/policy';
import { AppConfig } from '../config/config';
import type { TFleetOverview, ZFleetEnergy, ZFleetEnergyInput } from './fleet.schema';

/** The fleet overview and fleet energy (docs/home.md). */
@Injectable()
export class FleetService {
  constructor(private readonly config: AppConfig) {}

  async overview(_actor: Actor, _input: { company_cuid?: string }): Promise<TFleetOverview> {
    throw new TRPCError({ code: 'METHOD_NOT_SUPPORTED', message: 'Not built yet' });
  }

  async energy(_actor: Actor, _input: z.infer<typeof ZFleetEnergyInput>): Promise<z.infer<typeof ZFleetEnergy>> {
    throw new TRPCError({ code: 'METHOD_NOT_SUPPORTED', message: 'Not built yet' });
  }

  mapSettings(): { tile_url: string; attribution: string } {
    return { tile_url: this.config.MAP_TILE_URL, attribution: this.config.MAP_TILE_ATTRIBUTION };
  }
}
