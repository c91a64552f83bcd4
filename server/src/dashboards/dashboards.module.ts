import { Module } from '@nestjs/common';
import { DashboardRouter } from './dashboard.router';
import { DashboardsRepository } from './dashboards.repository';
import { DashboardsService } from './dashboards.service';

@Module({
  providers: [DashboardsRepository, DashboardsService, DashboardRouter],
  exports: [DashboardRouter],
})
export class DashboardsModule {}
