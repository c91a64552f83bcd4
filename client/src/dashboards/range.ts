import type { TDashboardRange } from '../../../shared/dashboards/dashboard-layout.schema';

export interface DateRange {
  from: Date;
  to: Date;
}

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
const MINUTE = 60_000;

/**
 * The dashboard's time range as dates, in the browser's time zone (the energy widgets count days
 * in each system's own zone on the server). `to` is rounded up to the next whole minute so widgets
 * asking at about the same time share their cached answers.
 */
export function rangeOf(range: TDashboardRange, now: number = Date.now()): DateRange {
  const today = startOfDay(new Date(now));
  const end = new Date(Math.ceil(now / MINUTE) * MINUTE);
  switch (range.preset) {
    case 'today':
      return { from: today, to: end };
    case 'yesterday':
      return { from: new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1), to: today };
    case 'last_24h':
      return { from: new Date(end.getTime() - 86_400_000), to: end };
    case 'last_7d':
      return { from: new Date(end.getTime() - 7 * 86_400_000), to: end };
    case 'this_month':
      return { from: new Date(today.getFullYear(), today.getMonth(), 1), to: end };
    case 'last_month':
      return { from: new Date(today.getFullYear(), today.getMonth() - 1, 1), to: new Date(today.getFullYear(), today.getMonth(), 1) };
    case 'this_year':
      return { from: new Date(today.getFullYear(), 0, 1), to: end };
    case 'custom': {
      const from = range.from ? new Date(range.from) : new Date(end.getTime() - 7 * 86_400_000);
      const to = range.to ? new Date(range.to) : end;
      return to > from ? { from, to } : { from, to: new Date(from.getTime() + MINUTE) };
    }
  }
}

/** `yyyy-MM-ddTHH:mm` in the browser's zone, for a datetime-local input. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value back to ISO 8601 with its offset (UTC), or undefined when empty or bad. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
