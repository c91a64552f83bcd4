/** A manual clock for the timer-driven state machines (no Jest fake timers needed). */
export class FakeClock {
  private t = 0;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now = (): number => this.t;

  setTimer = (fn: () => void, ms: number): number => {
    const id = ++this.nextId;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  };

  clearTimer = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  get pending(): number {
    return this.timers.size;
  }

  /** Runs every timer due within `ms`, in order, letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flush();
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.t = next[1].at;
      this.timers.delete(next[0]);
      next[1].fn();
    }
    this.t = end;
    await flush();
  }

  /** Synchronous variant for code without promises. */
  advanceSync(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.t = next[1].at;
      this.timers.delete(next[0]);
      next[1].fn();
    }
    this.t = end;
  }
}

export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
