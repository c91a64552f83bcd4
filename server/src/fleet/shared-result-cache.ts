/**
 * One computed value shared by the callers asking the same key for `ttlMs`:
 * - concurrent callers wait for the one computation (single flight);
 * - once a value is older than `ttlMs`, the next caller starts one new computation, and until it
 *   ends callers keep getting the previous value as long as it is younger than 2 × `ttlMs` (so a
 *   recomputation never stalls every caller at once); older than that, they wait for the new one;
 * - a failed computation is not kept (the previous value, if any, still serves within its bound);
 * - at most `maxKeys` keys are held, the least recently used dropped first.
 * `ttlMs` 0 → every call computes.
 */
export class SharedResultCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxKeys = 500,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    const t = this.now();
    let entry = this.entries.get(key);
    if (entry) {
      // Most recently used last (a Map iterates in insertion order).
      this.entries.delete(key);
      this.entries.set(key, entry);
    } else {
      entry = {};
      this.entries.set(key, entry);
      while (this.entries.size > this.maxKeys) this.entries.delete(this.entries.keys().next().value as string);
    }
    const done = entry.done;
    if (done && t - done.at < this.ttlMs) return Promise.resolve(done.value);
    const pending = entry.pending ?? this.refresh(key, entry, compute);
    if (done && t - done.at < 2 * this.ttlMs) return Promise.resolve(done.value);
    return pending;
  }

  private refresh(key: string, entry: Entry<T>, compute: () => Promise<T>): Promise<T> {
    const pending = compute();
    entry.pending = pending;
    pending.then(
      (value) => {
        entry.done = { value, at: this.now() };
        entry.pending = undefined;
      },
      () => {
        entry.pending = undefined;
        if (!entry.done && this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return pending;
  }

  get size(): number {
    return this.entries.size;
  }
}

interface Entry<T> {
  done?: { value: T; at: number };
  pending?: Promise<T>;
}
