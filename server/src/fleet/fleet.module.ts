import { Module } from '@nestjs/common';
import { FleetRepository } from './fleet.repository';
import { FleetService } from './fleet.service';

/** The operator's home: fleet overview, fleet energy, map settings (docs/home.md). */
@Module({
  providers: [FleetRepository, FleetService],
  exports: [FleetService],
})
export class FleetModule {}
