import { Global, Module } from '@nestjs/common';
import { SystemAccessRepository } from './system-access.repository';
import { SystemAccessService } from './system-access.service';
import { SystemMetadataRepository } from './system-metadata.repository';
import { SystemMetadataService } from './system-metadata.service';
import { SqlSystemSharingRepository } from './system-sharing.repository';
import { SystemSharingService } from './system-sharing.service';

@Global()
@Module({
  providers: [SystemAccessRepository, SystemAccessService, SqlSystemSharingRepository, SystemSharingService, SystemMetadataRepository, SystemMetadataService],
  exports: [SystemAccessService, SystemSharingService, SystemMetadataService],
})
export class SystemsModule {}
