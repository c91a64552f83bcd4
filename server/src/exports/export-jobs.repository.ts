import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../../shared/access/policy';
import { ROOT_COMPANIES_SQL, rootOfSql } from '../budgets/budget.repository';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { visibleSystemIdSql } from '../tenancy/visibility';
import type { ExportCandidate, QueueCounts, RunningState } from './export-fairness';
import type { ExportPlan } from './export-stream';
import { JOB_DONE_SQL, setTotalQuery } from './export-thread-reads.repository';
import { updatedRows } from '../database/returned-rows';
import type { TExportJob } from './exports.schema';

export interface JobRow {
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
  /** Why a scheduled job's mail did not reach every recipient, else null. */
  mail_error: string | null;
  charged_company_cuid: string;
  scheduled: boolean;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
  started_at: Date | null;
  /** A QUEUED job's place in its budget account's line (1 = next), else null. */
  queue_position: number | null;
}

/** A job waits for a worker: QUEUED, or RUNNING on a worker whose lease ran out. */
const WAITING = `(j.status = 'QUEUED' OR (j.status = 'RUNNING' AND j.lease_until < now()))`;

const JOB_COLUMNS = `j.id, j.user_cuid, j.system_cuid, s.name AS system_name, j.template_cuid, t.name AS template_name, j.params, j.status,
  j.rows_done, j.rows_total, j.bytes, j.file_name, j.error, j.mail_error, j.charged_company_cuid, j.scheduled, j.created_at, j.finished_at, j.expires_at, j.started_at,
  CASE WHEN j.status = 'QUEUED' THEN (
    SELECT count(*) FROM export_job q
     WHERE q.status = 'QUEUED' AND ${rootOfSql('q.charged_company_cuid')} = ${rootOfSql('j.charged_company_cuid')} AND (q.created_at, q.id) < (j.created_at, j.id))::int + 1 END AS queue_position`;
const JOB_FROM = `export_job j JOIN system s ON s.system_cuid = j.system_cuid LEFT JOIN system_data_export_template t ON t.template_cuid = j.template_cuid`;

/**
 * The SQL of export jobs (docs/exports.md): the caller's jobs (scope first), the budget counts,
 * the worker's candidates and claims (FOR UPDATE SKIP LOCKED, so several instances share the
 * queue), progress, and the chunked reads of the export itself under a statement timeout.
 */
@Injectable()
export class ExportJobsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /**
   * Who may see a job: its owner while the system stays visible; a scheduled job, anybody who may
   * run exports of its system (exports.run is level 3 on a visible system).
   */
  private scopeSql(actor: Actor, p: SqlParams): string {
    return `((j.user_cuid = ${p.add(actor.user_cuid)} OR (j.scheduled AND j.user_cuid IS NULL)) AND ${visibleSystemIdSql(actor, p, 'j.system_cuid')})`;
  }

  async visible(actor: Actor, id: string): Promise<JobRow | undefined> {
    const p = new SqlParams([id]);
    const [row] = await this.ds.query<JobRow[]>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.id = $1 AND ${this.scopeSql(actor, p)}`, p.values);
    return row;
  }

  /** The caller's own jobs, newest first (the 100 latest). */
  async listOwn(actor: Actor): Promise<JobRow[]> {
    const p = new SqlParams([actor.user_cuid]);
    return await this.ds.query<JobRow[]>(
      `SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.user_cuid = $1 AND ${visibleSystemIdSql(actor, p, 'j.system_cuid')} ORDER BY j.created_at DESC, j.id DESC LIMIT 100`,
      p.values,
    );
  }

  async cancelOwn(actor: Actor, id: string): Promise<void> {
    await this.ds.query(
      `UPDATE export_job SET status = 'FAILED', error = 'Cancelled', finished_at = now(), lease_until = NULL
        WHERE id = $1 AND user_cuid = $2 AND status IN ('QUEUED', 'RUNNING')`,
      [id, actor.user_cuid],
    );
  }

  /**
   * Queues a job charged to `company_cuid` (chargedCompany) unless `refuse` (given what the caller and that company's budget
   * account — every company of its root, company_budget_root — have waiting) says why not. Count and insert run under a
   * per-account transaction lock, so parallel starts cannot all pass the same count.
   */
  async enqueue<R>(
    actor: Actor,
    company_cuid: string,
    job: { id: string; system_cuid: string; template_cuid: string; plan: ExportPlan; file_name: string },
    refuse: (counts: QueueCounts) => R | undefined,
  ): Promise<R | undefined> {
    return this.ds.transaction(async (tx) => {
      const [{ root }] = await tx.query<{ root: string }[]>(`SELECT ${rootOfSql('$1::varchar')} AS root`, [company_cuid]);
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('export_job:' || $1))`, [root]);
      const [row] = await tx.query<{ user_queued: number; company_queued: number }[]>(
        `SELECT count(*) FILTER (WHERE j.user_cuid = $2)::int AS user_queued, count(*) FILTER (WHERE j.charged_company_cuid IN ${ROOT_COMPANIES_SQL})::int AS company_queued
           FROM export_job j
          WHERE j.status = 'QUEUED' AND (j.user_cuid = $2 OR j.charged_company_cuid IN ${ROOT_COMPANIES_SQL})`,
        [root, actor.user_cuid],
      );
      const refused = refuse({ userQueued: Number(row?.user_queued ?? 0), companyQueued: Number(row?.company_queued ?? 0) });
      if (refused !== undefined) return refused;
      await tx.query(
        `INSERT INTO export_job (id, user_cuid, system_cuid, template_cuid, params, file_name, charged_company_cuid) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [job.id, actor.user_cuid, job.system_cuid, job.template_cuid, JSON.stringify({ plan: job.plan }), job.file_name, company_cuid],
      );
      return undefined;
    });
  }

  // ---- the worker -----------------------------------------------------------------------------

  /**
   * The oldest waiting job of each user (and each budget account's scheduled jobs), at most `limit`.
   * `company_cuid` is the budget account (root company) of the job's charged company: the worker's
   * running budget and round robin go by account, so companies one admin created share one turn.
   */
  async candidates(limit: number): Promise<ExportCandidate[]> {
    const rows = await this.ds.query<{ id: string; company_cuid: string; user_cuid: string | null; created_at: Date }[]>(
      `SELECT id, company_cuid, user_cuid, created_at FROM (
         SELECT DISTINCT ON (w.company_cuid, w.user_cuid) w.id, w.company_cuid, w.user_cuid, w.created_at
           FROM (SELECT j.id, ${rootOfSql('j.charged_company_cuid')} AS company_cuid, j.user_cuid, j.created_at FROM export_job j WHERE ${WAITING}) w
          ORDER BY w.company_cuid, w.user_cuid, w.created_at, w.id) x
        ORDER BY created_at, id LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).getTime() }));
  }

  /**
   * Running jobs (lease alive) by user and budget account (root company), and when each account of
   * `companies` (roots, as candidates answers them) and each of their users last had a job started.
   */
  async runningState(companies: string[]): Promise<RunningState> {
    const running = await this.ds.query<{ user_cuid: string | null; company_cuid: string; n: number }[]>(
      `SELECT r.user_cuid, r.company_cuid, count(*)::int AS n
         FROM (SELECT j.user_cuid, ${rootOfSql('j.charged_company_cuid')} AS company_cuid FROM export_job j WHERE j.status = 'RUNNING' AND j.lease_until >= now()) r
        GROUP BY r.user_cuid, r.company_cuid`,
    );
    const last = await this.ds.query<{ company_cuid: string; user_cuid: string | null; at: Date }[]>(
      `SELECT l.company_cuid, l.user_cuid, max(l.started_at) AS at
         FROM (SELECT ${rootOfSql('j.charged_company_cuid')} AS company_cuid, j.user_cuid, j.started_at FROM export_job j
                WHERE j.started_at IS NOT NULL
                  AND j.charged_company_cuid IN (SELECT c FROM unnest($1::varchar[]) AS c UNION ALL SELECT br.company_cuid FROM company_budget_root br WHERE br.root_company_cuid = ANY($1::varchar[]))) l
        GROUP BY l.company_cuid, l.user_cuid`,
      [companies],
    );
    const runningByUser = new Map<string, number>();
    const runningByCompany = new Map<string, number>();
    for (const r of running) {
      if (r.user_cuid) runningByUser.set(r.user_cuid, (runningByUser.get(r.user_cuid) ?? 0) + Number(r.n));
      runningByCompany.set(r.company_cuid, (runningByCompany.get(r.company_cuid) ?? 0) + Number(r.n));
    }
    const lastStartedByCompany = new Map<string, number>();
    const lastStartedByUser = new Map<string, number>();
    for (const r of last) {
      const at = new Date(r.at).getTime();
      lastStartedByCompany.set(r.company_cuid, Math.max(at, lastStartedByCompany.get(r.company_cuid) ?? -Infinity));
      if (r.user_cuid) lastStartedByUser.set(r.user_cuid, Math.max(at, lastStartedByUser.get(r.user_cuid) ?? -Infinity));
    }
    return { runningByUser, runningByCompany, lastStartedByCompany, lastStartedByUser };
  }

  /** Takes one waiting job for `worker` (SKIP LOCKED: another instance's claim wins quietly). Undefined when it is gone. */
  async claim(id: string, worker: string, leaseSeconds: number): Promise<JobRow | undefined> {
    const rows = updatedRows<{ id: string }>(
      await this.ds.query(
        `UPDATE export_job j SET status = 'RUNNING', worker = $2, lease_until = now() + make_interval(secs => $3), attempts = j.attempts + 1,
                rows_done = 0, error = NULL, started_at = clock_timestamp()
          WHERE j.id = (SELECT id FROM export_job j WHERE j.id = $1 AND ${WAITING} FOR UPDATE SKIP LOCKED)
          RETURNING j.id`,
        [id, worker, leaseSeconds],
      ),
    );
    return rows[0] ? this.row(rows[0].id) : undefined;
  }

  /** One job without a caller (the worker's own reads). */
  async row(id: string): Promise<JobRow | undefined> {
    const [row] = await this.ds.query<JobRow[]>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.id = $1`, [id]);
    return row;
  }

  /** Sets a job's rows_total to the estimate of its plan (estimateRowsSql). */
  async setTotal(id: string, worker: string, plan: ExportPlan): Promise<void> {
    const q = setTotalQuery(id, worker, plan);
    await this.ds.query(q.sql, q.values);
  }

  /** Progress of a job this worker holds (renews its lease); false when the job is no longer ours (cancelled, taken again). */
  async progress(id: string, worker: string, done: number, leaseSeconds: number): Promise<boolean> {
    const [, n] = await this.ds.query<[unknown, number]>(
      `UPDATE export_job SET rows_done = $3, rows_total = GREATEST(rows_total, $3), lease_until = now() + make_interval(secs => $4)
        WHERE id = $1 AND worker = $2 AND status = 'RUNNING'`,
      [id, worker, done, leaseSeconds],
    );
    return n > 0;
  }

  /**
   * Marks a job this worker holds DONE and, in the same transaction, puts its file in place
   * (`place`): false, with neither done, when the job is no longer ours (cancelled, or taken by
   * another worker, whose file is never touched).
   */
  async done(
    id: string,
    worker: string,
    rows: number,
    bytes: number,
    retentionHours: number,
    place: () => Promise<void>,
    unplace: () => Promise<void>,
  ): Promise<boolean> {
    let placed = false;
    try {
      return await this.ds.transaction(async (m) => {
        const [, n] = await m.query<[unknown, number]>(JOB_DONE_SQL, [id, worker, rows, bytes, retentionHours]);
        if (n > 0) {
          await place();
          placed = true;
        }
        return n > 0;
      });
    } catch (e) {
      // Not recorded (the commit failed): the file goes back to where it was.
      if (placed) await unplace();
      throw e;
    }
  }

  async failed(id: string, worker: string, error: string): Promise<void> {
    await this.ds.query(
      `UPDATE export_job SET status = 'FAILED', error = $3, finished_at = now(), lease_until = NULL WHERE id = $1 AND worker = $2 AND status = 'RUNNING'`,
      [id, worker, error],
    );
  }

  async expiredFiles(limit: number): Promise<{ id: string; format: string }[]> {
    return await this.ds.query<{ id: string; format: string }[]>(
      `SELECT id, params->'plan'->>'format' AS format FROM export_job WHERE status = 'DONE' AND expires_at <= now() AND bytes IS NOT NULL LIMIT $1`,
      [limit],
    );
  }

  async forgetFile(id: string): Promise<void> {
    await this.ds.query(`UPDATE export_job SET bytes = NULL WHERE id = $1`, [id]);
  }

  /** Jobs waiting and running in the whole database (the metrics' gauges). */
  async stateCounts(): Promise<{ queued: number; running: number }> {
    const [row] = await this.ds.query<{ queued: number; running: number }[]>(
      `SELECT count(*) FILTER (WHERE status = 'QUEUED')::int AS queued, count(*) FILTER (WHERE status = 'RUNNING')::int AS running
         FROM export_job WHERE status IN ('QUEUED', 'RUNNING')`,
    );
    return { queued: Number(row?.queued ?? 0), running: Number(row?.running ?? 0) };
  }

  /**
   * One chunk of an export's rows: its own short transaction with a statement timeout, so a read
   * never runs unbounded and the connection (the embedded database has one) is free between chunks.
   */
  async readChunk(sql: string, values: unknown[], timeoutMs: number): Promise<Record<string, unknown>[]> {
    return this.ds.transaction(async (tx) => {
      await tx.query(`SELECT set_config('statement_timeout', $1, true)`, [`${Math.floor(timeoutMs)}ms`]);
      return await tx.query<Record<string, unknown>[]>(sql, values);
    });
  }
}
