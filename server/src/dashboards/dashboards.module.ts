import { Module } from '@nestjs/common';
import { DashboardRouter } from './dashboard.router';

@Module({
  providers: [DashboardRouter],
  exports: [DashboardRouter],
})
export class DashboardsModule {}
