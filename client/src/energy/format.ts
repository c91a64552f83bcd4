import { formatDayMonth, formatMonthYear, formatNumber, zoneParts } from '../i18n/format';

/** Energy as the locale writes it: "1,234.5 kWh", French "1 234,5 kWh". */
export function formatKwh(kwh: number, locale: string): string {
  const abs = Math.abs(kwh);
  const digits = abs >= 1000 ? 0 : abs >= 10 ? 1 : 2;
  return `${formatNumber(kwh, locale, { maximumFractionDigits: digits })} kWh`;
}

/** 'YYYY-MM-DD' or 'YYYY-MM' (the period's own calendar) as a short local label, read in UTC so the day does not move. */
export function periodLabel(label: string, granularity: 'day' | 'month', locale: string): string {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(label);
  if (!m) return label;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1));
  return granularity === 'day' ? formatDayMonth(date, locale, { timeZone: 'UTC' }) : formatMonthYear(date, locale, { timeZone: 'UTC' });
}

/** Bar heights (px) for the values over a chart of `height` px; null and negatives are 0, the largest fills it. */
export function barLayout(values: readonly (number | null)[], height: number): number[] {
  const max = Math.max(0, ...values.map((v) => v ?? 0));
  return values.map((v) => (max <= 0 || v === null || v <= 0 ? 0 : Math.max(1, (v / max) * height)));
}

/** Midnight of the first day of the month `back` months before `now`'s, in `timeZone` (default: the browser's). */
export function monthStartIn(now: Date, back: number, timeZone?: string): Date {
  const { y, m } = zoneParts(now, timeZone);
  const wall = Date.UTC(y, m - 1 - back, 1);
  // The zone's offset at that wall time (asked twice: the first guess may sit across a DST change).
  const offsetAt = (t: number) => {
    const p = zoneParts(new Date(t), timeZone);
    return Date.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s) - Math.floor(t / 1000) * 1000;
  };
  const guess = wall - offsetAt(wall);
  return new Date(wall - offsetAt(guess));
}

/**
 * This month so far, in the system's zone (the energy queries count each reading in the period of
 * its own zone, and `to` = now is always in the zone's current period).
 */
export function monthRange(now: Date, timeZone?: string): { from: Date; to: Date } {
  return { from: monthStartIn(now, 0, timeZone), to: now };
}

/** The last twelve months including this one, in the system's zone. */
export function yearRange(now: Date, timeZone?: string): { from: Date; to: Date } {
  return { from: monthStartIn(now, 11, timeZone), to: now };
}
