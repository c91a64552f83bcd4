import { Module } from '@nestjs/common';
import { FleetRouter } from './fleet.router';
import { FleetService } from './fleet.service';

/** The operator's home: fleet overview, fleet energy, map settings (docs/home.md). */
@Module({
  providers: [FleetService, FleetRouter],
  exports: [FleetService, FleetRouter],
})
export class FleetModule {}
