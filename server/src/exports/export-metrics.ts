import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { PortalMetrics } from '../common/metrics';
import { EXPORT_REFUSALS, type TExportRefusal } from './export-fairness';
import { ExportJobsRepository } from './export-jobs.repository';

/** Buckets of portal_export_job_duration_seconds: 1 s … 1 h. */
const DURATION_BUCKETS = [1, 5, 15, 60, 300, 900, 3600];

/**
 * The exports' series (docs/metrics.md), on the application's registry: jobs waiting and running
 * (read from the database at scrape time, all instances together, no company label), refusals by
 * reason (a fixed list) and the duration of finished jobs by outcome.
 */
@Injectable()
export class ExportMetrics {
  private readonly logger = new Logger('Exports');
  private readonly refusals: Counter<'reason'>;
  private readonly duration: Histogram<'outcome'>;

  constructor(metrics: PortalMetrics, jobs: ExportJobsRepository) {
    const registers = [metrics.registry];
    const logger = this.logger;
    new Gauge({
      name: 'portal_export_jobs',
      help: 'Export jobs in the database (every instance), by state (queued, running).',
      labelNames: ['state'],
      registers,
      async collect() {
        try {
          const counts = await jobs.stateCounts();
          this.set({ state: 'queued' }, counts.queued);
          this.set({ state: 'running' }, counts.running);
        } catch (e) {
          logger.warn(`metrics: could not read export jobs: ${(e as Error).message}`);
        }
      },
    });
    this.refusals = new Counter({
      name: 'portal_export_refusals_total',
      help: 'Exports refused, by reason (user_queue, company_queue, user_streams: 429; too_large: 400; schedule_queue: a due schedule waits for room in its company queue).',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of EXPORT_REFUSALS) this.refusals.inc({ reason }, 0);
    this.duration = new Histogram({
      name: 'portal_export_job_duration_seconds',
      help: 'Time from claim to end of the export jobs this instance ran, by outcome (done, failed).',
      labelNames: ['outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
  }

  refused(reason: TExportRefusal): void {
    this.refusals.inc({ reason });
  }

  finished(outcome: 'done' | 'failed', seconds: number): void {
    this.duration.observe({ outcome }, seconds);
  }
}
