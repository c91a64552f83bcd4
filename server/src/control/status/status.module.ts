import { Module } from '@nestjs/common';
import { SystemsModule } from '../../systems/systems.module';
import { StatusRepository } from './status.repository';
import { SystemStatusService } from './status.service';

/** The system status view and device mutes (issue: control). */
@Module({
  imports: [SystemsModule],
  providers: [StatusRepository, SystemStatusService],
  exports: [SystemStatusService],
})
export class SystemStatusModule {}
