import { Module } from '@nestjs/common';
import { CompanyMembershipRouter } from './company-membership.router';
import { MembershipsService } from './memberships.service';

@Module({
  providers: [MembershipsService, CompanyMembershipRouter],
  exports: [MembershipsService, CompanyMembershipRouter],
})
export class CompaniesModule {}
