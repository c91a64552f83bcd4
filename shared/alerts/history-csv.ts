import { csvLine, inertCell } from '../common/spreadsheet-cell';

/**
 * The alarm history as CSV. Pure (the browser builds the download page by page with it; a test
 * checks the same text). Times are device time in ISO 8601 UTC plus the system's timezone; no cell
 * a spreadsheet would run (common/spreadsheet-cell.ts), numbers stay numbers.
 */
export const HISTORY_CSV_COLUMNS = [
  'timestamp',
  'timezone',
  'state',
  'severity_level',
  'system_name',
  'trigger_name',
  'message',
  'value',
  'system_cuid',
  'trigger_cuid',
  'event_cuid',
] as const;

export interface HistoryCsvRow {
  timestamp: Date | string;
  timezone: string;
  state: string;
  severity_level: string;
  system_name: string;
  trigger_name: string;
  message: string;
  value: unknown;
  system_cuid: string;
  trigger_cuid: string;
  event_cuid: string;
}

/** The header line. */
export const historyCsvHeader = (): string => HISTORY_CSV_COLUMNS.join(',') + '\r\n';

/** Lines of rows (CRLF-terminated), to append after the header. The event's measured value is `value.value`. */
export function historyCsvLines(rows: readonly HistoryCsvRow[]): string {
  return rows
    .map((r) =>
      HISTORY_CSV_COLUMNS.map((c) => {
        if (c === 'value') {
          const v = r.value as { value?: unknown } | null;
          return inertCell(v && typeof v === 'object' && 'value' in v ? v.value : null);
        }
        return inertCell(r[c]);
      }),
    )
    .map((cells) => csvLine(cells))
    .map((l) => l + '\r\n')
    .join('');
}
