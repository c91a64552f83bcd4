import { Global, Module } from '@nestjs/common';
import { SystemAccessService } from './system-access.service';

@Global()
@Module({ providers: [SystemAccessService], exports: [SystemAccessService] })
export class SystemsModule {}
