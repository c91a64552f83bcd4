import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * Deletes a counting table's rows that left its window, every few minutes (the login brake's
 * attempts, the password-change brake's changes). A failed sweep is logged and tried again next
 * time; the timer never keeps the process alive. `stop()` from the owner's onModuleDestroy.
 */
export class OldRowsSweeper {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ds: DataSource,
    private readonly logger: Logger,
    /** What the rows are, for the log line ("old login attempts"). */
    private readonly what: string,
    /** `DELETE … WHERE <time column> < $1`. */
    private readonly sql: string,
    /** The oldest time still inside the window. */
    private readonly windowStart: () => Date,
    everyMs = 5 * 60 * 1000,
  ) {
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
  }

  async sweep(): Promise<void> {
    try {
      await this.ds.query(this.sql, [this.windowStart()]);
    } catch (e) {
      this.logger.warn(`Could not sweep ${this.what}: ${(e as Error).message}`);
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
