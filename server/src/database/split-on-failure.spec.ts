import { isTransientDatabaseError, splitOnFailure } from './split-on-failure';

const refused = (code: string) => Object.assign(new Error(`refused ${code}`), { code });

describe('splitOnFailure', () => {
  it('a batch with one bad item: only that item fails, with its own error; every other item gets its value', async () => {
    const writes: number[][] = [];
    const isolated: unknown[] = [];
    const sut = await splitOnFailure(
      [1, 2, 3, 4, 5, 6, 7],
      async (part) => {
        writes.push(part);
        if (part.includes(5)) throw refused('22021');
        return part.map((n) => n * 10);
      },
      { onIsolated: (e) => isolated.push(e) },
    );
    expect(sut.map((r) => (r.ok ? r.value : (r.error as Error).message))).toEqual([10, 20, 30, 40, 'refused 22021', 60, 70]);
    expect(isolated).toHaveLength(1);
    // The whole batch first, then halves down to the bad item only.
    expect(writes[0]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(writes.filter((w) => w.length === 1 && w[0] === 5)).toHaveLength(1);
    expect(writes.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(7)));
  });

  it('a transient failure (connection, deadlock) fails every item of the batch with it, without splitting', async () => {
    let calls = 0;
    const sut = await splitOnFailure([1, 2, 3], async () => {
      calls++;
      throw refused('40P01');
    });
    expect(calls).toBe(1);
    expect(sut.every((r) => !r.ok && (r.error as { code: string }).code === '40P01')).toBe(true);
  });

  it('knows transient errors from refusals of the data', () => {
    expect(['40001', '40P01', '08006', '57P01', '53300', '55P03'].map((c) => isTransientDatabaseError(refused(c)))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['22021', '22P05', '23505', '22003', '23514'].map((c) => isTransientDatabaseError(refused(c)))).toEqual([false, false, false, false, false]);
    expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientDatabaseError(new TypeError('x.replace is not a function'))).toBe(false);
  });
});
