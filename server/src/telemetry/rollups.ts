/**
 * The stored resolutions of parameter_log and how their buckets are cut (see the migration
 * 1763800000000-telemetry-rollups for the tables).
 */
export const ROLLUP_RESOLUTIONS = ['5m', '1h', '1d'] as const;
export type RollupResolution = (typeof ROLLUP_RESOLUTIONS)[number];

/** Nominal width of a bucket (a local day is 23 to 25 h around DST changes). */
export const RESOLUTION_SECONDS: Record<RollupResolution, number> = { '5m': 300, '1h': 3600, '1d': 86_400 };

export const rollupTable = (r: RollupResolution): string => `parameter_rollup_${r}`;

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
