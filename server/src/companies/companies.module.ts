import { Module } from '@nestjs/common';
import { SqlMembershipsRepository } from './memberships.repository';
import { MembershipsService } from './memberships.service';

@Module({
  providers: [SqlMembershipsRepository, MembershipsService],
  exports: [MembershipsService],
})
export class CompaniesModule {}
