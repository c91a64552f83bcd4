import { Injectable, Logger } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { systemJob } from '../common/system-job';
import type { ValidParameterRow, ValidStandardRow, ValidStateRow } from './ingest-validator';
import { TelemetryWriterRepository } from './telemetry-writer.repository';

/** Whose behalf the writer's SQL runs on: the ingest of controllers' batches. */
const INGEST = systemJob('telemetry-ingest');

/** Rows of one flush, each tagged with the submission (segment) it came from. */
export interface FlushInput {
  rows: { seg: number; row: ValidParameterRow }[];
  standard: { seg: number; row: ValidStandardRow }[];
  states: { seg: number; row: ValidStateRow }[];
}

/** Rows really inserted, per segment (the others were already stored). */
export type InsertedBySegment = Map<number, number>;

/** Errors worth trying the whole batch again for (deadlock, serialization, lost connection). */
const RETRYABLE = new Set(['40P01', '40001', '55P03', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

export const pgCode = (error: unknown): string | undefined => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
};

export const isRetryable = (error: unknown): boolean => {
  const code = pgCode(error);
  if (code && RETRYABLE.has(code)) return true;
  const message = String((error as Error)?.message ?? '');
  return /ECONNRESET|ECONNREFUSED|Connection terminated|timeout exceeded when trying to connect/i.test(message);
};

/** A row's entity or parameter vanished between the check and the insert (foreign key). */
export const isForeignKeyViolation = (error: unknown): boolean => pgCode(error) === '23503';

/**
 * What a committed flush wrote, handed to listeners (the alert engine) after the COMMIT: the
 * flush's rows as they were in memory (repeats inside the flush dropped; rows already stored
 * before are included, listeners ignore what they have seen). Never waited for by the sender.
 */
export interface CommittedFlush {
  rows: readonly ValidParameterRow[];
  states: readonly ValidStateRow[];
}
export type FlushListener = (flush: CommittedFlush) => void;

const key = (r: ValidParameterRow): string => `${r.entity_cuid}\u0000${r.parameter_id}\u0000${r.ts.getTime()}`;

@Injectable()
export class TelemetryWriter {
  private readonly logger = new Logger('TelemetryWriter');
  private readonly listeners: FlushListener[] = [];

  constructor(private readonly repo: TelemetryWriterRepository) {}

  /**
   * Writes one flush in one transaction and answers, per segment, how many rows were new.
   * Rows repeated inside the flush count once (the first one wins, as in the database).
   */
  async write(input: FlushInput, attempts = 4): Promise<{ rows: InsertedBySegment; standard: InsertedBySegment; states: InsertedBySegment }> {
    const rows = dedupeAndSort(input.rows);
    let delay = 25;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.repo.transaction(INGEST, async (c) => ({
          rows: await this.insertParameters(c, rows),
          standard: await this.insertStandard(c, input.standard),
          states: await this.insertStates(c, input.states),
        }));
        this.emit(rows, input.states);
        return result;
      } catch (error) {
        if (attempt >= attempts || !isRetryable(error)) throw error;
        this.logger.warn(`batch write failed (${pgCode(error) ?? (error as Error).message}); retry ${attempt}`);
        await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
        delay *= 4;
      }
    }
  }

  /**
   * Called synchronously after each flush's COMMIT (before the senders are answered, so keep it
   * to an enqueue: the listener must not block or throw; errors are logged and swallowed).
   */
  onCommit(listener: FlushListener): void {
    this.listeners.push(listener);
  }

  private emit(rows: { row: ValidParameterRow }[], states: { row: ValidStateRow }[]): void {
    if (!this.listeners.length || (!rows.length && !states.length)) return;
    const flush: CommittedFlush = { rows: rows.map((r) => r.row), states: states.map((s) => s.row) };
    for (const l of this.listeners) {
      try {
        l(flush);
      } catch (e) {
        this.logger.warn(`flush listener failed: ${(e as Error).message}`);
      }
    }
  }

  private async insertParameters(m: PoolClient, rows: { seg: number; row: ValidParameterRow }[]): Promise<InsertedBySegment> {
    const out: InsertedBySegment = new Map();
    if (!rows.length) return out;
    // Counts come back per entity; an entity belongs to one controller, and a flush holds one
    // submission per controller (IngestBatcher), so entity → segment is unique. Should it not
    // be (a direct caller), each segment gets its own statement.
    const segOf = new Map<string, number>();
    for (const { row, seg } of rows) {
      const known = segOf.get(row.entity_cuid);
      if (known !== undefined && known !== seg) {
        for (const s of [...new Set(rows.map((r) => r.seg))]) {
          for (const [k, v] of await this.insertParameters(
            m,
            rows.filter((r) => r.seg === s),
          ))
            out.set(k, v);
        }
        return out;
      }
      segOf.set(row.entity_cuid, seg);
    }
    for (const r of await this.repo.insertParameters(
      INGEST,
      m,
      rows.map((r) => r.row),
    )) {
      const seg = segOf.get(r.entity_cuid)!;
      out.set(seg, (out.get(seg) ?? 0) + r.n);
    }
    return out;
  }

  private async insertStandard(m: PoolClient, rows: { seg: number; row: ValidStandardRow }[]): Promise<InsertedBySegment> {
    const out: InsertedBySegment = new Map();
    if (!rows.length) return out;
    const seen = new Set<string>();
    const unique = rows.filter(({ row }) => {
      const k = `${row.system_cuid}\u0000${row.ts.getTime()}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    unique.sort((a, b) => (a.row.system_cuid < b.row.system_cuid ? -1 : a.row.system_cuid > b.row.system_cuid ? 1 : a.row.ts.getTime() - b.row.ts.getTime()));
    for (const r of await this.repo.insertStandard(INGEST, m, unique)) out.set(r.seg, r.n);
    return out;
  }

  private async insertStates(m: PoolClient, rows: { seg: number; row: ValidStateRow }[]): Promise<InsertedBySegment> {
    const out: InsertedBySegment = new Map();
    if (!rows.length) return out;
    const seen = new Set<string>();
    const unique = rows.filter(({ row }) => {
      const k = `${row.entity_cuid}\u0000${row.ts.getTime()}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    unique.sort((a, b) => (a.row.entity_cuid < b.row.entity_cuid ? -1 : a.row.entity_cuid > b.row.entity_cuid ? 1 : a.row.ts.getTime() - b.row.ts.getTime()));
    for (const r of await this.repo.insertStates(INGEST, m, unique)) out.set(r.seg, r.n);
    return out;
  }
}

/**
 * Drops repeats of a key inside one flush (first wins) and sorts by key: concurrent flushes then
 * take index and rollup locks in the same order, and the B-tree is filled in order.
 */
export function dedupeAndSort<T extends { row: ValidParameterRow }>(rows: T[]): T[] {
  const seen = new Set<string>();
  const unique: T[] = [];
  for (const r of rows) {
    const k = key(r.row);
    if (seen.has(k)) continue;
    seen.add(k);
    unique.push(r);
  }
  unique.sort((a, b) => {
    const x = a.row;
    const y = b.row;
    if (x.entity_cuid !== y.entity_cuid) return x.entity_cuid < y.entity_cuid ? -1 : 1;
    if (x.parameter_id !== y.parameter_id) return x.parameter_id < y.parameter_id ? -1 : 1;
    return x.ts.getTime() - y.ts.getTime();
  });
  return unique;
}
