import { performance } from 'node:perf_hooks';

/** The shortest window over which the event loop's utilization is measured. */
const WINDOW_MS = 100;

/**
 * Paces long (background) exports while the server is busy. A nice value makes the export's thread
 * give way, but the database works for it at full priority, chunk after chunk; so while this
 * process's event loop is busier than `busy` (its utilization, 0–1: requests, ingest and other
 * companies' short exports are waiting), a long export waits `factor` times as long as its last
 * chunk took before it reads the next one, at most `maxPauseMs`. It always goes on (one chunk at
 * least every `maxPauseMs` plus a chunk), and on an idle server it never waits.
 */
export class BackgroundPacer {
  private mark = performance.eventLoopUtilization();
  private markedAt: number;
  private utilization = 0;

  constructor(
    private readonly busy: number,
    private readonly factor = 2,
    private readonly maxPauseMs = 1000,
    private readonly now: () => number = () => performance.now(),
    private readonly measure: (since: ReturnType<typeof performance.eventLoopUtilization>) => { utilization: number } = (since) =>
      performance.eventLoopUtilization(since),
  ) {
    this.markedAt = this.now();
  }

  /** The event loop's utilization over the last window (at least WINDOW_MS long). */
  current(): number {
    const t = this.now();
    if (t - this.markedAt >= WINDOW_MS) {
      this.utilization = this.measure(this.mark).utilization;
      this.mark = performance.eventLoopUtilization();
      this.markedAt = t;
    }
    return this.utilization;
  }

  /** How long a background job waits before its next chunk, given how long its last one took. */
  pauseAfter(chunkMs: number): number {
    if (this.busy <= 0 || this.current() < this.busy) return 0;
    return Math.min(this.maxPauseMs, Math.max(0, chunkMs) * this.factor);
  }
}
