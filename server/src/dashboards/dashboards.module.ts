import { Module } from '@nestjs/common';
import { DashboardsRepository } from './dashboards.repository';
import { DashboardsService } from './dashboards.service';

@Module({
  providers: [DashboardsRepository, DashboardsService],
})
export class DashboardsModule {}
