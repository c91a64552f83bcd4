import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { startThread, threadPriority } from '../../server/src/common/threads';
import type { AppConfig } from '../../server/src/config/config';
import type { ExportJobsRepository } from '../../server/src/exports/export-jobs.repository';
import { ExportAborted, writeExport, type ExportPlan, type ExportRow } from '../../server/src/exports/export-stream';
import { ExportThreads } from '../../server/src/exports/export-threads';

/**
 * Export files are written in worker threads (export-threads.ts) at a lower priority; on the
 * embedded database the thread asks the main thread for each chunk. What the thread writes is
 * what the same rows give in the main thread; a job told to stop stops, and its thread serves the
 * next job.
 */
const DAY = 86_400_000;
const plan = (format: 'csv' | 'xlsx'): ExportPlan => ({
  system_cuid: 's',
  columns: [
    { entity_cuid: 'e1', parameter_id: 'p1', aggregate: 'avg', header: '=Battery;+1 [V]' },
    { entity_cuid: 'e2', parameter_id: 'p2', aggregate: 'avg', header: 'PV [W]' },
  ],
  resolution: 'raw',
  from: new Date('2026-01-01T00:00:00Z'),
  to: new Date(Date.parse('2026-01-01T00:00:00Z') + 3 * DAY),
  timezone: 'Africa/Lagos',
  format,
  decimal: ',',
});

/** The rows one chunk read answers: a row per minute of the window (as PostgreSQL would, c0/c1 as text). */
function rowsFor(sql: string, values: unknown[]): Record<string, unknown>[] {
  const [from, to] = values.filter((v): v is string => typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)).map((v) => Date.parse(v));
  const out: Record<string, unknown>[] = [];
  for (let t = from; t < to; t += 60_000)
    out.push({ t: new Date(t).toISOString().slice(0, 19).replace('T', ' '), c0: String((t / 60_000) % 97), c1: t % 7 === 0 ? null : '1.5' });
  expect(sql).toContain('FROM parameter_log');
  return out;
}

describe('export threads', () => {
  let dir: string;
  let threads: ExportThreads;
  const reads: number[] = [];
  const config = {
    EXPORT_WORKER_CONCURRENCY: 3,
    EXPORT_STATEMENT_TIMEOUT_MS: 30_000,
    EXPORT_CHUNK_ROWS: 1000,
    EXPORT_THREAD_NICE: 10,
    EXPORT_BACKGROUND_AFTER_ROWS: 50_000,
  } as AppConfig;
  const jobs = {
    readChunk: async (sql: string, values: unknown[]) => {
      const rows = rowsFor(sql, values);
      reads.push(rows.length);
      return rows;
    },
  } as unknown as ExportJobsRepository;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'export-threads-'));
    threads = new ExportThreads(config, jobs);
  });
  afterAll(async () => {
    await threads.onModuleDestroy();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['csv', 'xlsx'] as const)(
    'a %s file written in a thread is the one the main thread writes from the same rows (CSV byte for byte, XLSX but for the zip timestamps)',
    async (format) => {
      const p = plan(format);
      const progress: number[] = [];
      reads.length = 0;
      const path = join(dir, `a.${format}`);
      const { rows, bytes } = await threads.render(p, path, async (n) => (progress.push(n), true), new AbortController().signal);
      expect(rows).toBe(3 * 1440);
      expect(reads.reduce((a, b) => a + b, 0)).toBe(rows);
      expect(Math.max(...reads)).toBeLessThanOrEqual(1000);
      expect(progress[progress.length - 1]).toBe(rows);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));

      // The same rows formatted here.
      const all: ExportRow[] = [];
      for (let t = p.from.getTime(); t < p.to.getTime(); t += 60_000) {
        const r = rowsFor('FROM parameter_log', [new Date(t).toISOString(), new Date(t + 60_000).toISOString()])[0];
        all.push([r.t as string, Number(r.c0), r.c1 === null ? null : Number(r.c1)]);
      }
      const out = new PassThrough();
      const parts: Buffer[] = [];
      out.on('data', (b: Buffer) => parts.push(b));
      const ended = once(out, 'end');
      await writeExport(
        out,
        p,
        (async function* () {
          yield all;
        })(),
      );
      await ended;
      const written = await readFile(path);
      expect(bytes).toBe(written.length);
      if (format === 'csv') {
        expect(written.toString('utf8')).toBe(Buffer.concat(parts).toString('utf8'));
        expect(written.toString('utf8').split('\n')[0]).toBe(`Time (Africa/Lagos);"'=Battery;'+1 [V]";PV [W]`);
      } else {
        // A zip (XLSX): same size give or take the archive's timestamps, and it starts as a zip does.
        expect(written.subarray(0, 2).toString('latin1')).toBe('PK');
        expect(Math.abs(written.length - Buffer.concat(parts).length)).toBeLessThan(64);
      }
    },
  );

  it('a short job is not held back by its progress answers: the whole file is written while the first answer waits; then the count comes in order, ending at every row', async () => {
    const path = join(dir, 'unheld.csv');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const told: number[] = [];
    const rendering = threads.render(
      plan('csv'),
      path,
      async (n) => {
        told.push(n);
        if (told.length === 1) await held;
        return true;
      },
      new AbortController().signal,
    );
    // The thread writes every chunk while the first progress is still unanswered.
    const lines = async () => (await readFile(path, 'utf8').catch(() => '')).split('\n').length;
    for (let i = 0; i < 600 && (await lines()) < 1 + 3 * 1440 + 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await lines()).toBe(1 + 3 * 1440 + 1);
    expect(told).toHaveLength(1);
    release();
    expect((await rendering).rows).toBe(3 * 1440);
    // Counts that came meanwhile are told once, the newest: never backwards, the last one all rows.
    expect(told[told.length - 1]).toBe(3 * 1440);
    expect(told).toEqual([...told].sort((a, b) => a - b));
    expect(told.length).toBeLessThan(5);
  });

  it('a job written as a part file in a folder not yet made is renamed to its name once complete, by the thread', async () => {
    const final = join(dir, 'made', 'later', 'b.csv');
    const part = `${final}.w1.part`;
    const { rows, bytes } = await threads.render(plan('csv'), final, async () => true, new AbortController().signal, part);
    expect(rows).toBe(3 * 1440);
    expect(await readdir(join(dir, 'made', 'later'))).toEqual(['b.csv']);
    expect((await readFile(final)).length).toBe(bytes);
  });

  it('a job whose progress answers "stop" ends with ExportAborted, and its thread then writes the next job', async () => {
    const path = join(dir, 'stopped.csv');
    await expect(threads.render(plan('csv'), path, async () => false, new AbortController().signal)).rejects.toBeInstanceOf(ExportAborted);
    const ac = new AbortController();
    ac.abort();
    await expect(threads.render(plan('csv'), join(dir, 'aborted.csv'), async () => true, ac.signal)).rejects.toBeInstanceOf(ExportAborted);
    expect((await threads.render(plan('csv'), join(dir, 'next.csv'), async () => true, new AbortController().signal)).rows).toBe(3 * 1440);
  });

  it('a read that fails fails the job with its reason, and a read cancelled by the statement timeout says so', async () => {
    const failing = new ExportThreads(config, {
      readChunk: async () => {
        throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
      },
    } as unknown as ExportJobsRepository);
    try {
      await expect(failing.render(plan('csv'), join(dir, 'slow.csv'), async () => true, new AbortController().signal)).rejects.toMatchObject({ code: '57014' });
    } finally {
      await failing.onModuleDestroy();
    }
  });

  it('a thread lowers its own priority only (Linux keeps a nice value per thread)', async () => {
    const mine = threadPriority();
    const probe = startThread(join(__dirname, '../fixtures/thread-nice-probe'), { nice: 10 });
    const [answer] = (await once(probe, 'message')) as [{ before: number; lowered: boolean; nice: number }];
    await probe.terminate();
    expect(answer).toEqual({ before: mine, lowered: true, nice: Math.max(mine!, 10) });
    expect(threadPriority()).toBe(mine);
  });

  it('a long job goes to the background once it has written EXPORT_BACKGROUND_AFTER_ROWS rows, a short one never does', async () => {
    const base = threadPriority()!;
    /** The nice values of this process's threads other than the usual ones. */
    const niced = async () => {
      const out: number[] = [];
      for (const task of await readdir('/proc/self/task')) {
        const stat = await readFile(`/proc/self/task/${task}/stat`, 'utf8').catch(() => '');
        const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
        if (stat && nice !== base) out.push(nice);
      }
      return out;
    };
    const long = new ExportThreads({ ...config, EXPORT_CHUNK_ROWS: 1000, EXPORT_BACKGROUND_AFTER_ROWS: 2000 } as AppConfig, jobs);
    try {
      const seen: [number, number[]][] = [];
      await long.render(plan('csv'), join(dir, 'long.csv'), async (n) => (seen.push([n, await niced()]), true), new AbortController().signal);
      const before = seen.filter(([n]) => n < 2000);
      const after = seen.filter(([n]) => n >= 2000);
      expect(before.length).toBeGreaterThan(0);
      expect(after.length).toBeGreaterThan(0);
      // Below the threshold the thread goes on while its progress is answered, so /proc is read
      // here only where the thread waits for the answer (the short job below shows a thread that
      // never crossed the threshold is never lowered).
      for (const [, nices] of after) expect(nices).toEqual([Math.max(base, 10)]);
      // Once done, the thread has its priority back (or, without the right to, it is gone).
      expect(await niced()).toEqual([]);
      const short: number[][] = [];
      await long.render(
        { ...plan('csv'), to: new Date(plan('csv').from.getTime() + DAY) },
        join(dir, 'short.csv'),
        async () => (short.push(await niced()), true),
        new AbortController().signal,
      );
      expect(short.length).toBeGreaterThan(0);
      for (const nices of short) expect(nices).toEqual([]);
    } finally {
      await long.onModuleDestroy();
    }
  });
});
