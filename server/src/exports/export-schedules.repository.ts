import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { ROOT_COMPANIES_SQL, rootOfSql } from '../budgets/budget.repository';
import { DATA_SOURCE } from '../database/database.module';

/**
 * The SQL of scheduled exports (export-jobs.worker.ts): export_schedule kept in step with the
 * templates, due schedules claimed one at a time (FOR UPDATE SKIP LOCKED, so only one instance
 * makes a job), the queue budget of the company a schedule is charged to (under the same
 * per-company lock as exportJob.start), and the addresses a finished job is mailed to.
 */
@Injectable()
export class ExportSchedulesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** Drops the schedules of templates without one; adds templates newly scheduled (next run: the end of the current period in the system's zone). */
  async sync(): Promise<void> {
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
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /** The earliest due schedule not among `skip` (deferred this round), locked for this transaction. */
  async nextDue(tx: EntityManager, skip: readonly string[]): Promise<{ template_cuid: string; next_run_at: Date } | undefined> {
    const [due] = await tx.query<{ template_cuid: string; next_run_at: Date }[]>(
      `SELECT es.template_cuid, es.next_run_at FROM export_schedule es
        WHERE es.next_run_at <= now() AND NOT (es.template_cuid = ANY($1::varchar[]))
        ORDER BY es.next_run_at, es.template_cuid LIMIT 1 FOR UPDATE OF es SKIP LOCKED`,
      [[...skip]],
    );
    return due;
  }

  /** The period a run due at `due` covers (the one before it, in `timezone`) and the next run after now. */
  async period(tx: EntityManager, due: Date, timezone: string, unit: string): Promise<{ from: Date; to: Date; next: Date }> {
    const [period] = await tx.query<{ from: Date; to: Date; next: Date }[]>(
      `SELECT (($1::timestamptz AT TIME ZONE $2) - ('1 ' || $3)::interval) AT TIME ZONE $2 AS "from",
              (date_trunc($3, $1::timestamptz, $2)) AS "to",
              (date_trunc($3, now(), $2) AT TIME ZONE $2 + ('1 ' || $3)::interval) AT TIME ZONE $2 AS next`,
      [due, timezone, unit],
    );
    return period;
  }

  async remove(tx: EntityManager, template_cuid: string): Promise<void> {
    await tx.query(`DELETE FROM export_schedule WHERE template_cuid = $1`, [template_cuid]);
  }

  async advance(tx: EntityManager, template_cuid: string, next: Date): Promise<void> {
    await tx.query(`UPDATE export_schedule SET next_run_at = $2 WHERE template_cuid = $1`, [template_cuid, next]);
  }

  /**
   * Under the per-account lock exportJob.start takes (held to the end of `tx`): the jobs the budget
   * account of `company_cuid` (its root and every company counting with it, company_budget_root)
   * has waiting, and whether the template already has a job waiting or running.
   */
  async room(tx: EntityManager, company_cuid: string, template_cuid: string): Promise<{ companyQueued: number; templateBusy: boolean }> {
    const [{ root }] = await tx.query<{ root: string }[]>(`SELECT ${rootOfSql('$1::varchar')} AS root`, [company_cuid]);
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('export_job:' || $1))`, [root]);
    const [row] = await tx.query<{ company_queued: number; template_busy: boolean }[]>(
      `SELECT (SELECT count(*) FROM export_job WHERE status = 'QUEUED' AND charged_company_cuid IN ${ROOT_COMPANIES_SQL})::int AS company_queued,
              EXISTS (SELECT 1 FROM export_job WHERE template_cuid = $2 AND scheduled AND status IN ('QUEUED', 'RUNNING')) AS template_busy`,
      [root, template_cuid],
    );
    return { companyQueued: Number(row?.company_queued ?? 0), templateBusy: Boolean(row?.template_busy) };
  }

  /** Does `company_cuid` still see the system (its owner, or a company it is shared with)? A partner whose share was removed no longer does. */
  async sees(tx: EntityManager, company_cuid: string, system_cuid: string): Promise<boolean> {
    const [row] = await tx.query<{ sees: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM system WHERE system_cuid = $2 AND company_cuid = $1)
           OR EXISTS (SELECT 1 FROM system_sharing WHERE system_cuid = $2 AND company_cuid = $1) AS sees`,
      [company_cuid, system_cuid],
    );
    return Boolean(row?.sees);
  }

  async insertJob(
    tx: EntityManager,
    job: { id: string; system_cuid: string; template_cuid: string; params: unknown; file_name: string; charged_company_cuid: string },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO export_job (id, user_cuid, system_cuid, template_cuid, params, file_name, scheduled, charged_company_cuid) VALUES ($1, NULL, $2, $3, $4, $5, true, $6)`,
      [job.id, job.system_cuid, job.template_cuid, JSON.stringify(job.params), job.file_name, job.charged_company_cuid],
    );
  }

  /** The addresses of those of `recipients` that are verified, active email channels of `company_cuid` (the job's charged company). */
  async addresses(recipients: readonly string[], company_cuid: string): Promise<string[]> {
    const rows = await this.ds.query<{ email: string }[]>(
      `SELECT ec.email FROM notification_channel nc JOIN email_notification_channel ec ON ec.channel_cuid = nc.channel_cuid
        WHERE nc.channel_cuid = ANY($1::varchar[]) AND nc.status = 'ACTIVE' AND ec.verified_at IS NOT NULL AND nc.company_cuid = $2`,
      [[...recipients], company_cuid],
    );
    return rows.map((r) => r.email);
  }

  /** The job's mail is done: `error` says what was not sent (null: every recipient was mailed). */
  async mailed(id: string, error: string | null): Promise<void> {
    await this.ds.query(`UPDATE export_job SET mailed_at = now(), mail_error = $2 WHERE id = $1`, [id, error]);
  }
}
