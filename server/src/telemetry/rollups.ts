/**
 * The stored resolutions of parameter_log (see the migration 1763800000000-telemetry-rollups for
 * the tables); how their buckets are cut and merged is SQL, in telemetry-writer.repository.ts.
 */
export const ROLLUP_RESOLUTIONS = ['5m', '1h', '1d'] as const;
export type RollupResolution = (typeof ROLLUP_RESOLUTIONS)[number];

/** Nominal width of a bucket (a local day is 23 to 25 h around DST changes). */
export const RESOLUTION_SECONDS: Record<RollupResolution, number> = { '5m': 300, '1h': 3600, '1d': 86_400 };

export const rollupTable = (r: RollupResolution): string => `parameter_rollup_${r}`;
