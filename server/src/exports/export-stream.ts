import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { csvLine, inertText } from '../../../shared/common/spreadsheet-cell';
import { SqlParams } from '../database/sql-params';
import { pivotSql } from './export-thread-reads.repository';
import type { TExportAggregate, TExportDecimal, TExportFormat, TExportResolution } from '../../../shared/exports/export-config.schema';

/** One column of a planned export, with its header (label and unit). */
export interface PlannedColumn {
  entity_cuid: string;
  parameter_id: string;
  aggregate: TExportAggregate;
  header: string;
}

/** Everything one run needs: checked by ExportsService before the first byte. */
export interface ExportPlan {
  system_cuid: string;
  columns: PlannedColumn[];
  resolution: TExportResolution;
  from: Date;
  to: Date;
  timezone: string;
  format: TExportFormat;
  decimal: TExportDecimal;
}

/** A row of the file: the local timestamp, then one value (or null) per column. */
export type ExportRow = [string, ...(number | null)[]];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** First window per resolution; it then doubles or halves to keep a chunk between these row counts. */
const FIRST_WINDOW: Record<TExportResolution, number> = { raw: 6 * HOUR, '5m': 7 * DAY, '1h': 60 * DAY, '1d': 400 * DAY };
const MAX_WINDOW: Record<TExportResolution, number> = { raw: 31 * DAY, '5m': 120 * DAY, '1h': 800 * DAY, '1d': 800 * DAY };
const CHUNK_ROWS_HIGH = 20_000;

/** Runs one chunk's SQL (ExportJobsRepository.readChunk: its own short transaction under a statement timeout). */
export type ChunkReader = (sql: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * CPU one export spends between two turns of the event loop: past this the export yields, so
 * other companies' requests (and other exports) run in between, however wide its rows are.
 */
const SLICE_MS = 3;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Yields to the event loop once SLICE_MS of work have passed since the last turn. */
class Slicer {
  private began = performance.now();
  async maybeTurn(): Promise<void> {
    if (performance.now() - this.began < SLICE_MS) return;
    await turn();
    this.began = performance.now();
  }
}

/** A chunk read slower than this halves the next window (the embedded database serves everybody on one connection). */
const SLOW_CHUNK_MS = 250;

/**
 * The rows of the export in bounded chunks: keyset by time window (each window a separate short
 * query, so nothing holds a cursor or a transaction, which PGlite could not share), the window
 * doubling or halving to keep each chunk between a tenth of `maxRows` and `maxRows` rows (and
 * halving after a slow read). Between chunks the event loop turns, so other requests' queries
 * take the connection before the next chunk.
 */
export async function* exportChunks(read: ChunkReader, plan: ExportPlan, signal?: AbortSignal, maxRows = CHUNK_ROWS_HIGH): AsyncGenerator<ExportRow[]> {
  if (!plan.columns.length) return;
  const high = Math.max(100, maxRows);
  const low = Math.max(10, Math.floor(high / 10));
  let window = FIRST_WINDOW[plan.resolution];
  let at = plan.from.getTime();
  const end = plan.to.getTime();
  const n = plan.columns.length;
  while (at < end) {
    if (signal?.aborted) return;
    const until = Math.min(end, at + window);
    const p = new SqlParams();
    const began = performance.now();
    const rows = await read(pivotSql(plan, new Date(at), new Date(until), p), p.values);
    const slow = performance.now() - began > SLOW_CHUNK_MS;
    if (rows.length) {
      const out: ExportRow[] = new Array<ExportRow>(rows.length);
      const slicer = new Slicer();
      for (let r = 0; r < rows.length; r++) {
        if ((r & 63) === 0) await slicer.maybeTurn();
        const row = rows[r];
        const line: ExportRow = [row.t as string];
        for (let i = 0; i < n; i++) {
          const v = row[`c${i}`];
          line.push(v === null || v === undefined ? null : Number(v));
        }
        out[r] = line;
      }
      yield out;
    }
    at = until;
    if ((rows.length > high || slow) && window > 60_000) window = Math.max(60_000, Math.floor(window / 2));
    else if (rows.length < low) window = Math.min(MAX_WINDOW[plan.resolution], window * 2);
    await turn();
  }
}

/** The header row: the time column (naming its zone), then each column's label and unit. */
export const headerRow = (plan: ExportPlan): string[] => [`Time (${plan.timezone})`, ...plan.columns.map((c) => c.header)];

/** Text cells go through the one rule of every spreadsheet the portal writes (common/spreadsheet-cell.ts). */
export { inertText };

/** A number as text with the chosen decimal separator (no thousands separator, full precision). */
const numberText = (v: number | null, decimal: TExportDecimal): string => {
  if (v === null || !Number.isFinite(v)) return '';
  const s = String(v);
  return decimal === ',' ? s.replace('.', ',') : s;
};

async function writeTo(out: Writable, data: string | Buffer): Promise<void> {
  if (out.destroyed) throw new ExportAborted();
  if (!out.write(data)) await waitDrain(out);
}

async function waitDrain(out: Writable): Promise<void> {
  const ac = new AbortController();
  try {
    await Promise.race([once(out, 'drain', { signal: ac.signal }), once(out, 'close', { signal: ac.signal })]);
  } finally {
    ac.abort();
  }
  if (out.destroyed) throw new ExportAborted();
}

/** The reader went away (download cancelled, job cancelled): stop quietly. */
export class ExportAborted extends Error {
  constructor() {
    super('The export was aborted');
  }
}

/**
 * Writes the whole file to `out` (CSV through csv-stringify, one chunk at a time; XLSX through
 * exceljs's streaming WorkbookWriter, numbers as numbers and the time as text), calling
 * `progress` with the rows written so far after each chunk. Ends `out`. Returns the row count.
 */
export async function writeExport(
  out: Writable,
  plan: ExportPlan,
  chunks: AsyncIterable<ExportRow[]>,
  progress: (rows: number) => Promise<void> | void = () => undefined,
): Promise<number> {
  let rows = 0;
  if (plan.format === 'csv') {
    const delimiter = plan.decimal === ',' ? ';' : ',';
    await writeTo(out, csvLine(headerRow(plan).map(inertText), delimiter) + '\n');
    const slicer = new Slicer();
    for await (const chunk of chunks) {
      let text = '';
      for (let at = 0; at < chunk.length; at++) {
        const r = chunk[at];
        text +=
          csvLine(
            r.map((v, i) => (i === 0 ? inertText(String(v)) : numberText(v as number | null, plan.decimal))),
            delimiter,
          ) + '\n';
        if ((at & 31) === 31 || at === chunk.length - 1) {
          await writeTo(out, text);
          text = '';
          await slicer.maybeTurn();
        }
      }
      rows += chunk.length;
      await progress(rows);
    }
    out.end();
    return rows;
  }
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Data');
  // XLSX text cells are never evaluated, but a file saved again as CSV keeps them: the same rule.
  sheet.addRow(headerRow(plan).map(inertText)).commit();
  const slicer = new Slicer();
  for await (const chunk of chunks) {
    if (out.destroyed) throw new ExportAborted();
    for (let at = 0; at < chunk.length; at++) {
      if ((at & 15) === 15) await slicer.maybeTurn();
      sheet.addRow(chunk[at].map((v, i) => (i === 0 ? inertText(String(v)) : v))).commit();
    }
    rows += chunk.length;
    if (out.writableLength > out.writableHighWaterMark) await waitDrain(out);
    await progress(rows);
  }
  sheet.commit();
  await workbook.commit();
  return rows;
}
