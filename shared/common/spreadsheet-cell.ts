import { textOf } from './text';
/**
 * The one rule for every cell of every CSV or XLSX file the portal writes (server exports, their
 * schedules, the browser's list exports, the alarm history): no cell a spreadsheet would run
 * (OWASP "CSV injection"). Pure and import-free: the browser imports it from here.
 *
 * - A text starting with `= + - @`, a tab or a carriage return (after any spaces) gets a leading `'`.
 * - A separator may split a cell when the file is opened with another one (French Excel splits on
 *   `;`, a reader ignoring quotes splits on line breaks): every piece after a `,` `;` tab, CR or LF
 *   that would start a formula gets its own `'`, whatever separator the file uses.
 * - A number stays a number, and a text that is just a number (`-12.5`, `-3,2`) stays as it is: a
 *   negative value is not a formula.
 */

/** Characters that split a cell in some reader: the separators `,` `;` tab, and line breaks. */
const SPLIT = /[,;\t\r\n]/;
/** The start of a piece a spreadsheet would evaluate (or trim into one: a tab or carriage return). */
const RUNS = /^ *[=+\-@\t\r]/;
/** A plain number (either decimal mark, optional exponent): never a formula. */
const NUMBER = /^ *[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)? *$/;

/** Whether the piece of `text` starting at `at` (up to the next separator) would run. */
function runsAt(text: string, at: number): boolean {
  const rest = text.slice(at);
  if (!RUNS.test(rest)) return false;
  const piece = rest.split(SPLIT, 1)[0];
  return !NUMBER.test(piece);
}

/**
 * A text cell made inert (see above): an apostrophe before the cell and before every piece after a
 * separator that starts with `= + - @`, a tab or a carriage return. Text without any comes back unchanged.
 */
export function inertText(text: string): string {
  if (!/[=+\-@\t\r]/.test(text)) return text;
  let out = runsAt(text, 0) ? "'" : '';
  for (let i = 0; i < text.length; i++) {
    out += text[i];
    if (SPLIT.test(text[i]) && i + 1 < text.length && runsAt(text, i + 1)) out += "'";
  }
  return out;
}

/** Any value as a cell: numbers and booleans kept, dates as ISO text, objects as JSON, text made inert. */
export function inertCell(value: unknown): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return inertText(typeof value === 'object' ? JSON.stringify(value) : textOf(value));
}

/**
 * One CSV line (no line ending) of cells already made inert: a cell is quoted when it holds the
 * delimiter, a quote, a line break or edge spaces, and a text one also when it holds any other
 * separator (`,` `;` tab), so no reader splits it; quotes doubled. A plain number with a decimal
 * comma in a `;` file (`-1234,5`) stays unquoted: it is a number.
 */
export function csvLine(cells: readonly (string | number | boolean)[], delimiter: ',' | ';' | '\t' = ','): string {
  return cells
    .map((c) => {
      const s = String(c);
      const quote = s.includes(delimiter) || /["\r\n]|^ | $/.test(s) || (/[,;\t]/.test(s) && !NUMBER.test(s));
      return quote ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(delimiter);
}
