import { IngestBatcher, SubmissionRefused } from './ingest-batcher';
import type { ValidatedBatch, ValidParameterRow } from './ingest-validator';
import type { FlushInput } from './telemetry-writer.service';

const row = (i: number): ValidParameterRow => ({ index: i, entity_cuid: 'e', parameter_id: 'p', ts: new Date(i), min: null, max: null, value: i, tz: 'UTC' });
const batch = (controller_id: string, n: number): ValidatedBatch => ({
  controller_id,
  rows: Array.from({ length: n }, (_, i) => row(i)),
  standard: [],
  states: [],
  rejected: [],
});

describe('IngestBatcher', () => {
  it('flushes at maxRows, or after maxWaitMs, and settles each submission with its own counts', async () => {
    const flushes: FlushInput[] = [];
    const sut = new IngestBatcher(
      async (input) => {
        flushes.push(input);
        // Pretend the first row of each segment was already stored.
        const rows = new Map<number, number>();
        for (const r of input.rows) rows.set(r.seg, (rows.get(r.seg) ?? 0) + 1);
        for (const [seg, n] of rows) rows.set(seg, n - 1);
        return { rows, standard: new Map(), states: new Map() };
      },
      async (b) => b,
      { maxRows: 10, maxWaitMs: 30, shards: 1 },
    );
    const a = sut.submit(batch('c1', 4));
    const b = sut.submit(batch('c2', 6)); // reaches 10: flushes now
    expect(await Promise.all([a, b])).toEqual([
      { accepted: 3, duplicates: 1, rejected: [] },
      { accepted: 5, duplicates: 1, rejected: [] },
    ]);
    expect(flushes).toHaveLength(1);
    // Below maxRows the batch waits maxWaitMs (the batcher's clock, not the machine's).
    jest.useFakeTimers();
    try {
      let settled = false;
      const c = sut.submit(batch('c1', 2)).then((r) => ((settled = true), r));
      await jest.advanceTimersByTimeAsync(29);
      expect(flushes).toHaveLength(1);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(await c).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
      expect(flushes).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('rejects the submissions of a failed flush (nothing is acknowledged) and goes on with the next', async () => {
    let fail = true;
    const sut = new IngestBatcher(
      async (input) => {
        if (fail) throw new Error('database down');
        return { rows: new Map([[0, input.rows.length]]), standard: new Map(), states: new Map() };
      },
      async (b) => b,
      { maxRows: 5, maxWaitMs: 0, shards: 2 },
    );
    await expect(sut.submit(batch('c1', 5))).rejects.toThrow('database down');
    fail = false;
    await expect(sut.submit(batch('c1', 5))).resolves.toEqual({ accepted: 5, duplicates: 0, rejected: [] });
  });

  it('an empty submission settles at once; drain waits for what is pending', async () => {
    let writes = 0;
    const sut = new IngestBatcher(
      async (input) => {
        writes++;
        return { rows: new Map([[0, input.rows.length]]), standard: new Map(), states: new Map() };
      },
      async (b) => b,
      { maxRows: 100, maxWaitMs: 10_000, shards: 1 },
    );
    await expect(sut.submit(batch('c1', 0))).resolves.toEqual({ accepted: 0, duplicates: 0, rejected: [] });
    const pending = sut.submit(batch('c1', 3));
    await sut.drain();
    await expect(pending).resolves.toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    expect(writes).toBe(1);
  });
});

describe('IngestBatcher, one submission per controller per flush', () => {
  it('keeps a controller’s later submissions for the next flush, in order', async () => {
    const flushes: string[][] = [];
    const sut = new IngestBatcher(
      async (input) => {
        const segs = new Map<number, number>();
        for (const r of input.rows) segs.set(r.seg, (segs.get(r.seg) ?? 0) + 1);
        flushes.push([...segs.keys()].map((s) => `${s}:${segs.get(s)}`));
        return { rows: segs, standard: new Map(), states: new Map() };
      },
      async (b) => b,
      { maxRows: 1000, maxWaitMs: 5, shards: 1 },
    );
    const results = await Promise.all([sut.submit(batch('c1', 1)), sut.submit(batch('c1', 2)), sut.submit(batch('c2', 3)), sut.submit(batch('c1', 4))]);
    expect(results.map((r) => r.accepted)).toEqual([1, 2, 3, 4]);
    expect(flushes).toEqual([['0:1', '1:3'], ['0:2'], ['0:4']]);
  });
});

describe('IngestBatcher, one submission’s failure is its own', () => {
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
  /** Fails any flush holding a row of value 666 (as the database would for that one submission). */
  const failingOn666 = (code: string, writes: FlushInput[]) => async (input: FlushInput) => {
    writes.push(input);
    if (input.rows.some((r) => r.row.value === 666)) throw pgError(code, 'value out of range: overflow');
    const rows = new Map<number, number>();
    for (const r of input.rows) rows.set(r.seg, (rows.get(r.seg) ?? 0) + 1);
    return { rows, standard: new Map(), states: new Map() };
  };
  const poisoned = (controller_id: string): ValidatedBatch => ({ ...batch(controller_id, 1), rows: [{ ...row(0), value: 666 }] });

  it.each(['22003', '23514', '23505'])('a submission the database refuses (%s) is refused for good; the others of its flush are stored', async (code) => {
    const writes: FlushInput[] = [];
    const sut = new IngestBatcher(failingOn666(code, writes), async (b) => b, { maxRows: 100, maxWaitMs: 20, shards: 1 });
    const [a, bad, c] = await Promise.allSettled([sut.submit(batch('a', 2)), sut.submit(poisoned('bad')), sut.submit(batch('c', 3))]);
    expect(a).toEqual({ status: 'fulfilled', value: { accepted: 2, duplicates: 0, rejected: [] } });
    expect(c).toEqual({ status: 'fulfilled', value: { accepted: 3, duplicates: 0, rejected: [] } });
    expect(bad.status).toBe('rejected');
    expect((bad as PromiseRejectedResult).reason).toBeInstanceOf(SubmissionRefused);
    expect(writes).toHaveLength(4); // the shared flush, then each alone
  });

  it('a transient failure (deadlock, lost connection) fails the whole flush for a later retry, without writing one by one', async () => {
    const writes: FlushInput[] = [];
    const sut = new IngestBatcher(failingOn666('40P01', writes), async (b) => b, { maxRows: 100, maxWaitMs: 20, shards: 1 });
    const results = await Promise.allSettled([sut.submit(batch('a', 2)), sut.submit(poisoned('bad'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of results) expect((r as PromiseRejectedResult).reason).not.toBeInstanceOf(SubmissionRefused);
    expect(writes).toHaveLength(1);
  });
});
