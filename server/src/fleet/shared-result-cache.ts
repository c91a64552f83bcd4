/**
 * One computed value shared by the callers asking the same key for `ttlMs`: concurrent callers wait
 * for the one computation (single flight), a failed computation is not kept, and at most
 * `maxKeys` keys are held (the least recently used is dropped first). `ttlMs` 0 → every call computes.
 */
export class SharedResultCache<T> {
  private readonly entries = new Map<string, { expires: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxKeys = 500,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > t) {
      // Most recently used last (a Map iterates in insertion order).
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = compute();
    // The clock starts when the computation ends; until then `expires` is infinite (in flight).
    const entry = { expires: Number.POSITIVE_INFINITY, value };
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxKeys) this.entries.delete(this.entries.keys().next().value as string);
    value.then(
      () => {
        entry.expires = this.now() + this.ttlMs;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
