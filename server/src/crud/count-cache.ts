/**
 * How many rows a list has. Counting a large scoped table costs far more than reading one page,
 * so a count is kept for COUNT_CACHE_MS per key (resource, caller's companies, filter) and dropped
 * when the CRUD service writes to the resource's table, on this instance or another (SharedSignals
 * `table`, a few milliseconds later). Writes made outside the CRUD service show within that time.
 */
export class CountCache {
  static readonly COUNT_CACHE_MS = 5_000;

  private readonly counts = new Map<string, { at: number; total: Promise<number>; refreshing?: boolean }>();

  /** The key of a count: the table comes first, so a write to it drops all of its counts. */
  static key(table: string, ...rest: unknown[]): string {
    return JSON.stringify([table, ...rest]);
  }

  /** The cached count under `key`, or `query()`'s answer (kept for the next callers). */
  get(key: string, query: () => Promise<number>): Promise<number> {
    const hit = this.counts.get(key);
    const now = Date.now();
    if (hit && now - hit.at < CountCache.COUNT_CACHE_MS) {
      // In its last second a count is recounted by one caller while the others still get it, so a
      // busy list never waits for a count. The new one replaces it only if no write dropped it
      // meanwhile (the recount may have started before that write).
      if (!hit.refreshing && now - hit.at >= CountCache.COUNT_CACHE_MS - 1_000) {
        hit.refreshing = true;
        query().then(
          (n) => {
            if (this.counts.get(key) === hit) this.counts.set(key, { at: now, total: Promise.resolve(n) });
          },
          () => (hit.refreshing = false),
        );
      }
      return hit.total;
    }
    const total = query();
    if (this.counts.size > 10_000) this.counts.clear();
    this.counts.set(key, { at: Date.now(), total });
    total.catch(() => this.counts.delete(key));
    return total;
  }

  /** A write to a table makes its cached counts stale. */
  forgetTable(table: string): void {
    const prefix = `[${JSON.stringify(table)},`;
    for (const key of this.counts.keys()) if (key.startsWith(prefix)) this.counts.delete(key);
  }

  forgetAll(): void {
    this.counts.clear();
  }
}
