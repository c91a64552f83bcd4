import { Global, Module } from '@nestjs/common';
import { SystemAccessService } from './system-access.service';
import { SystemMetadataService } from './system-metadata.service';
import { SqlSystemSharingRepository } from './system-sharing.repository';
import { SystemSharingService } from './system-sharing.service';

@Global()
@Module({
  providers: [SystemAccessService, SqlSystemSharingRepository, SystemSharingService, SystemMetadataService],
  exports: [SystemAccessService, SystemSharingService, SystemMetadataService],
})
export class SystemsModule {}
