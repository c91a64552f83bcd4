import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Mailer } from '../alerts/channels/mailer';
import { newCuid } from '../common/ids';
import { AppConfig } from '../config/config';
import { Budgets } from '../budgets/budgets.service';
import type { TExportFrequency } from '../../../shared/exports/export-config.schema';
import { exportBudgets, pickNext } from './export-fairness';
import { ExportJobsRepository, type JobRow } from './export-jobs.repository';
import { ExportMetrics } from './export-metrics';
import { ExportSchedulesRepository } from './export-schedules.repository';
import { ExportAborted, type ExportPlan } from './export-stream';
import { ExportThreads, isTimeout } from './export-threads';
import { ExportsService } from './exports.service';

/** A worker holds a RUNNING job this long past its last progress; after that another worker takes it again. */
export const EXPORT_LEASE_SECONDS = 60;
/** Most waiting jobs (the oldest of each user) one claim weighs. */
const CANDIDATES = 200;
const UNIT: Record<TExportFrequency, string> = { daily: 'day', weekly: 'week', monthly: 'month' };

/** Where a job's file lives. */
export const exportFilePath = (dir: string, id: string, format: string): string => join(dir, `${id}.${format === 'xlsx' ? 'xlsx' : 'csv'}`);

/**
 * The export worker (docs/exports.md): due schedules become jobs; waiting jobs run one at a time
 * per instance, the next one chosen round-robin across companies within the running budgets
 * (export-fairness.ts); files go to EXPORT_DIR; expired files are swept. Claims go through
 * PostgreSQL (FOR UPDATE SKIP LOCKED), so any number of instances share the work, and a RUNNING
 * job whose worker died is taken again once its lease runs out.
 */
@Injectable()
export class ExportJobsWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Exports');
  readonly workerId = `w-${newCuid().slice(0, 12)}`;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private readonly aborts = new Set<AbortController>();
  /** Set while a round waits for its running jobs: a new job wakes it to fill a free slot. */
  private wake?: () => void;
  /** Templates whose due schedule waits for room (logged and counted once while they wait). */
  private readonly waiting = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    private readonly exports: ExportsService,
    private readonly jobs: ExportJobsRepository,
    private readonly metrics: ExportMetrics,
    private readonly mailer: Mailer,
    private readonly schedules: ExportSchedulesRepository,
    private readonly budgets: Budgets,
    private readonly threads: ExportThreads,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.EXPORT_POLL_MS > 0) this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const a of this.aborts) a.abort();
    await this.running?.catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((e) => this.logger.error(`export worker round failed: ${(e as Error).message}`))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.config.EXPORT_POLL_MS);
    this.timer.unref?.();
  }

  /** Starts a round soon (a job just queued); a round under way looks for a free slot at once. */
  kick(): void {
    if (this.config.EXPORT_POLL_MS <= 0 || this.stopped) return;
    if (this.running) {
      this.wake?.();
      return;
    }
    clearTimeout(this.timer);
    this.running = this.tick()
      .catch((e) => this.logger.error(`export worker round failed: ${(e as Error).message}`))
      .finally(() => {
        this.running = undefined;
        this.schedule();
      });
  }

  /**
   * One round of the worker: due schedules become jobs; waiting jobs run, up to
   * EXPORT_WORKER_CONCURRENCY at once, each taken by the fair choice as a slot frees (or a new job
   * is queued); the round ends when nothing runs and nothing may start; expired files go.
   */
  async tick(): Promise<void> {
    await this.enqueueDueSchedules();
    const inflight = new Set<Promise<void>>();
    for (;;) {
      while (inflight.size < this.config.EXPORT_WORKER_CONCURRENCY && !this.stopped) {
        const job = await this.claim();
        if (!job) break;
        const done: Promise<void> = this.run(job).finally(() => inflight.delete(done));
        inflight.add(done);
      }
      if (!inflight.size) break;
      const woken = new Promise<void>((resolve) => (this.wake = resolve));
      await Promise.race([...inflight, woken]);
      this.wake = undefined;
    }
    await this.sweep();
  }

  /**
   * Takes the next job: the round-robin choice among the oldest waiting job of each user (a
   * RUNNING one whose lease ran out counts as waiting). Another instance may take the same job
   * first (SKIP LOCKED): then the choice is made again.
   */
  async claim(): Promise<JobRow | undefined> {
    const budgets = exportBudgets(this.config);
    for (let attempt = 0; attempt < 5; attempt++) {
      const candidates = await this.jobs.candidates(CANDIDATES);
      if (!candidates.length) return undefined;
      const state = await this.jobs.runningState([...new Set(candidates.map((c) => c.company_cuid))]);
      const next = pickNext(candidates, state, budgets);
      if (!next) return undefined;
      const row = await this.jobs.claim(next.id, this.workerId, EXPORT_LEASE_SECONDS);
      if (row) return row;
    }
    return undefined;
  }

  /** Writes one claimed job's file in an export thread; progress renews the lease, and a cancelled job stops. */
  async run(job: JobRow): Promise<void> {
    const stored = job.params.plan;
    const plan: ExportPlan = { ...stored, from: new Date(stored.from), to: new Date(stored.to) };
    const final = exportFilePath(this.config.EXPORT_DIR, job.id, plan.format);
    const part = `${final}.${this.workerId}.part`;
    const abort = new AbortController();
    const began = performance.now();
    this.aborts.add(abort);
    try {
      // The thread makes the folder, writes the part file, renames it and counts its bytes. On
      // PostgreSQL it also sets the total and marks the job DONE on its own connection (no turn of
      // this event loop between the claim and DONE); on the embedded database this side does.
      const record = this.config.DATABASE_URL ? { id: job.id, worker: this.workerId, retentionHours: this.config.EXPORT_RETENTION_HOURS } : undefined;
      if (!record) await this.jobs.setTotal(job.id, this.workerId, plan);
      const progress = async (done: number) => this.jobs.progress(job.id, this.workerId, done, EXPORT_LEASE_SECONDS);
      // On the embedded database the thread leaves the part file; it is renamed in the transaction that marks the job DONE.
      const { rows, bytes, recorded } = await this.threads.render(plan, record ? final : part, progress, abort.signal, part, record);
      if (abort.signal.aborted) throw new ExportAborted();
      const done =
        recorded ??
        (await this.jobs.done(
          job.id,
          this.workerId,
          rows,
          bytes,
          this.config.EXPORT_RETENTION_HOURS,
          () => rename(part, final),
          () => rename(final, part),
        ));
      if (!done) await rm(part, { force: true });
      else {
        this.metrics.finished('done', (performance.now() - began) / 1000);
        if (job.scheduled) await this.mail(job.id);
      }
    } catch (e) {
      await rm(part, { force: true });
      if (e instanceof ExportAborted) return;
      this.logger.error(`export ${job.id} failed: ${(e as Error).message}`);
      this.metrics.finished('failed', (performance.now() - began) / 1000);
      await this.jobs.failed(
        job.id,
        this.workerId,
        isTimeout(e) ? 'The export took too long to read: export a shorter range or fewer columns' : 'The export could not be written',
      );
    } finally {
      this.aborts.delete(abort);
    }
  }

  /** Removes the files of expired jobs (and forgets the file: the row stays, without download). */
  async sweep(): Promise<number> {
    const rows = await this.jobs.expiredFiles(500);
    for (const r of rows) {
      await rm(exportFilePath(this.config.EXPORT_DIR, r.id, r.format), { force: true });
      await this.jobs.forgetFile(r.id);
    }
    return rows.length;
  }

  // ---- scheduled exports ----------------------------------------------------------------------

  /**
   * Keeps export_schedule in step with the templates (a template with a schedule runs next at the
   * end of the current period in the system's zone), then turns each due schedule into a job for
   * the previous period, charged to the template's charged company (docs/security.md "Budgets and
   * fair shares"), claiming it with SKIP LOCKED so only one instance makes it. A due schedule whose
   * company has EXPORT_COMPANY_MAX_QUEUED jobs waiting, or whose template still has a job waiting
   * or running, is left due: it is tried again next round (counted once in
   * portal_export_refusals_total{reason="schedule_queue"} and logged once while it waits).
   */
  async enqueueDueSchedules(): Promise<number> {
    await this.schedules.sync();
    const deferred: string[] = [];
    let made = 0;
    for (;;) {
      const did = await this.schedules.transaction(async (tx) => {
        const due = await this.schedules.nextDue(tx, deferred);
        if (!due) return false;
        const template = await this.exports.templateForSystemActor(due.template_cuid, tx).catch(() => undefined);
        const schedule = template?.config.schedule;
        if (!template || !schedule) {
          await this.schedules.remove(tx, due.template_cuid);
          return true;
        }
        const charged = template.charged_company_cuid ?? template.company_cuid;
        if (!(await this.schedules.sees(tx, charged, template.system_cuid))) {
          // Set by a partner whose share has since been removed: no job, no mail, until whoever
          // sees the system sets the schedule again (which charges them).
          if (!this.waiting.has(due.template_cuid)) {
            this.waiting.add(due.template_cuid);
            this.metrics.refused('schedule_unseen');
            this.logger.log(`scheduled export of template ${template.template_cuid} skipped: the company that set it no longer sees the system`);
          }
          const period = await this.schedules.period(tx, due.next_run_at, template.timezone, UNIT[schedule.frequency]);
          await this.schedules.advance(tx, due.template_cuid, period.next);
          return true;
        }
        const room = await this.schedules.room(tx, charged, template.template_cuid);
        if (room.templateBusy || room.companyQueued >= this.config.EXPORT_COMPANY_MAX_QUEUED) {
          deferred.push(due.template_cuid);
          if (!this.waiting.has(due.template_cuid)) {
            this.waiting.add(due.template_cuid);
            if (!room.templateBusy) this.metrics.refused('schedule_queue');
            this.logger.log(
              `scheduled export of template ${template.template_cuid} waits: ${room.templateBusy ? 'its previous job has not finished' : 'its company has the most exports waiting'}`,
            );
          }
          return true;
        }
        this.waiting.delete(due.template_cuid);
        const period = await this.schedules.period(tx, due.next_run_at, template.timezone, UNIT[schedule.frequency]);
        try {
          const plan = await this.exports.plan(template, { from: period.from, to: period.to }, tx);
          await this.schedules.insertJob(tx, {
            id: newCuid(),
            system_cuid: template.system_cuid,
            template_cuid: template.template_cuid,
            params: { plan, recipients: schedule.recipients },
            file_name: this.exports.fileName(template, plan),
            charged_company_cuid: charged,
          });
          made++;
        } catch (e) {
          this.logger.warn(`scheduled export of template ${template.template_cuid} skipped: ${(e as Error).message}`);
        }
        await this.schedules.advance(tx, due.template_cuid, period.next);
        return true;
      });
      if (!did) return made;
    }
  }

  /**
   * Mails the download link of a finished scheduled job to its recipients (verified, active email
   * channels of the company it is charged to). Each mail spends that company's mail budgets (per
   * company, per address); a refused or failed mail is recorded on the job (`mail_error`, shown
   * with it), never dropped silently.
   */
  private async mail(id: string): Promise<void> {
    const job = await this.jobs.row(id);
    if (!job) return;
    const emails = await this.schedules.addresses(job.params.recipients ?? [], job.charged_company_cuid);
    const link = `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/api/exports/jobs/${encodeURIComponent(id)}/file`;
    const subject = `Data export ready: ${job.system_name ?? ''} – ${job.template_name ?? job.file_name}`;
    const text = `The scheduled export "${job.template_name ?? ''}" of ${job.system_name ?? ''} is ready (${job.file_name}).\n\nDownload (sign in first): ${link}\n\nThe file can be downloaded until ${job.expires_at?.toISOString() ?? ''}.\n`;
    const html = `<p>The scheduled export <b>${escapeHtml(job.template_name ?? '')}</b> of ${escapeHtml(job.system_name ?? '')} is ready (${escapeHtml(job.file_name)}).</p><p><a href="${escapeHtml(link)}">Download the file</a> (sign in first).</p>`;
    const missed: ('mail.company' | 'mail.address' | 'failed')[] = [];
    for (const email of emails) {
      const refused = await this.budgets.refusedMail({ address: email, company_cuids: [job.charged_company_cuid] });
      if (refused) {
        missed.push(refused === 'mail.company' ? 'mail.company' : 'mail.address');
        continue;
      }
      const sent = await this.mailer.send({ to: email, subject, text, html });
      if (!sent.ok) {
        this.logger.warn(`export mail to a recipient failed: ${sent.reason}`);
        missed.push('failed');
      }
    }
    await this.schedules.mailed(id, missed.length ? mailError(missed, emails.length) : null);
  }
}

/** What a job shows when its mail did not reach every recipient (English; catalogue.fr.ts has the French). */
export function mailError(missed: readonly ('mail.company' | 'mail.address' | 'failed')[], total: number): string {
  const why = missed.includes('mail.company')
    ? 'this company has caused too many mails this hour'
    : missed.includes('mail.address')
      ? 'too many mails went to the address this hour'
      : 'the mail could not be sent';
  return `Not mailed to ${missed.length} of ${total} recipients: ${why}`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
