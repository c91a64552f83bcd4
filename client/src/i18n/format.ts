import { formatLocale } from './locale';

/**
 * Dates, times and numbers as the chosen language writes them: the one place of the browser app
 * that builds Intl formatters for display (a class test, format.spec.ts, fails on any other).
 * French: `1 234,5`, `23/11/2026 14:05` (24-hour clock); English: the browser's own variant
 * (en-GB 24-hour, en-US 12-hour), see formatLocale().
 *
 * `locale` is the portal's language ('en' | 'fr', from useLocaleState) or an already resolved
 * BCP 47 tag; a time zone (IANA name) shows the instant in that zone (a system's, a device's),
 * an unknown name falls back to the browser's zone rather than to nothing.
 */

export type DateInput = Date | string | number | null | undefined;

export interface DateOptions {
  /** IANA zone to show the instant in; default: the browser's. */
  timeZone?: string;
  /** Show seconds too (times of events, commands, toasts). */
  seconds?: boolean;
}

/** The Intl tag for a portal language: 'fr' stays 'fr'; 'en' becomes the browser's English variant. */
export const intlLocale = (locale: string | undefined | null): string => formatLocale(locale || 'en');

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(key: string, make: () => T): T {
  let f = cache.get(key) as T | undefined;
  if (!f) {
    f = make();
    if (cache.size > 500) cache.clear();
    cache.set(key, f);
  }
  return f;
}

export function dateTimeFormatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const tag = intlLocale(locale);
  const key = `d|${tag}|${JSON.stringify(options)}`;
  try {
    return cached(key, () => new Intl.DateTimeFormat(tag, options));
  } catch {
    // RangeError: an unknown time zone name; the browser's zone then.
    const { timeZone: _ignored, ...rest } = options;
    return cached(`d|${tag}|${JSON.stringify(rest)}`, () => new Intl.DateTimeFormat(tag, rest));
  }
}

export function numberFormatter(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const tag = intlLocale(locale);
  return cached(`n|${tag}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(tag, options));
}

const toDate = (value: DateInput): Date | null => {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** The options of a date (day/month/year as digits) in the language's order. */
export const DATE_OPTIONS: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
/** The options of a time: 24-hour in French, the browser's clock in English. */
export const timeOptions = (locale: string, seconds = false): Intl.DateTimeFormatOptions => ({
  hour: '2-digit',
  minute: '2-digit',
  ...(seconds ? { second: '2-digit' } : {}),
  ...(locale.toLowerCase().startsWith('fr') ? { hourCycle: 'h23' as const } : {}),
});

const zone = (options?: DateOptions): Intl.DateTimeFormatOptions => (options?.timeZone ? { timeZone: options.timeZone } : {});

/** `23/11/2026 14:05` (fr), `11/23/2026, 02:05 PM` (en-US); '—' for no or an invalid date. */
export function formatDateTime(value: DateInput, locale: string, options?: DateOptions): string {
  const d = toDate(value);
  if (!d) return '—';
  return dateTimeFormatter(locale, { ...DATE_OPTIONS, ...timeOptions(locale, options?.seconds), ...zone(options) }).format(d);
}

/** `23/11/2026` (fr), `11/23/2026` (en-US). */
export function formatDate(value: DateInput, locale: string, options?: Pick<DateOptions, 'timeZone'>): string {
  const d = toDate(value);
  if (!d) return '—';
  return dateTimeFormatter(locale, { ...DATE_OPTIONS, ...zone(options) }).format(d);
}

/** `14:05` (fr), `02:05 PM` (en-US). */
export function formatTime(value: DateInput, locale: string, options?: DateOptions): string {
  const d = toDate(value);
  if (!d) return '—';
  return dateTimeFormatter(locale, { ...timeOptions(locale, options?.seconds), ...zone(options) }).format(d);
}

/** A short day or month label (chart axes, energy bars): `23 nov.` / `nov. 2026` (fr). */
export function formatDayMonth(value: DateInput, locale: string, options?: Pick<DateOptions, 'timeZone'>): string {
  const d = toDate(value);
  if (!d) return '—';
  return dateTimeFormatter(locale, { day: 'numeric', month: 'short', ...zone(options) }).format(d);
}
export function formatMonthYear(value: DateInput, locale: string, options?: Pick<DateOptions, 'timeZone'>): string {
  const d = toDate(value);
  if (!d) return '—';
  return dateTimeFormatter(locale, { month: 'short', year: 'numeric', ...zone(options) }).format(d);
}

/** `1 234,5` (fr), `1,234.5` (en); '—' for null or a non-finite number. */
export function formatNumber(value: number | null | undefined, locale: string, options: Intl.NumberFormatOptions = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return numberFormatter(locale, options).format(value);
}

/** "il y a 5 min" / "5 min. ago": how long before `now` the value was; '—' for no date. */
export function formatRelative(value: DateInput, now: number, locale: string): string {
  const d = toDate(value);
  if (!d) return '—';
  const tag = intlLocale(locale);
  const rtf = cached(`r|${tag}`, () => new Intl.RelativeTimeFormat(tag, { numeric: 'auto', style: 'short' }));
  const s = Math.round((now - d.getTime()) / 1000);
  const abs = Math.abs(s);
  const sign = s >= 0 ? -1 : 1;
  if (abs < 60) return rtf.format(sign * abs, 'second');
  if (abs < 3600) return rtf.format(sign * Math.floor(abs / 60), 'minute');
  if (abs < 86_400) return rtf.format(sign * Math.floor(abs / 3600), 'hour');
  return rtf.format(sign * Math.floor(abs / 86_400), 'day');
}

/** The parts of an instant in a zone (for computing, not for display). */
export function zoneParts(t: Date, timeZone: string | undefined): { y: number; m: number; d: number; h: number; mi: number; s: number } {
  const parts = cached(
    `p|${timeZone ?? ''}`,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
  ).formatToParts(t);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { y: n('year'), m: n('month'), d: n('day'), h: n('hour'), mi: n('minute'), s: n('second') };
}

/** The browser's own time zone (IANA name). */
export const browserTimeZone = (): string => new Intl.DateTimeFormat().resolvedOptions().timeZone;
