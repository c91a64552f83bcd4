import { Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { stat } from 'node:fs/promises';
import type { Actor } from '../../../shared/access/policy';
import { notFound } from '../common/errors';
import { newCuid } from '../common/ids';
import { AppConfig } from '../config/config';
import { exportBudgets, queueRefusal } from './export-fairness';
import { ExportJobsRepository, type JobRow } from './export-jobs.repository';
import { exportFilePath, ExportJobsWorker } from './export-jobs.worker';
import { ExportMetrics } from './export-metrics';
import type { TExportJob, TExportRunInput } from './exports.schema';
import { ExportsService } from './exports.service';

/**
 * The caller's background exports (docs/exports.md): start (within the user's and the company's
 * budgets, else 429), progress with the queue position, list, cancel, the finished file. The
 * worker that runs them is ExportJobsWorker.
 */
@Injectable()
export class ExportJobsService {
  constructor(
    private readonly config: AppConfig,
    private readonly exports: ExportsService,
    private readonly jobs: ExportJobsRepository,
    private readonly metrics: ExportMetrics,
    private readonly worker: ExportJobsWorker,
  ) {}

  async start(actor: Actor, input: TExportRunInput): Promise<TExportJob> {
    const template = await this.exports.template(actor, input.template_cuid);
    const plan = await this.exports.plan(template, input);
    const id = newCuid();
    const budgets = exportBudgets(this.config);
    const refused = await this.jobs.enqueue(
      actor,
      template.charged_company_cuid ?? template.company_cuid,
      { id, system_cuid: template.system_cuid, template_cuid: template.template_cuid, plan, file_name: this.exports.fileName(template, plan) },
      (counts) => queueRefusal(counts, budgets),
    );
    if (refused) {
      this.metrics.refused(refused);
      throw new TRPCError({
        code: 'TOO_MANY_REQUESTS',
        message:
          refused === 'user_queue'
            ? `You already have ${budgets.userMaxQueued} exports waiting; start another when one has finished, or cancel one`
            : `This company already has ${budgets.companyMaxQueued} exports waiting; try again when one has finished`,
      });
    }
    this.worker.kick();
    return this.get(actor, id);
  }

  async get(actor: Actor, id: string): Promise<TExportJob> {
    const row = await this.jobs.visible(actor, id);
    if (!row) throw notFound('Export');
    return toJob(row);
  }

  /** The caller's own jobs, newest first (the 100 latest). */
  async list(actor: Actor): Promise<TExportJob[]> {
    return (await this.jobs.listOwn(actor)).map(toJob);
  }

  /** Cancels a queued or running job of the caller's own (FAILED "Cancelled"); a finished one stays. */
  async cancel(actor: Actor, id: string): Promise<TExportJob> {
    const job = await this.get(actor, id);
    if (job.scheduled && job.status !== 'QUEUED' && job.status !== 'RUNNING') return job;
    await this.jobs.cancelOwn(actor, id);
    return this.get(actor, id);
  }

  /** The file of a DONE job the caller may see (path, name, size), else NOT_FOUND. */
  async file(actor: Actor, id: string): Promise<{ path: string; name: string; size: number; format: string; etag: string }> {
    const job = await this.get(actor, id);
    if (job.status !== 'DONE' || (job.expires_at && job.expires_at.getTime() <= Date.now())) throw notFound('Export file');
    const path = this.pathOf(id, job.format);
    const info = await stat(path).catch(() => undefined);
    if (!info) throw notFound('Export file');
    return { path, name: job.file_name, size: info.size, format: job.format, etag: `"${id}-${info.size}-${Math.floor(info.mtimeMs)}"` };
  }

  pathOf(id: string, format: string): string {
    return exportFilePath(this.config.EXPORT_DIR, id, format);
  }
}

function toJob(r: JobRow): TExportJob {
  const plan = r.params?.plan;
  const live = r.status === 'DONE' && r.bytes !== null && (!r.expires_at || r.expires_at.getTime() > Date.now());
  return {
    id: r.id,
    system_cuid: r.system_cuid,
    system_name: r.system_name,
    template_cuid: r.template_cuid,
    template_name: r.template_name,
    status: r.status,
    rows_done: r.rows_done,
    rows_total: r.rows_total,
    bytes: r.bytes === null ? null : Number(r.bytes),
    file_name: r.file_name,
    format: plan?.format === 'xlsx' ? 'xlsx' : 'csv',
    from: new Date(plan?.from ?? 0),
    to: new Date(plan?.to ?? 0),
    timezone: plan?.timezone ?? 'UTC',
    scheduled: r.scheduled,
    error: r.error,
    mail_error: r.mail_error ?? null,
    queue_position: r.status === 'QUEUED' && r.queue_position !== null ? Number(r.queue_position) : null,
    created_at: r.created_at,
    finished_at: r.finished_at,
    expires_at: r.expires_at,
    download_url: live ? `/api/exports/jobs/${encodeURIComponent(r.id)}/file` : null,
  };
}
