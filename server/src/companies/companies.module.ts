import { Module } from '@nestjs/common';
import { CompanyMembershipRouter } from './company-membership.router';
import { SqlMembershipsRepository } from './memberships.repository';
import { MembershipsService } from './memberships.service';

@Module({
  providers: [SqlMembershipsRepository, MembershipsService, CompanyMembershipRouter],
  exports: [MembershipsService, CompanyMembershipRouter],
})
export class CompaniesModule {}
