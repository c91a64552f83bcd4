/**
 * A Map that holds at most `max` keys and forgets the least recently used first (a Map iterates in
 * insertion order: a key read with `touch` or written is moved to the end). For the small
 * per-instance memories of the hot path (sessions' buckets, refusals, matched messages), where
 * forgetting only costs the work again.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** The value of `key`, now the most recently used. */
  touch(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
