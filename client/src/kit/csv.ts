import Papa from 'papaparse';
import { ownTable } from '../../../shared/common/own-entry';
import { csvLine, inertCell } from '../../../shared/common/spreadsheet-cell';

/** One data row of a CSV file: its cells by column name and the file line it starts on (1-based). */
export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

export interface ParsedCsv {
  header: string[];
  rows: CsvRow[];
  /** Columns the resource knows (sent to the server). */
  mapped: string[];
  /** Columns it ignores on purpose (an export's `id` and generated key). */
  ignored: string[];
  /** Columns it does not know (not sent). */
  unknown: string[];
  /** Problems of the file itself (no header, unbalanced quotes …). */
  problems: string[];
}

/**
 * Parses CSV text: the first row names the fields. Rows keep the line they start on, so a report
 * can say "line 7" even when a quoted cell spans several lines or blank lines are skipped.
 */
export function parseCsv(text: string, fields: readonly string[], ignore: readonly string[] = []): ParsedCsv {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { header: false, skipEmptyLines: false });
  const records = result.data;
  const problems = result.errors.map((e) => (e.row !== undefined ? `Row ${e.row + 1}: ${e.message}` : e.message));
  const header = (records[0] ?? []).map((h) => h.trim());
  const known = new Set(fields);
  const skip = new Set(ignore);
  const mapped = header.filter((h) => h && known.has(h));
  const ignored = header.filter((h) => h && skip.has(h) && !known.has(h));
  const unknown = header.filter((h) => h && !known.has(h) && !skip.has(h));
  const rows: CsvRow[] = [];
  let line = 1 + lineCount(records[0] ?? []);
  for (const cells of records.slice(1)) {
    const start = line;
    line += lineCount(cells);
    if (cells.every((c) => c.trim() === '')) continue;
    // column names are the file's text: a null-prototype table (`__proto__` is a column, not a prototype)
    const values = ownTable<string>();
    header.forEach((name, i) => {
      if (name && known.has(name)) values[name] = cells[i] ?? '';
    });
    rows.push({ line: start, values });
  }
  if (header.length === 0 || header.every((h) => !h)) problems.unshift('The file has no header row');
  return { header, rows, mapped, ignored, unknown, problems };
}

/** Lines a parsed record spans (cells with line breaks inside quotes). */
function lineCount(cells: string[]): number {
  return 1 + cells.reduce((n, c) => n + (c.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
}

/** Splits a list in consecutive chunks of `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * A record as CSV cells: objects and arrays as JSON, null/undefined as empty, and no cell a
 * spreadsheet would run (the server's rule, server/src/common/spreadsheet-cell.ts, shared as is).
 */
export function toCsvCells(record: Record<string, unknown>): Record<string, string | number | boolean> {
  // column names are the records' keys (any text): a null-prototype table
  const out = ownTable<string | number | boolean>();
  for (const [k, v] of Object.entries(record)) out[k] = inertCell(v);
  return out;
}

/** CSV text of records, every field of every record as a column (first-seen order), CRLF lines. */
export function recordsToCsv(records: Record<string, unknown>[]): string {
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of records)
    for (const k of Object.keys(r))
      if (!seen.has(k)) {
        seen.add(k);
        columns.push(k);
      }
  const lines = [csvLine(columns.map((c) => inertCell(c)))];
  for (const r of records) {
    const cells = toCsvCells(r);
    lines.push(csvLine(columns.map((c) => (Object.hasOwn(cells, c) ? cells[c] : ''))));
  }
  return lines.join('\r\n');
}
