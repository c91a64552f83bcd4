/** Energy as the locale writes it: "1,234.5 kWh", French "1 234,5 kWh". */
export function formatKwh(kwh: number, locale: string): string {
  const abs = Math.abs(kwh);
  const digits = abs >= 1000 ? 0 : abs >= 10 ? 1 : 2;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(kwh)} kWh`;
}

/** 'YYYY-MM-DD' or 'YYYY-MM' (the period's own calendar) as a short local label, read in UTC so the day does not move. */
export function periodLabel(label: string, granularity: 'day' | 'month', locale: string): string {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(label);
  if (!m) return label;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1));
  return granularity === 'day'
    ? new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date)
    : new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** Bar heights (px) for the values over a chart of `height` px; null and negatives are 0, the largest fills it. */
export function barLayout(values: readonly (number | null)[], height: number): number[] {
  const max = Math.max(0, ...values.map((v) => v ?? 0));
  return values.map((v) => (max <= 0 || v === null || v <= 0 ? 0 : Math.max(1, (v / max) * height)));
}

/** [from, to) of the current local month and its days, for the bars of "this month". */
export function monthRange(now: Date): { from: Date; to: Date } {
  const from = new Date(now.getFullYear(), now.getMonth(), 1);
  const to = new Date(now.getFullYear(), now.getMonth() + 1, 1);
  return { from, to };
}

/** The last twelve months including this one. */
export function yearRange(now: Date): { from: Date; to: Date } {
  return { from: new Date(now.getFullYear(), now.getMonth() - 11, 1), to: new Date(now.getFullYear(), now.getMonth() + 1, 1) };
}
