/**
 * Pure helpers of the system page's chart: range presets, the axis and legend labels in the
 * system's time zone (Intl.DateTimeFormat with timeZone), the age of a latest value.
 */

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

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { timeZone, ...options });
    formatters.set(key, f);
  }
  return f;
}

/** Axis labels for ticks `spacingMs` apart: times within a day, dates beyond, months beyond ~2 months. */
export function axisLabel(ms: number, spacingMs: number, locale: string, timeZone: string): string {
  if (spacingMs < DAY) {
    return formatter(locale, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  }
  if (spacingMs < 28 * DAY) return formatter(locale, timeZone, { day: 'numeric', month: 'short' }).format(ms);
  return formatter(locale, timeZone, { month: 'short', year: 'numeric' }).format(ms);
}

/** Full date and time in the zone, for the legend and the range caption. */
export function fullLabel(ms: number, locale: string, timeZone: string): string {
  return formatter(locale, timeZone, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(ms);
}

/** "5 minutes ago" in the user's language; null when there is no value yet. */
export function ageLabel(timestamp: number | null, now: number, locale: string): string | null {
  if (timestamp === null) return null;
  const s = Math.max(0, Math.round((now - timestamp) / 1000));
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  if (s < 60) return rtf.format(-s, 'second');
  if (s < 3600) return rtf.format(-Math.floor(s / 60), 'minute');
  if (s < 86_400) return rtf.format(-Math.floor(s / 3600), 'hour');
  return rtf.format(-Math.floor(s / 86_400), 'day');
}

/** A latest value as shown on a card: a few significant digits, no exponent for plain numbers. */
export function formatValue(value: number | null, locale: string): string {
  if (value === null) return '—';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}
