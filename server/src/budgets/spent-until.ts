import { BoundedMap } from '../common/bounded-map';

/** How long an instance trusts a refusal it remembers before asking the database again. */
export const SPENT_MEMORY_MS = 1000;

/**
 * Budgets an instance found spent: until the remembered moment they may have room again, the next
 * requests for the key are refused from memory, without a query. A refusal is trusted for at
 * most SPENT_MEMORY_MS (then the database is asked again), so budget rows removed or moved meanwhile
 * count within a second. At most `max` keys, the oldest forgotten first (a forgotten key only
 * costs the database check again).
 */
export class SpentUntil {
  private readonly spent: BoundedMap<string, { retryAt: number; forgetAt: number }>;

  constructor(max: number) {
    this.spent = new BoundedMap(max);
  }

  /** `key` was found spent at `now`; it may have room again at `retryAt` (ms on one monotonic clock: performance.now()). */
  remember(key: string, retryAt: number, now: number): void {
    this.spent.set(key, { retryAt, forgetAt: Math.min(retryAt, now + SPENT_MEMORY_MS) });
  }

  /** Milliseconds until `key` may have room again, while its refusal is trusted; else 0 (and it is forgotten). */
  waitFor(key: string, now: number): number {
    const s = this.spent.get(key);
    if (s === undefined) return 0;
    if (s.forgetAt <= now) {
      this.spent.delete(key);
      return 0;
    }
    return s.retryAt - now;
  }
}
