import { Module } from '@nestjs/common';
import { AlertChannelsModule } from '../alerts/channels/channels.module';
import { AuthModule } from '../auth/auth.module';
import { ExportHttpService } from './export-http.service';
import { ExportJobsRepository } from './export-jobs.repository';
import { ExportJobsService } from './export-jobs.service';
import { ExportJobsWorker } from './export-jobs.worker';
import { ExportMetrics } from './export-metrics';
import { ExportSchedulesRepository } from './export-schedules.repository';
import { ExportThreads } from './export-threads';
import { ExportsService } from './exports.service';
import { ExportTemplatesRepository } from './export-templates.repository';

/**
 * Data exports (docs/exports.md): templates run as streamed files (HTTP), background jobs with
 * their worker, scheduled exports mailed through the alert channels' Mailer. Needs the global
 * ConfigModule and DatabaseModule.
 */
@Module({
  imports: [AuthModule, AlertChannelsModule],
  providers: [
    ExportJobsRepository,
    ExportTemplatesRepository,
    ExportSchedulesRepository,
    ExportMetrics,
    ExportThreads,
    ExportsService,
    ExportJobsWorker,
    ExportJobsService,
    ExportHttpService,
  ],
  exports: [ExportsService, ExportJobsService, ExportJobsWorker],
})
export class ExportsModule {}
