import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../common/threads';
import { AppConfig } from '../config/config';
import { ExportJobsRepository } from './export-jobs.repository';
import { ExportAborted, type ExportPlan } from './export-stream';
import type { ThreadData, ToParent, ToThread } from './export-thread-protocol';
import type { ThreadRecord } from './export-thread-reads.repository';
import { BackgroundPacer } from './background-pacer';

/** A read PostgreSQL cancelled for its statement timeout, as the job worker recognises it. */
class TimedOut extends Error {
  readonly code = '57014';
}

/**
 * The threads that write export files (export-thread.ts), one job per thread at a time, kept for
 * the next job once done. A job's rows are formatted (CSV, XLSX) and written off the server's
 * event loop; once it has written EXPORT_BACKGROUND_AFTER_ROWS rows its thread drops to
 * EXPORT_THREAD_NICE, so a long, wide export costs other companies' requests, ingest and short
 * exports little (a short export finishes at full priority), and on PostgreSQL it also waits
 * between chunks while the event loop is busier than EXPORT_BACKGROUND_BUSY (BackgroundPacer), so
 * the database's work for it gives way too. On the embedded database the thread asks this side for each chunk (readChunk: one short
 * transaction under the statement timeout each), so the one connection is never held.
 */
@Injectable()
export class ExportThreads implements OnModuleDestroy {
  private readonly logger = new Logger('Exports');
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private closing = false;
  /** On PostgreSQL (the thread reads on its own connection): long exports wait while the event loop is busy. */
  private readonly pacer?: BackgroundPacer;

  constructor(
    private readonly config: AppConfig,
    private readonly jobs: ExportJobsRepository,
  ) {
    if (config.DATABASE_URL && config.EXPORT_BACKGROUND_BUSY > 0) this.pacer = new BackgroundPacer(config.EXPORT_BACKGROUND_BUSY);
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.all].map((w) => w.terminate()));
  }

  /**
   * Writes the file of `plan` at `path` in a thread (first as `part`, renamed to `path` once
   * complete, by the thread: no turn of this event loop per file step; its folder made if missing). `progress` is told the rows written after each
   * chunk and answers whether to go on (false: the job was lost or cancelled, the thread stops and
   * this rejects with ExportAborted, as it does when `signal` aborts). Resolves with the row and byte counts.
   * A short job's thread goes on while its progress is being answered (a busy event loop would
   * otherwise hold it back after every chunk); a long one waits for each answer.
   */
  render(
    plan: ExportPlan,
    path: string,
    progress: (rows: number) => Promise<boolean>,
    signal: AbortSignal,
    part = path,
    record?: ThreadRecord,
  ): Promise<{ rows: number; bytes: number; recorded?: boolean }> {
    if (this.closing || signal.aborted) return Promise.reject(new ExportAborted());
    const thread = this.idle.pop() ?? this.start();
    // One thread kept ready (up to EXPORT_WORKER_CONCURRENCY): the next job, often another
    // company's short one while a long one runs, does not wait for a thread to load.
    if (!this.idle.length && this.all.size < this.config.EXPORT_WORKER_CONCURRENCY) this.idle.push(this.start());
    const post = (m: ToThread) => thread.postMessage(m);
    return new Promise<{ rows: number; bytes: number; recorded?: boolean }>((resolve, reject) => {
      let failure: Error | undefined;
      /** Whether a progress answered stop; the progress being answered; the count that came meanwhile. */
      let stopped = false;
      let told: Promise<void> | undefined;
      let latest: number | undefined;
      /** When the thread went on with its current chunk; whether this job is over (a paced `go` then stays unsent). */
      let chunkFrom = performance.now();
      let over = false;
      /** A message for this job's thread; none once the job is over (the thread may be on another job by then). */
      const tellThread = (m: ToThread) => {
        if (!over) post(m);
      };
      const go = (ok: boolean) => {
        chunkFrom = performance.now();
        tellThread({ type: 'go', ok });
      };
      const tell = (rows: number, wait: boolean, chunkMs = 0): void => {
        const answer = (ok: boolean) => {
          if (!ok) stopped = true;
          const pause = wait && ok ? (this.pacer?.pauseAfter(chunkMs) ?? 0) : 0;
          if (pause > 0) setTimeout(() => go(!signal.aborted), pause).unref();
          else if (wait) go(ok);
          else if (!ok) tellThread({ type: 'abort' });
        };
        const current: Promise<void> = progress(rows)
          .then(answer, (e: unknown) => {
            failure = e as Error; // progress() rejects with the database's errors
            answer(false);
          })
          .then(() => {
            if (told === current) told = undefined;
            if (latest !== undefined && !told && !stopped) {
              const next = latest;
              latest = undefined;
              tell(next, false);
            }
          });
        told = current;
      };
      const settled = async (): Promise<void> => {
        while (told) await told;
      };
      const finish = (reuse: boolean, settle: () => void) => {
        over = true;
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
        if (reuse && !this.closing) this.idle.push(thread);
        else void thread.terminate();
        settle();
      };
      const onMessage = (m: ToParent) => {
        switch (m.type) {
          case 'read':
            this.jobs.readChunk(m.sql, m.values, this.config.EXPORT_STATEMENT_TIMEOUT_MS).then(
              (rows) => post({ type: 'rows', seq: m.seq, rows }),
              (e: unknown) => post({ type: 'readFailed', seq: m.seq, message: (e as Error).message, timeout: isTimeout(e) }),
            );
            break;
          case 'progress': {
            const chunkMs = performance.now() - chunkFrom;
            if (!m.wait) chunkFrom = performance.now();
            // One answer at a time, in order; a short job's progress coming meanwhile only updates the count.
            if (told && !m.wait) latest = m.rows;
            else void (told ?? Promise.resolve()).then(() => tell(m.rows, m.wait, chunkMs));
            break;
          }
          case 'done':
            // The thread marked the job DONE (or found it no longer ours) itself: nothing to wait for.
            if (m.recorded !== undefined) {
              finish(!m.retire, () => (m.recorded ? resolve({ rows: m.rows, bytes: m.bytes, recorded: true }) : reject(new ExportAborted())));
              break;
            }
            // A progress not yet answered may still say stop (a job lost or cancelled meanwhile).
            void settled().then(() => finish(!m.retire, () => (stopped ? reject(failure ?? new ExportAborted()) : resolve({ rows: m.rows, bytes: m.bytes }))));
            break;
          case 'aborted':
            finish(!m.retire, () => reject(failure ?? new ExportAborted()));
            break;
          case 'failed':
            finish(!m.retire, () => reject(m.timeout ? new TimedOut(m.message) : new Error(m.message)));
            break;
        }
      };
      const onError = (e: Error) => {
        this.logger.error(`an export thread failed: ${e.message}`);
        finish(false, () => reject(this.closing ? new ExportAborted() : e));
      };
      const onExit = () => finish(false, () => reject(this.closing ? new ExportAborted() : new Error('the export thread stopped')));
      const onAbort = () => tellThread({ type: 'abort' });
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      post({ type: 'job', plan, part, final: path, record: this.config.DATABASE_URL ? record : undefined });
      signal.addEventListener('abort', onAbort);
    });
  }

  private start(): Worker {
    const data: ThreadData = {
      databaseUrl: this.config.DATABASE_URL || undefined,
      statementTimeoutMs: this.config.EXPORT_STATEMENT_TIMEOUT_MS,
      chunkRows: this.config.EXPORT_CHUNK_ROWS,
      nice: this.config.EXPORT_THREAD_NICE,
      backgroundRows: this.config.EXPORT_BACKGROUND_AFTER_ROWS,
    };
    const thread = startThread(join(__dirname, 'export-thread'), data);
    thread.unref();
    this.all.add(thread);
    thread.once('exit', () => {
      this.all.delete(thread);
      const i = this.idle.indexOf(thread);
      if (i >= 0) this.idle.splice(i, 1);
    });
    return thread;
  }
}

/** PostgreSQL's "canceling statement due to statement timeout" (also as the thread reports it). */
export const isTimeout = (e: unknown): boolean => (e as { code?: string })?.code === '57014' || /statement timeout/i.test((e as Error)?.message ?? '');
