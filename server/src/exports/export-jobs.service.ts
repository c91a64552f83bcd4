import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { Actor } from '../access/policy';
import { Mailer } from '../alerts/channels/mailer';
import { notFound } from '../common/errors';
import { newCuid } from '../common/ids';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { visibleSystemIdSql } from '../tenancy/visibility';
import type { TExportFrequency } from './export-config.schema';
import { exportChunks, ExportAborted, writeExport, type ExportPlan } from './export-stream';
import type { TExportJob, TExportRunInput } from './exports.schema';
import { ExportsService } from './exports.service';

/** A worker holds a RUNNING job this long past its last progress; after that another worker takes it again. */
export const EXPORT_LEASE_SECONDS = 60;
const UNIT: Record<TExportFrequency, string> = { daily: 'day', weekly: 'week', monthly: 'month' };

interface JobRow {
  id: string;
  user_cuid: string | null;
  system_cuid: string;
  system_name: string | null;
  template_cuid: string | null;
  template_name: string | null;
  params: { plan: Omit<ExportPlan, 'from' | 'to'> & { from: string; to: string }; recipients?: string[] };
  status: TExportJob['status'];
  rows_done: number;
  rows_total: number | null;
  bytes: string | null;
  file_name: string;
  error: string | null;
  scheduled: boolean;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
}

const JOB_COLUMNS = `j.id, j.user_cuid, j.system_cuid, s.name AS system_name, j.template_cuid, t.name AS template_name, j.params, j.status,
  j.rows_done, j.rows_total, j.bytes, j.file_name, j.error, j.scheduled, j.created_at, j.finished_at, j.expires_at`;
const JOB_FROM = `export_job j JOIN system s ON s.system_cuid = j.system_cuid LEFT JOIN system_data_export_template t ON t.template_cuid = j.template_cuid`;

/**
 * Background exports (docs/exports.md): jobs a user starts, jobs the schedule makes, the worker
 * that writes their files to EXPORT_DIR and the sweep of expired files. All claims go through
 * PostgreSQL (FOR UPDATE SKIP LOCKED), so any number of instances share the work, and a RUNNING
 * job whose worker died is taken again once its lease runs out.
 */
@Injectable()
export class ExportJobsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Exports');
  readonly workerId = `w-${newCuid().slice(0, 12)}`;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private readonly aborts = new Set<AbortController>();

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly exports: ExportsService,
    private readonly mailer: Mailer,
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
        .finally(() => this.schedule());
    }, this.config.EXPORT_POLL_MS);
    this.timer.unref?.();
  }

  /** One round of the worker: due schedules become jobs, queued (or abandoned) jobs run, expired files go. */
  async tick(): Promise<void> {
    await this.enqueueDueSchedules();
    for (let job = await this.claim(); job && !this.stopped; job = await this.claim()) await this.run(job);
    await this.sweep();
  }

  // ---- the caller's jobs ----------------------------------------------------------------------

  async start(actor: Actor, input: TExportRunInput): Promise<TExportJob> {
    const template = await this.exports.template(actor, input.template_cuid);
    const plan = await this.exports.plan(template, input);
    const id = newCuid();
    await this.ds.query(
      `INSERT INTO export_job (id, user_cuid, system_cuid, template_cuid, params, file_name) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, actor.user_cuid, template.system_cuid, template.template_cuid, JSON.stringify({ plan }), this.exports.fileName(template, plan)],
    );
    if (this.config.EXPORT_POLL_MS > 0) this.kick();
    return this.get(actor, id);
  }

  /** Starts a round soon (a job just queued) unless one is already under way. */
  private kick(): void {
    if (this.stopped || this.running) return;
    clearTimeout(this.timer);
    this.running = this.tick()
      .catch((e) => this.logger.error(`export worker round failed: ${(e as Error).message}`))
      .finally(() => {
        this.running = undefined;
        this.schedule();
      });
  }

  /**
   * Who may see a job: its owner while the system stays visible; a scheduled job, anybody who may
   * run exports of its system (exports.run is level 3 on a visible system).
   */
  private jobScopeSql(actor: Actor, p: SqlParams): string {
    return `((j.user_cuid = ${p.add(actor.user_cuid)} OR (j.scheduled AND j.user_cuid IS NULL)) AND ${visibleSystemIdSql(actor, p, 'j.system_cuid')})`;
  }

  async get(actor: Actor, id: string): Promise<TExportJob> {
    const p = new SqlParams([id]);
    const [row] = (await this.ds.query(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.id = $1 AND ${this.jobScopeSql(actor, p)}`, p.values)) as JobRow[];
    if (!row) throw notFound('Export');
    return toJob(row);
  }

  /** The caller's own jobs, newest first (the 100 latest). */
  async list(actor: Actor): Promise<TExportJob[]> {
    const p = new SqlParams([actor.user_cuid]);
    const rows = (await this.ds.query(
      `SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.user_cuid = $1 AND ${visibleSystemIdSql(actor, p, 'j.system_cuid')} ORDER BY j.created_at DESC, j.id DESC LIMIT 100`,
      p.values,
    )) as JobRow[];
    return rows.map(toJob);
  }

  /** Cancels a queued or running job of the caller's own (FAILED "Cancelled"); a finished one stays. */
  async cancel(actor: Actor, id: string): Promise<TExportJob> {
    const job = await this.get(actor, id);
    if (job.scheduled && job.status !== 'QUEUED' && job.status !== 'RUNNING') return job;
    const p = new SqlParams([id, actor.user_cuid]);
    await this.ds.query(
      `UPDATE export_job SET status = 'FAILED', error = 'Cancelled', finished_at = now(), lease_until = NULL
        WHERE id = $1 AND user_cuid = $2 AND status IN ('QUEUED', 'RUNNING')`,
      p.values,
    );
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
    return join(this.config.EXPORT_DIR, `${id}.${format === 'xlsx' ? 'xlsx' : 'csv'}`);
  }

  // ---- the worker -----------------------------------------------------------------------------

  /** Takes the oldest queued job, or a running one whose worker's lease ran out. */
  async claim(): Promise<JobRow | undefined> {
    const rows = (await this.ds.query(
      `UPDATE export_job j SET status = 'RUNNING', worker = $1, lease_until = now() + make_interval(secs => $2), attempts = j.attempts + 1, rows_done = 0, error = NULL
        WHERE j.id = (SELECT id FROM export_job
                       WHERE status = 'QUEUED' OR (status = 'RUNNING' AND lease_until < now())
                       ORDER BY created_at, id
                       LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING j.id`,
      [this.workerId, EXPORT_LEASE_SECONDS],
    )) as [{ id: string }[], number] | { id: string }[];
    const id = (Array.isArray(rows[0]) ? rows[0][0] : (rows as { id: string }[])[0])?.id;
    if (!id) return undefined;
    const [row] = (await this.ds.query(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.id = $1`, [id])) as JobRow[];
    return row;
  }

  /** Writes one claimed job's file; progress renews the lease, and a cancelled job stops. */
  async run(job: JobRow): Promise<void> {
    const stored = job.params.plan;
    const plan: ExportPlan = { ...stored, from: new Date(stored.from), to: new Date(stored.to) };
    const final = this.pathOf(job.id, plan.format);
    const part = `${final}.${this.workerId}.part`;
    const abort = new AbortController();
    this.aborts.add(abort);
    try {
      await mkdir(this.config.EXPORT_DIR, { recursive: true });
      const total = await this.exports.estimateRows(plan);
      await this.ds.query(`UPDATE export_job SET rows_total = $2 WHERE id = $1`, [job.id, total]);
      const out = createWriteStream(part);
      const closed = new Promise<void>((resolve, reject) => {
        out.on('close', resolve);
        out.on('error', reject);
      });
      const rows = await writeExport(out, plan, exportChunks(this.ds, plan, abort.signal), async (done) => {
        const [, n] = (await this.ds.query(
          `UPDATE export_job SET rows_done = $3, rows_total = GREATEST(rows_total, $3), lease_until = now() + make_interval(secs => $4)
            WHERE id = $1 AND worker = $2 AND status = 'RUNNING'`,
          [job.id, this.workerId, done, EXPORT_LEASE_SECONDS],
        )) as [unknown, number];
        if (!n) {
          out.destroy();
          throw new ExportAborted();
        }
      });
      await closed;
      if (abort.signal.aborted) throw new ExportAborted();
      const size = (await stat(part)).size;
      await rename(part, final);
      const [, n] = (await this.ds.query(
        `UPDATE export_job SET status = 'DONE', rows_done = $3, rows_total = $3, bytes = $4, finished_at = now(), lease_until = NULL,
                expires_at = now() + make_interval(hours => $5)
          WHERE id = $1 AND worker = $2 AND status = 'RUNNING'`,
        [job.id, this.workerId, rows, size, this.config.EXPORT_RETENTION_HOURS],
      )) as [unknown, number];
      if (!n) await rm(final, { force: true });
      else if (job.scheduled) await this.mail(job.id);
    } catch (e) {
      await rm(part, { force: true });
      if (e instanceof ExportAborted) return;
      this.logger.error(`export ${job.id} failed: ${(e as Error).message}`);
      await this.ds.query(
        `UPDATE export_job SET status = 'FAILED', error = 'The export could not be written', finished_at = now(), lease_until = NULL
          WHERE id = $1 AND worker = $2 AND status = 'RUNNING'`,
        [job.id, this.workerId],
      );
    } finally {
      this.aborts.delete(abort);
    }
  }

  /** Removes the files of expired jobs (and forgets the file: the row stays, without download). */
  async sweep(): Promise<number> {
    const rows = (await this.ds.query(
      `SELECT id, params->'plan'->>'format' AS format FROM export_job WHERE status = 'DONE' AND expires_at <= now() AND bytes IS NOT NULL LIMIT 500`,
    )) as { id: string; format: string }[];
    for (const r of rows) {
      await rm(this.pathOf(r.id, r.format), { force: true });
      await this.ds.query(`UPDATE export_job SET bytes = NULL WHERE id = $1`, [r.id]);
    }
    return rows.length;
  }

  // ---- scheduled exports ----------------------------------------------------------------------

  /**
   * Keeps export_schedule in step with the templates (a template with a schedule runs next at the
   * end of the current period in the system's zone), then turns each due schedule into a job for
   * the previous period, claiming it with SKIP LOCKED so only one instance makes it.
   */
  async enqueueDueSchedules(): Promise<number> {
    await this.ds.query(`DELETE FROM export_schedule es USING system_data_export_template t
                          WHERE t.template_cuid = es.template_cuid AND NOT (t.config ? 'schedule' AND jsonb_typeof(t.config->'schedule') = 'object')`);
    await this.ds.query(
      `INSERT INTO export_schedule (template_cuid, next_run_at)
       SELECT t.template_cuid,
              (date_trunc(u.unit, now(), s.timezone) AT TIME ZONE s.timezone + ('1 ' || u.unit)::interval) AT TIME ZONE s.timezone
         FROM system_data_export_template t
         JOIN system s ON s.system_cuid = t.system_cuid
         CROSS JOIN LATERAL (SELECT CASE t.config->'schedule'->>'frequency' WHEN 'weekly' THEN 'week' WHEN 'monthly' THEN 'month' ELSE 'day' END AS unit) u
        WHERE jsonb_typeof(t.config->'schedule') = 'object'
       ON CONFLICT (template_cuid) DO NOTHING`,
    );
    let made = 0;
    for (;;) {
      const did = await this.ds.transaction(async (tx) => {
        const [due] = (await tx.query(
          `SELECT es.template_cuid, es.next_run_at FROM export_schedule es WHERE es.next_run_at <= now()
            ORDER BY es.next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
        )) as { template_cuid: string; next_run_at: Date }[];
        if (!due) return false;
        const template = await this.exports.templateForSystemActor(due.template_cuid, tx).catch(() => undefined);
        const schedule = template?.config.schedule;
        if (!template || !schedule) {
          await tx.query(`DELETE FROM export_schedule WHERE template_cuid = $1`, [due.template_cuid]);
          return true;
        }
        const unit = UNIT[schedule.frequency];
        const [period] = (await tx.query(
          `SELECT (($1::timestamptz AT TIME ZONE $2) - ('1 ' || $3)::interval) AT TIME ZONE $2 AS "from",
                  (date_trunc($3, $1::timestamptz, $2)) AS "to",
                  (date_trunc($3, now(), $2) AT TIME ZONE $2 + ('1 ' || $3)::interval) AT TIME ZONE $2 AS next`,
          [due.next_run_at, template.timezone, unit],
        )) as { from: Date; to: Date; next: Date }[];
        try {
          const plan = await this.exports.plan(template, { from: period.from, to: period.to }, tx);
          await tx.query(
            `INSERT INTO export_job (id, user_cuid, system_cuid, template_cuid, params, file_name, scheduled) VALUES ($1, NULL, $2, $3, $4, $5, true)`,
            [newCuid(), template.system_cuid, template.template_cuid, JSON.stringify({ plan, recipients: schedule.recipients }), this.exports.fileName(template, plan)],
          );
          made++;
        } catch (e) {
          this.logger.warn(`scheduled export of template ${template.template_cuid} skipped: ${(e as Error).message}`);
        }
        await tx.query(`UPDATE export_schedule SET next_run_at = $2 WHERE template_cuid = $1`, [due.template_cuid, period.next]);
        return true;
      });
      if (!did) return made;
    }
  }

  /** Mails the download link of a finished scheduled job to its recipients (verified, active email channels). */
  private async mail(id: string): Promise<void> {
    const [job] = (await this.ds.query(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.id = $1`, [id])) as JobRow[];
    if (!job) return;
    const recipients = job.params.recipients ?? [];
    const emails = (await this.ds.query(
      `SELECT ec.email FROM notification_channel nc JOIN email_notification_channel ec ON ec.channel_cuid = nc.channel_cuid
        JOIN system s ON s.system_cuid = $2
        WHERE nc.channel_cuid = ANY($1::varchar[]) AND nc.status = 'ACTIVE' AND ec.verified_at IS NOT NULL AND nc.company_cuid = s.company_cuid`,
      [recipients, job.system_cuid],
    )) as { email: string }[];
    const link = `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/api/exports/jobs/${encodeURIComponent(id)}/file`;
    const subject = `Data export ready: ${job.system_name ?? ''} – ${job.template_name ?? job.file_name}`;
    const text = `The scheduled export "${job.template_name ?? ''}" of ${job.system_name ?? ''} is ready (${job.file_name}).\n\nDownload (sign in first): ${link}\n\nThe file can be downloaded until ${job.expires_at?.toISOString() ?? ''}.\n`;
    const html = `<p>The scheduled export <b>${escapeHtml(job.template_name ?? '')}</b> of ${escapeHtml(job.system_name ?? '')} is ready (${escapeHtml(job.file_name)}).</p><p><a href="${escapeHtml(link)}">Download the file</a> (sign in first).</p>`;
    for (const { email } of emails) {
      const sent = await this.mailer.send({ to: email, subject, text, html });
      if (!sent.ok) this.logger.warn(`export mail to a recipient failed: ${sent.reason}`);
    }
    await this.ds.query(`UPDATE export_job SET mailed_at = now() WHERE id = $1`, [id]);
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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
    created_at: r.created_at,
    finished_at: r.finished_at,
    expires_at: r.expires_at,
    download_url: live ? `/api/exports/jobs/${encodeURIComponent(r.id)}/file` : null,
  };
}
