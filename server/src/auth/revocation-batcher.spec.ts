import { RevocationBatcher, type RevocationKey, type RevocationState } from './revocation-batcher';

const state = (epoch: number): RevocationState => ({ inactive: false, session_epoch: epoch, revoked: false });

describe('RevocationBatcher', () => {
  it('sends the first checks at once and groups the ones that arrive while slots are busy', async () => {
    const batches: RevocationKey[][] = [];
    const releases: (() => void)[] = [];
    const sut = new RevocationBatcher((keys) => {
      batches.push(keys);
      return new Promise((resolve) => releases.push(() => resolve(new Map(keys.map((k, i) => [RevocationBatcher.keyOf(k), state(i)])))));
    }, 2);
    const checks = Array.from({ length: 7 }, (_, i) => sut.check({ user_cuid: `u${i}`, sid: `s${i}` }));
    expect(batches.map((b) => b.length)).toEqual([1, 1]); // two slots, taken at once
    releases[0]();
    await checks[0];
    await new Promise((r) => setImmediate(r)); // the freed slot is refilled after the answers are delivered
    expect(batches.map((b) => b.length)).toEqual([1, 1, 5]); // the five waiting go together
    releases[1]();
    releases[2]();
    const results = await Promise.all(checks);
    expect(results.map((r) => r?.session_epoch)).toEqual([0, 0, 0, 1, 2, 3, 4]);
  });

  it('answers undefined for a session the lookup did not find, and passes errors to every waiting check', async () => {
    const missing = new RevocationBatcher(async () => new Map());
    await expect(missing.check({ user_cuid: 'u', sid: 's' })).resolves.toBeUndefined();
    const failing = new RevocationBatcher(async () => {
      throw new Error('database down');
    });
    await expect(Promise.all([failing.check({ user_cuid: 'a', sid: '1' }), failing.check({ user_cuid: 'b', sid: '2' })])).rejects.toThrow('database down');
  });

  it('a shared batch never fails for one bad item: a lookup the database refuses for one session fails that check alone; the others get their state', async () => {
    const batches: RevocationKey[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sut = new RevocationBatcher(async (keys) => {
      batches.push(keys);
      if (keys[0].sid === 'first') await gate; // holds the only slot so the next checks share one batch
      if (keys.some((k) => k.sid === 'poison')) throw Object.assign(new Error('invalid byte sequence'), { code: '22021' });
      return new Map(keys.map((k) => [RevocationBatcher.keyOf(k), state(7)]));
    }, 1);
    const first = sut.check({ user_cuid: 'a', sid: 'first' });
    const checks = ['a1', 'poison', 'a2', 'a3'].map((sid) => sut.check({ user_cuid: sid === 'poison' ? 'b' : 'a', sid }));
    release();
    await first;
    const results = await Promise.allSettled(checks);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value?.session_epoch : (r.reason as Error).message))).toEqual([7, 'invalid byte sequence', 7, 7]);
    expect(batches[1].map((k) => k.sid)).toEqual(['a1', 'poison', 'a2', 'a3']);
  });
});
