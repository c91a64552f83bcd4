import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';
import type { SystemJob } from '../common/system-job';
import { type RollupResolution, rollupTable } from './rollups';

/** A monthly partition of parameter_log: `parameter_log_pYYYYMM` (the migrations' names). */
const MONTH_PARTITION = /^parameter_log_p[0-9]{6}$/;

/**
 * The SQL of the telemetry retention sweep (a background job, first parameter): the raw table's
 * monthly partitions, and deletes by time. Telemetry of every company ages alike, so nothing here
 * is scoped by company; the service decides the cutoffs.
 */
@Injectable()
export class TelemetryRetentionRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** The names of parameter_log's monthly partitions. */
  async rawPartitions(_job: SystemJob): Promise<string[]> {
    const rows = await this.ds.query<{ relname: string }[]>(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'parameter_log'::regclass AND c.relname ~ '^parameter_log_p[0-9]{6}$'`,
    );
    return rows.map((r) => r.relname);
  }

  /** Empties one monthly partition (TRUNCATE, no row-by-row delete); answers how many rows it held. */
  async emptyPartition(_job: SystemJob, relname: string): Promise<number> {
    // The name goes into the text: only a name of the partitions' own shape is accepted.
    if (!MONTH_PARTITION.test(relname)) throw new Error(`not a monthly partition of parameter_log: ${relname}`);
    const [{ n }] = await this.ds.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${relname}"`);
    if (n > 0) await this.ds.query(`TRUNCATE "${relname}"`);
    return n;
  }

  /** The oldest raw row older than `cutoff`, if any. */
  async oldestRawBefore(_job: SystemJob, cutoff: Date): Promise<Date | null> {
    const [{ oldest }] = await this.ds.query<{ oldest: Date | null }[]>(`SELECT min("timestamp") AS oldest FROM parameter_log WHERE "timestamp" < $1`, [
      cutoff,
    ]);
    return oldest;
  }

  /** Deletes the raw rows older than `before`; answers how many. */
  async deleteRawBefore(_job: SystemJob, before: Date): Promise<number> {
    const [, count] = await this.ds.query<[unknown, number]>(`DELETE FROM parameter_log WHERE "timestamp" < $1`, [before]);
    return count ?? 0;
  }

  /** Deletes at most `limit` buckets of a rollup older than `cutoff`; answers how many. */
  async deleteRollupChunk(_job: SystemJob, resolution: RollupResolution, cutoff: Date, limit: number): Promise<number> {
    const table = rollupTable(resolution);
    const [, count] = await this.ds.query<[unknown, number]>(
      `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE bucket < $1 LIMIT ${Math.trunc(limit)}))`,
      [cutoff],
    );
    return count ?? 0;
  }
}
