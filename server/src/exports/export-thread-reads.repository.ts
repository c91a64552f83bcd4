import { Client } from 'pg';
import type { SqlParams } from '../database/sql-params';
import { rollupTable } from '../telemetry/rollups';
import type { TExportAggregate, TExportResolution } from '../../../shared/exports/export-config.schema';
import type { ExportPlan } from './export-stream';

const VALUE_OF: Record<TExportAggregate, string> = { avg: '(sum / NULLIF(count, 0))', min: 'min', max: 'max', last: 'last' };

/**
 * The pivot of one time window [from, to): one row per timestamp (raw) or bucket (rollups), one
 * column per template column, the timestamp as local time of `timezone`. Used by the export and,
 * as it is, by the bench's COPY baseline.
 */
export function pivotSql(plan: Pick<ExportPlan, 'columns' | 'resolution' | 'timezone'>, from: Date, to: Date, p: SqlParams): string {
  const entities = [...new Set(plan.columns.map((c) => c.entity_cuid))];
  const parameters = [...new Set(plan.columns.map((c) => c.parameter_id))];
  const raw = plan.resolution === 'raw';
  const ts = raw ? '"timestamp"' : 'bucket';
  const table = raw ? 'parameter_log' : rollupTable(plan.resolution as Exclude<TExportResolution, 'raw'>);
  const pair = new Map<string, [string, string]>();
  const cols = plan.columns.map((c, i) => {
    const key = `${c.entity_cuid}\u0000${c.parameter_id}`;
    let ph = pair.get(key);
    if (!ph) pair.set(key, (ph = [p.add(c.entity_cuid), p.add(c.parameter_id)]));
    const value = raw ? 'value' : VALUE_OF[c.aggregate];
    return `max(${value}) FILTER (WHERE entity_cuid = ${ph[0]} AND parameter_id = ${ph[1]}) AS c${i}`;
  });
  return `SELECT to_char(${ts} AT TIME ZONE ${p.add(plan.timezone)}, 'YYYY-MM-DD HH24:MI:SS') AS t${cols.map((c) => `, ${c}`).join('')}
    FROM ${table}
   WHERE entity_cuid = ANY(${p.add(entities)}::varchar[]) AND parameter_id = ANY(${p.add(parameters)}::varchar[])
     AND ${ts} >= ${p.add(from)} AND ${ts} < ${p.add(to)}
   GROUP BY ${ts}
   ORDER BY ${ts}`;
}

/** Marks a job this worker holds DONE ($1 id, $2 worker, $3 rows, $4 bytes, $5 retention hours); no row when it is no longer ours. */
export const JOB_DONE_SQL = `UPDATE export_job SET status = 'DONE', rows_done = $3, rows_total = $3, bytes = $4, finished_at = now(), lease_until = NULL,
        expires_at = now() + make_interval(hours => $5)
  WHERE id = $1 AND worker = $2 AND status = 'RUNNING'`;

/**
 * About how many rows a plan's file will have: per column the samples (raw, from the hourly
 * rollup's counts) or buckets in the range, the largest of them. Cheap: it reads the hourly rollup
 * only. Set as the job's rows_total in one statement (the export thread runs it on its own
 * connection on PostgreSQL, the worker on the embedded database).
 */
export function setTotalQuery(
  id: string,
  worker: string,
  plan: Pick<ExportPlan, 'resolution' | 'columns' | 'from' | 'to'>,
): { sql: string; values: unknown[] } {
  const table = plan.resolution === 'raw' ? 'parameter_rollup_1h' : `parameter_rollup_${plan.resolution}`;
  const measure = plan.resolution === 'raw' ? 'sum(count)' : 'count(*)';
  const pairs = [...new Map(plan.columns.map((c) => [`${c.entity_cuid}\u0000${c.parameter_id}`, c])).values()];
  return {
    sql: `UPDATE export_job SET rows_total = (
            SELECT COALESCE(max(n), 0)::bigint FROM (
              SELECT ${measure} AS n FROM ${table} r
                JOIN unnest($2::varchar[], $3::varchar[]) AS k(e, p) ON r.entity_cuid = k.e AND r.parameter_id = k.p
               WHERE r.bucket >= date_trunc('hour', $4::timestamptz) AND r.bucket < $5
               GROUP BY r.entity_cuid, r.parameter_id) x)
          WHERE id = $1 AND worker = $6 AND status = 'RUNNING'`,
    values: [id, pairs.map((c) => c.entity_cuid), pairs.map((c) => c.parameter_id), plan.from, plan.to, worker],
  };
}

/** A chunk read failed; `timeout` when PostgreSQL cancelled it for the statement timeout. */
export class ReadFailed extends Error {
  constructor(
    message: string,
    readonly timeout: boolean,
  ) {
    super(message);
  }
}

/** What the thread records of a job on its own connection (PostgreSQL): its id, the worker holding it, how long its file is kept. */
export interface ThreadRecord {
  id: string;
  worker: string;
  retentionHours: number;
}

/**
 * The export thread's own PostgreSQL connection (export-thread.ts): one per thread, opened on
 * first use, every statement under EXPORT_STATEMENT_TIMEOUT_MS; a broken connection is dropped
 * and opened again for the next read. On it the thread also sets its job's estimated total and
 * marks the job DONE, so neither waits for a turn of the server's (possibly busy) event loop.
 */
export class ThreadChunkReads {
  private client?: Client;

  constructor(
    private readonly url: string,
    private readonly statementTimeoutMs: number,
  ) {}

  /** Runs one chunk's SQL (pivotSql above) and returns its rows. */
  async read(sql: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    const client = await this.connection();
    try {
      return (await client.query(sql, values)).rows as Record<string, unknown>[];
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== '57014') await this.drop(client);
      throw new ReadFailed((e as Error).message, code === '57014');
    }
  }

  /** Sets the job's rows_total to its plan's estimate. */
  async setTotal(job: ThreadRecord, plan: ExportPlan): Promise<void> {
    const q = setTotalQuery(job.id, job.worker, plan);
    await this.read(q.sql, q.values);
  }

  /**
   * Marks the job DONE and, in the same transaction, puts its file in place (`place`, before the
   * commit): false, with neither done, when the job is no longer this worker's (cancelled, or its
   * lease ran out and another worker took it: that worker's file is never touched).
   */
  async finish(job: ThreadRecord, rows: number, bytes: number, place: () => void, unplace: () => void): Promise<boolean> {
    const client = await this.connection();
    let placed = false;
    try {
      await client.query('BEGIN');
      const ours = ((await client.query(JOB_DONE_SQL, [job.id, job.worker, rows, bytes, job.retentionHours])).rowCount ?? 0) > 0;
      if (ours) {
        place();
        placed = true;
      }
      await client.query(ours ? 'COMMIT' : 'ROLLBACK');
      return ours;
    } catch (e) {
      // Not recorded: the file goes back to its part name (removed with the failed job's part).
      if (placed) unplace();
      await client.query('ROLLBACK').catch(() => undefined);
      await this.drop(client);
      throw e;
    }
  }

  private async connection(): Promise<Client> {
    if (this.client) return this.client;
    const client = new Client({ connectionString: this.url, application_name: 'portal-export' });
    client.on('error', () => void this.drop(client));
    await client.connect();
    await client.query(`SELECT set_config('statement_timeout', $1, false)`, [`${Math.floor(this.statementTimeoutMs)}ms`]);
    this.client = client;
    return client;
  }

  private async drop(client: Client): Promise<void> {
    if (this.client === client) this.client = undefined;
    await client.end().catch(() => undefined);
  }
}
