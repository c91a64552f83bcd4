import { renameSync, rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { setThreadPriority, threadPriority } from '../common/threads';
import { exportChunks, ExportAborted, writeExport, type ChunkReader } from './export-stream';
import { ReadFailed, ThreadChunkReads } from './export-thread-reads.repository';
import { ThreadFileSink } from './thread-file-sink';
import type { ThreadData, ToParent, ToThread } from './export-thread-protocol';

/**
 * The export thread (export-threads.ts starts it): writes one job's file at a time, off the
 * server's event loop. A job starts at the server's priority (a short export is done at once); once
 * it has written `backgroundRows` rows it is long, and the thread lowers its priority to `nice` so
 * that requests, ingest and other companies' short exports come first; after the job the thread
 * takes its priority back, or asks to be retired when it may not. On PostgreSQL it reads its
 * chunks on its own connection (statement timeout set on it); on the embedded database, which
 * lives in the main thread, it asks the main thread for each chunk. On PostgreSQL it also sets the
 * job's estimated total before the first chunk and marks the job DONE once its file is in place.
 */
const port = parentPort!;
const data = workerData as ThreadData;
const startNice = threadPriority();

let seq = 0;
const waiting = new Map<number, { resolve: (v: Record<string, unknown>[]) => void; reject: (e: Error) => void }>();
let go: ((ok: boolean) => void) | undefined;
let abort: AbortController | undefined;

const send = (m: ToParent) => port.postMessage(m);

const reads = data.databaseUrl ? new ThreadChunkReads(data.databaseUrl, data.statementTimeoutMs) : undefined;

const parentReader: ChunkReader = (sql, values) =>
  new Promise((resolve, reject) => {
    const id = ++seq;
    waiting.set(id, { resolve, reject });
    // Times go as ISO text (PostgreSQL reads them as timestamptz): a Date would arrive from another realm in a test sandbox.
    send({ type: 'read', seq: id, sql, values: values.map((v) => (v instanceof Date ? v.toISOString() : v)) });
  });

async function run(job: Extract<ToThread, { type: 'job' }>): Promise<void> {
  abort = new AbortController();
  const out = new ThreadFileSink(job.part);
  const closed = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
  });
  let background = false;
  const record = reads ? job.record : undefined;
  try {
    if (record) await reads!.setTotal(record, job.plan);
    const read: ChunkReader = reads ? (sql, values) => reads.read(sql, values) : parentReader;
    const rows = await writeExport(out, job.plan, exportChunks(read, job.plan, abort.signal, data.chunkRows), async (done) => {
      if (!background && data.nice > 0 && startNice !== undefined && done >= data.backgroundRows)
        background = setThreadPriority(Math.max(startNice, data.nice));
      if (done < data.backgroundRows) {
        send({ type: 'progress', rows: done, wait: false });
        if (!abort!.signal.aborted) return;
        out.destroy();
        throw new ExportAborted();
      }
      const ok = await new Promise<boolean>((resolve) => {
        go = resolve;
        send({ type: 'progress', rows: done, wait: true });
      });
      go = undefined;
      if (!ok) {
        out.destroy();
        throw new ExportAborted();
      }
    });
    await closed;
    let recorded: boolean | undefined;
    if (record && !abort.signal.aborted) {
      // DONE and the rename in one transaction: a job no longer ours leaves the file alone.
      const moved = job.final !== job.part;
      recorded = await reads!.finish(
        record,
        rows,
        out.bytes,
        () => moved && renameSync(job.part, job.final),
        () => moved && renameSync(job.final, job.part),
      );
      if (!recorded) rmSync(job.part, { force: true });
    } else if (job.final !== job.part && !abort.signal.aborted) renameSync(job.part, job.final);
    const retire = background && !setThreadPriority(startNice!);
    // A job recorded DONE is done, even if a stop came meanwhile (at shutdown).
    send(recorded || !abort.signal.aborted ? { type: 'done', rows, bytes: out.bytes, retire, recorded } : { type: 'aborted', retire });
  } catch (e) {
    out.destroy();
    await closed.catch(() => undefined);
    const retire = background && !setThreadPriority(startNice!);
    if (e instanceof ExportAborted || abort.signal.aborted) send({ type: 'aborted', retire });
    else send({ type: 'failed', message: (e as Error).message, timeout: e instanceof ReadFailed && e.timeout, retire });
  } finally {
    abort = undefined;
  }
}

port.on('message', (m: ToThread) => {
  switch (m.type) {
    case 'job':
      void run(m);
      break;
    case 'rows':
    case 'readFailed': {
      const w = waiting.get(m.seq);
      waiting.delete(m.seq);
      if (m.type === 'rows') w?.resolve(m.rows);
      else w?.reject(new ReadFailed(m.message, m.timeout));
      break;
    }
    case 'go':
      go?.(m.ok);
      break;
    case 'abort':
      abort?.abort();
      go?.(false);
      break;
  }
});
