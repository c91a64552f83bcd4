import { RESOLUTION_SECONDS, type RollupResolution } from './rollups';
import type { TResolution } from './telemetry.schema';

/**
 * How a series request is answered: which stored resolution is read, and how its buckets are
 * grouped into about `points` output buckets.
 *
 * The coarsest resolution that still has at least `points` buckets in the range is read (raw rows
 * when even 5 minutes is too coarse). Output buckets are whole multiples of that resolution (so
 * min, max, avg, count and last stay exact), which gives between points/2 and points buckets:
 *
 * - widths under a day: fixed multiples of 5 min / 1 h, aligned on local midnight of the zone;
 * - widths of a day or more: whole local days of the zone (DST-correct), read from the 1 day
 *   rollup when the zone is the one it was built in, else from the 1 h rollup;
 * - raw: width = range / points exactly, aligned on `from`.
 */
export interface SeriesPlan {
  resolution: TResolution;
  /** Output bucket width in ms (nominal for days). */
  widthMs: number;
  /** 'fixed': date_bin(width, t, origin); 'days': groups of `days` local days. */
  grouping: 'fixed' | 'days';
  days: number;
}

const DAY_MS = 86_400_000;

/** `rollupZone` is the zone the 1 day rollup of this entity is cut in (its system's). */
export function planSeries(rangeMs: number, points: number, zone: string, rollupZone: string): SeriesPlan {
  const want = rangeMs / points;
  const order: RollupResolution[] = zone === rollupZone ? ['1d', '1h', '5m'] : ['1h', '5m'];
  for (const resolution of order) {
    const resMs = RESOLUTION_SECONDS[resolution] * 1000;
    if (resMs > want) continue;
    const multiple = Math.max(1, Math.ceil(want / resMs));
    const widthMs = multiple * resMs;
    if (widthMs >= DAY_MS) {
      // Day-sized buckets are local days; from hourly data when the day rollup is cut elsewhere.
      const days = Math.max(1, Math.ceil(want / DAY_MS));
      return { resolution: resolution === '5m' ? '1h' : resolution, widthMs: days * DAY_MS, grouping: 'days', days };
    }
    return { resolution, widthMs, grouping: 'fixed', days: 0 };
  }
  return { resolution: 'raw', widthMs: Math.max(1, Math.floor(want)), grouping: 'fixed', days: 0 };
}
