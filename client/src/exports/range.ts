/** Range presets of an export, as [from, to) instants whose edges are local midnights of a time zone. */
export const EXPORT_PRESETS = ['today', 'yesterday', 'this_month', 'last_month', 'this_year', 'custom'] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

interface LocalDate {
  y: number;
  m: number; // 1..12
  d: number;
}

/** The wall-clock parts of an instant in a zone. */
function parts(ms: number, timeZone: string): LocalDate & { h: number; min: number; s: number } {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(fmt.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { y: +p.year, m: +p.month, d: +p.day, h: +p.hour % 24, min: +p.minute, s: +p.second };
}

/** The offset (ms, local − UTC) of a zone at an instant. */
function offsetAt(ms: number, timeZone: string): number {
  const p = parts(ms, timeZone);
  const wall = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant of a local wall-clock time in a zone (a time skipped by a DST jump moves forward). */
export function zonedTime(y: number, m: number, d: number, h: number, min: number, timeZone: string): number {
  const wall = Date.UTC(y, m - 1, d, h, min);
  let guess = wall - offsetAt(wall, timeZone);
  // Twice: the offset at the guess may differ from the offset at the wall time near a change.
  guess = wall - offsetAt(guess, timeZone);
  return guess;
}

function midnight(date: LocalDate, timeZone: string): number {
  // Date.UTC normalises day 0 / month 13, so callers may step past the edges.
  const n = new Date(Date.UTC(date.y, date.m - 1, date.d));
  return zonedTime(n.getUTCFullYear(), n.getUTCMonth() + 1, n.getUTCDate(), 0, 0, timeZone);
}

/** [from, to) of a preset at `now`, in a zone; `custom` has no range of its own (null). */
export function exportRange(preset: ExportPreset, now: number, timeZone: string): { from: number; to: number } | null {
  const t = parts(now, timeZone);
  switch (preset) {
    case 'today':
      return { from: midnight(t, timeZone), to: midnight({ ...t, d: t.d + 1 }, timeZone) };
    case 'yesterday':
      return { from: midnight({ ...t, d: t.d - 1 }, timeZone), to: midnight(t, timeZone) };
    case 'this_month':
      return { from: midnight({ ...t, d: 1 }, timeZone), to: midnight({ y: t.y, m: t.m + 1, d: 1 }, timeZone) };
    case 'last_month':
      return { from: midnight({ y: t.y, m: t.m - 1, d: 1 }, timeZone), to: midnight({ ...t, d: 1 }, timeZone) };
    case 'this_year':
      return { from: midnight({ y: t.y, m: 1, d: 1 }, timeZone), to: midnight({ y: t.y + 1, m: 1, d: 1 }, timeZone) };
    default:
      return null;
  }
}

/** `YYYY-MM-DDTHH:mm` of an instant in a zone (the value of a datetime-local input). */
export function toLocalInput(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.y}-${two(p.m)}-${two(p.d)}T${two(p.h)}:${two(p.min)}`;
}

/** The instant of a datetime-local value read in a zone; null when it is not a date. */
export function fromLocalInput(value: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return null;
  return zonedTime(+m[1], +m[2], +m[3], +m[4], +m[5], timeZone);
}

/** The decimal separator a language expects by default (French: comma, which writes ';' between fields). */
export function defaultDecimal(locale: string): '.' | ',' {
  return locale.startsWith('fr') ? ',' : '.';
}
