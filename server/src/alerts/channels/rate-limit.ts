/**
 * Sliding-window limits per destination, in memory (one instance sends a destination's messages at
 * a time: the outbox claims events with SKIP LOCKED). `reserve` answers how long to wait before the
 * next message may leave under every window at once, and books that slot when the caller will take
 * it; a caller that would have to wait too long answers the outbox `retryAfterMs` instead.
 */
export interface Window {
  /** Key of the destination (a chat, a webhook, or '*' for the whole service). */
  key: string;
  max: number;
  perMs: number;
}

export class SlidingWindows {
  private readonly sent = new Map<string, number[]>();

  /** A clock finer than Date.now's whole milliseconds, so a booked second is a full second. */
  constructor(private readonly now: () => number = () => performance.timeOrigin + performance.now()) {}

  /** Milliseconds until one more message fits every window (0: now). */
  waitFor(windows: readonly Window[]): number {
    const now = this.now();
    let wait = 0;
    for (const w of windows) {
      const list = this.prune(w, now);
      if (list.length >= w.max) wait = Math.max(wait, list[list.length - w.max] + w.perMs - now);
    }
    return wait;
  }

  /** Books a message at now + wait in every window; answers that moment (for `waitUntil`). */
  book(windows: readonly Window[], wait: number): number {
    const at = this.now() + wait;
    for (const w of windows) {
      const list = this.sent.get(w.key) ?? [];
      list.push(at);
      list.sort((a, b) => a - b);
      this.sent.set(w.key, list);
    }
    return at;
  }

  /**
   * Waits until the booked moment on this clock. A timer may fire a few milliseconds early: Node
   * counts its delay from the event loop's cached time, which lags on a busy loop, so the wait is
   * checked again until the moment has truly come.
   */
  async waitUntil(at: number): Promise<void> {
    for (let left = at - this.now(); left > 0; left = at - this.now()) await sleep(Math.ceil(left));
  }

  private prune(w: Window, now: number): number[] {
    const list = this.sent.get(w.key) ?? [];
    while (list.length && list[0] <= now - w.perMs) list.shift();
    if (list.length === 0) this.sent.delete(w.key);
    return list;
  }
}

/** What a service told us about one destination's bucket (Discord's X-RateLimit-* headers). */
export class Buckets {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The bucket is empty until `ms` from now. */
  emptyFor(key: string, ms: number): void {
    this.until.set(key, Math.max(this.until.get(key) ?? 0, this.now() + ms));
  }

  /** Milliseconds until the bucket has room again (0: now). */
  waitFor(key: string): number {
    const t = this.until.get(key);
    if (t === undefined) return 0;
    const left = t - this.now();
    if (left <= 0) this.until.delete(key);
    return Math.max(0, left);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
