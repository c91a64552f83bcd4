import { SharedResultCache } from './shared-result-cache';

describe('SharedResultCache (the shared fleet overview)', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000;
  });

  /** A computation the test finishes by hand. */
  function deferred<T>() {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  }
  const tick = () => new Promise((r) => setImmediate(r));

  it('concurrent callers of one key share one computation; another key computes its own', async () => {
    const sut = new SharedResultCache<string>(3000, 10, now);
    const d = deferred<string>();
    const compute = jest.fn(() => d.promise);
    const a = sut.get('k', compute);
    const b = sut.get('k', compute);
    const other = sut.get('other', async () => 'theirs');
    d.resolve('ours');
    expect(await Promise.all([a, b, other])).toEqual(['ours', 'ours', 'theirs']);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('keeps a value for the TTL, then recomputes once while callers get the previous value (up to 2 × TTL)', async () => {
    const sut = new SharedResultCache<number>(3000, 10, now);
    let n = 0;
    const gates: ReturnType<typeof deferred<number>>[] = [];
    const compute = jest.fn(() => {
      const g = deferred<number>();
      gates.push(g);
      return g.promise;
    });
    const first = sut.get('k', compute);
    gates[0].resolve(++n);
    expect(await first).toBe(1);
    clock += 2_999;
    expect(await sut.get('k', compute)).toBe(1);
    expect(compute).toHaveBeenCalledTimes(1);
    clock += 2; // stale: one refresh starts, the old value still answers
    expect(await sut.get('k', compute)).toBe(1);
    expect(await sut.get('k', compute)).toBe(1);
    expect(compute).toHaveBeenCalledTimes(2);
    gates[1].resolve(++n);
    await tick();
    expect(await sut.get('k', compute)).toBe(2);
    // Too old to serve (≥ 2 × TTL): callers wait for the new value.
    clock += 6_000;
    const waiting = sut.get('k', compute);
    let settled = false;
    void waiting.then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    gates[2].resolve(n + 1);
    expect(await waiting).toBe(3);
  });

  it('does not keep a failure: the next caller computes again', async () => {
    const sut = new SharedResultCache<string>(3000, 10, now);
    await expect(sut.get('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await tick();
    expect(await sut.get('k', async () => 'ok')).toBe('ok');
  });

  it('holds at most maxKeys keys, dropping the least recently used', async () => {
    const sut = new SharedResultCache<string>(3000, 2, now);
    await sut.get('a', async () => 'a1');
    await sut.get('b', async () => 'b1');
    await sut.get('a', async () => 'a2'); // a used again: b is now the oldest
    await sut.get('c', async () => 'c1');
    expect(sut.size).toBe(2);
    expect(await sut.get('a', async () => 'a3')).toBe('a1');
    expect(await sut.get('b', async () => 'b2')).toBe('b2');
  });

  it('TTL 0 computes on every call', async () => {
    const sut = new SharedResultCache<number>(0, 10, now);
    let n = 0;
    expect(await sut.get('k', async () => ++n)).toBe(1);
    expect(await sut.get('k', async () => ++n)).toBe(2);
    expect(sut.size).toBe(0);
  });
});
