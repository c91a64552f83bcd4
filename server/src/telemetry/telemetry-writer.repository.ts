import { Inject, Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';
import { withPgTransaction } from '../database/pg-transaction';
import type { SystemJob } from '../common/system-job';
import type { ValidParameterRow, ValidStandardRow, ValidStateRow } from './ingest-validator';
import { type RollupResolution, rollupTable } from './rollups';

/** SQL for the start of the bucket holding `ts`: 5 min and 1 h UTC-aligned, 1 day at local midnight in `tz`. */
export function bucketSql(resolution: RollupResolution, ts: string, tz: string): string {
  switch (resolution) {
    case '5m':
      return `date_bin('5 minutes', ${ts}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;
    case '1h':
      return `date_trunc('hour', ${ts}, 'UTC')`;
    case '1d':
      return `date_trunc('day', ${ts}, ${tz})`;
  }
}

/**
 * A CTE that merges pre-aggregated groups of `source` (entity_cuid, parameter_id, "timestamp" =
 * a 5-minute bucket start, mn, mx, sm, cnt, lst, lts [, tz]) into one rollup table: min/max
 * widen, sum and count add up, `last` moves only to a later timestamp, so late and out-of-order
 * rows merge correctly. The last value of a group is the greatest [epoch, value] pair (no
 * per-group sort). Keys are upserted in key order so that concurrent writers lock them in the same
 * order (no deadlock). Day buckets are built from 5-minute groups: every time zone in use is a
 * whole number of 15 minutes off UTC, so no 5-minute bucket straddles a local midnight.
 */
export function rollupMergeCte(resolution: RollupResolution, source: string): string {
  const t = rollupTable(resolution);
  const bucket = resolution === '5m' ? '"timestamp"' : bucketSql(resolution, '"timestamp"', 'tz');
  return `merge_${resolution} AS (
    INSERT INTO ${t} AS r (entity_cuid, parameter_id, bucket, min, max, sum, count, last, last_ts)
    SELECT entity_cuid, parameter_id, ${bucket},
           min(mn), max(mx), sum(sm), sum(cnt), (max(ARRAY[date_part('epoch', lts), lst]))[2], max(lts)
      FROM ${source}
     GROUP BY 1, 2, 3
     ORDER BY 1, 2, 3
    ON CONFLICT (entity_cuid, parameter_id, bucket) DO UPDATE SET
      min = LEAST(r.min, EXCLUDED.min),
      max = GREATEST(r.max, EXCLUDED.max),
      sum = r.sum + EXCLUDED.sum,
      count = r.count + EXCLUDED.count,
      last = CASE WHEN EXCLUDED.last_ts >= r.last_ts THEN EXCLUDED.last ELSE r.last END,
      last_ts = GREATEST(r.last_ts, EXCLUDED.last_ts)
    RETURNING 1)`;
}

/**
 * One statement per batch: unnest the arrays, insert ON CONFLICT DO NOTHING (idempotent on the
 * primary key), group exactly the inserted rows by 5-minute bucket once, and merge those groups
 * into the 5 min / 1 h / 1 day rollups (day buckets in the zone of each entity's system, from the
 * small entity → zone list), all in the caller's transaction. Answers the inserted rows per
 * entity. Works on PostgreSQL and PGlite (no COPY).
 */
const PARAMETER_SQL = `
WITH ins AS (
  INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", min, max, value)
  SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::timestamptz[], $4::float8[], $5::float8[], $6::float8[])
  ON CONFLICT DO NOTHING
  RETURNING entity_cuid, parameter_id, "timestamp", min, max, value
),
five AS (
  SELECT entity_cuid, parameter_id, ${bucketSql('5m', '"timestamp"', '')} AS "timestamp",
         min(COALESCE(min, value)) AS mn, max(COALESCE(max, value)) AS mx, sum(value) AS sm, count(*) AS cnt,
         (max(ARRAY[date_part('epoch', "timestamp"), value]))[2] AS lst, max("timestamp") AS lts
    FROM ins
   GROUP BY 1, 2, 3
),
five_tz AS (
  SELECT f.*, z.tz FROM five f JOIN unnest($7::varchar[], $8::text[]) AS z(entity_cuid, tz) USING (entity_cuid)
),
${rollupMergeCte('5m', 'five')},
${rollupMergeCte('1h', 'five')},
${rollupMergeCte('1d', 'five_tz')}
SELECT entity_cuid, sum(cnt)::int AS n FROM five GROUP BY 1`;

const STANDARD_SQL = `
WITH src AS (
  SELECT * FROM unnest($1::varchar[], $2::timestamptz[], $3::numeric[], $4::int[]) AS u(system_cuid, "timestamp", total_pv_kwh, seg)
),
ins AS (
  INSERT INTO system_standard_value_log (system_cuid, "timestamp", total_pv_kwh)
  SELECT system_cuid, "timestamp", total_pv_kwh FROM src
  ON CONFLICT DO NOTHING
  RETURNING system_cuid, "timestamp"
)
SELECT s.seg, count(*)::int AS n FROM ins i JOIN src s USING (system_cuid, "timestamp") GROUP BY s.seg`;

const STATE_SQL = `
WITH src AS (
  SELECT * FROM unnest($1::varchar[], $2::timestamptz[], $3::text[], $4::int[]) AS u(entity_cuid, "timestamp", bundle, seg)
),
ins AS (
  INSERT INTO device_state (entity_cuid, "timestamp", state_bundle)
  SELECT entity_cuid, "timestamp", bundle::jsonb FROM src
  ON CONFLICT DO NOTHING
  RETURNING entity_cuid, "timestamp"
)
SELECT s.seg, count(*)::int AS n FROM ins i JOIN src s USING (entity_cuid, "timestamp") GROUP BY s.seg`;

/**
 * The SQL of the durable telemetry writer. Called for the ingest job (rows already checked against
 * the sending controller's token and its devices by the validator), never for a person's request:
 * the job comes first. Each insert runs in the caller's transaction (`tx`), ignores rows already
 * stored and answers what was really inserted.
 */
@Injectable()
export class TelemetryWriterRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** One transaction on a pooled connection (no TypeORM query runner: less overhead per batch). */
  transaction<T>(_job: SystemJob, work: (tx: PoolClient) => Promise<T>): Promise<T> {
    return withPgTransaction(this.ds, work);
  }

  /** Inserts parameter rows (in the order given) and merges them into the rollups; rows inserted per entity. */
  async insertParameters(_job: SystemJob, tx: PoolClient, rows: readonly ValidParameterRow[]): Promise<{ entity_cuid: string; n: number }[]> {
    const n = rows.length;
    const e = new Array<string>(n);
    const p = new Array<string>(n);
    const t = new Array<string>(n);
    const mn = new Array<number | null>(n);
    const mx = new Array<number | null>(n);
    const v = new Array<number>(n);
    const zones = new Map<string, string>();
    for (let i = 0; i < n; i++) {
      const row = rows[i];
      e[i] = row.entity_cuid;
      p[i] = row.parameter_id;
      t[i] = row.ts.toISOString();
      mn[i] = row.min;
      mx[i] = row.max;
      v[i] = row.value;
      zones.set(row.entity_cuid, row.tz);
    }
    const result = await tx.query<{ entity_cuid: string; n: number }>(PARAMETER_SQL, [e, p, t, mn, mx, v, [...zones.keys()], [...zones.values()]]);
    return result.rows;
  }

  /** Inserts counter readings (unique by system and time, in the order given); rows inserted per segment. */
  async insertStandard(_job: SystemJob, tx: PoolClient, rows: readonly { seg: number; row: ValidStandardRow }[]): Promise<{ seg: number; n: number }[]> {
    const result = await tx.query<{ seg: number; n: number }>(STANDARD_SQL, [
      rows.map((r) => r.row.system_cuid),
      rows.map((r) => r.row.ts.toISOString()),
      rows.map((r) => r.row.total_pv_kwh.toFixed(3)),
      rows.map((r) => r.seg),
    ]);
    return result.rows;
  }

  /** Inserts device states (unique by device and time, in the order given); rows inserted per segment. */
  async insertStates(_job: SystemJob, tx: PoolClient, rows: readonly { seg: number; row: ValidStateRow }[]): Promise<{ seg: number; n: number }[]> {
    const result = await tx.query<{ seg: number; n: number }>(STATE_SQL, [
      rows.map((r) => r.row.entity_cuid),
      rows.map((r) => r.row.ts.toISOString()),
      rows.map((r) => r.row.bundle),
      rows.map((r) => r.seg),
    ]);
    return result.rows;
  }
}
