import type { ExportPlan } from './export-stream';
import type { ThreadRecord } from './export-thread-reads.repository';

/** What an export thread is started with (export-threads.ts → export-thread.ts). */
export interface ThreadData {
  /** PostgreSQL: the thread reads on its own connection; unset (embedded database): it asks the main thread. */
  databaseUrl?: string;
  statementTimeoutMs: number;
  chunkRows: number;
  /** The nice value a long job's thread takes (EXPORT_THREAD_NICE). */
  nice: number;
  /** Rows after which a job counts as long and goes to the background (EXPORT_BACKGROUND_AFTER_ROWS). */
  backgroundRows: number;
}

/** Main thread → export thread. */
export type ToThread =
  /** Writes `part`, then (when it differs) renames it to `final` once complete. */
  | {
      type: 'job';
      plan: ExportPlan;
      part: string;
      final: string;
      /** On PostgreSQL: the thread sets the job's total and marks it DONE itself, on its own connection. */
      record?: ThreadRecord;
    }
  | { type: 'rows'; seq: number; rows: Record<string, unknown>[] }
  | { type: 'readFailed'; seq: number; message: string; timeout: boolean }
  /** The answer to a `progress` that waits: false when the job was lost or cancelled (the thread stops). */
  | { type: 'go'; ok: boolean }
  | { type: 'abort' };

/** Export thread → main thread. */
export type ToParent =
  | { type: 'read'; seq: number; sql: string; values: unknown[] }
  /**
   * Rows written so far. A short job does not wait for the answer (each wait is a round trip
   * through a possibly busy event loop): a stop comes back as `abort`. A long job (in the
   * background) waits for `go` after each chunk.
   */
  | { type: 'progress'; rows: number; wait: boolean }
  /** `recorded`: whether the thread marked the job DONE (false: it was no longer ours, the file is removed); unset when it does not record. */
  | { type: 'done'; rows: number; bytes: number; retire: boolean; recorded?: boolean }
  | { type: 'aborted'; retire: boolean }
  | { type: 'failed'; message: string; timeout: boolean; retire: boolean };
