import { Module } from '@nestjs/common';
import { FleetRouter } from './fleet.router';
import { FleetRepository } from './fleet.repository';
import { FleetService } from './fleet.service';

/** The operator's home: fleet overview, fleet energy, map settings (docs/home.md). */
@Module({
  providers: [FleetRepository, FleetService, FleetRouter],
  exports: [FleetService, FleetRouter],
})
export class FleetModule {}
