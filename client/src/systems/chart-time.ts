/**
 * Pure helpers of the system page's chart: range presets, the axis and legend labels in the
 * system's time zone (Intl.DateTimeFormat with timeZone), the age of a latest value.
 */

import { formatDateTime, formatDayMonth, formatMonthYear, formatNumber, formatRelative, formatTime } from '../i18n/format';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

export const RANGE_PRESETS = ['1h', '6h', '24h', '7d', '30d', '1y'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const PRESET_MS: Record<RangePreset, number> = {
  '1h': HOUR,
  '6h': 6 * HOUR,
  '24h': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
  '1y': 365 * DAY,
};

export interface TimeRange {
  from: number;
  to: number;
}

/** The preset's range ending now, to the next whole minute (so a refetch shares the cache). */
export function presetRange(preset: RangePreset, now: number): TimeRange {
  const to = Math.ceil(now / MINUTE) * MINUTE;
  return { from: to - PRESET_MS[preset], to };
}

/** About one point per pixel of chart width, within what telemetry.series accepts (1..5000). */
export function pointsForWidth(widthPx: number): number {
  if (!Number.isFinite(widthPx) || widthPx <= 0) return 500;
  return Math.max(50, Math.min(5000, Math.round(widthPx)));
}

/** Axis labels for ticks `spacingMs` apart: times within a day, dates beyond, months beyond ~2 months. */
export function axisLabel(ms: number, spacingMs: number, locale: string, timeZone: string): string {
  if (spacingMs < DAY) return formatTime(ms, locale, { timeZone });
  if (spacingMs < 28 * DAY) return formatDayMonth(ms, locale, { timeZone });
  return formatMonthYear(ms, locale, { timeZone });
}

/** Full date and time in the zone, for the legend and the range caption. */
export function fullLabel(ms: number, locale: string, timeZone: string): string {
  return formatDateTime(ms, locale, { timeZone });
}

/** "5 minutes ago" in the user's language; null when there is no value yet. */
export function ageLabel(timestamp: number | null, now: number, locale: string): string | null {
  if (timestamp === null) return null;
  return formatRelative(timestamp, Math.max(now, timestamp), locale);
}

/** A latest value as shown on a card: a few significant digits, no exponent for plain numbers. */
export function formatValue(value: number | null, locale: string): string {
  if (value === null) return '—';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return formatNumber(value, locale, { maximumFractionDigits: digits });
}
