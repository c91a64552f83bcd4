import type { CommandAckError } from '../../gateway/command-link';
import { writeAckBatch } from './ack-batch';
import type { BatchAck } from './ack-rules';
import type { AckOutcome } from './command-inbox';

/** Acknowledgements gathered this long (ms) into one write, at most ACK_BATCH of them. */
export const ACK_GATHER_MS = 3;
export const ACK_BATCH = 200;

/** An answer waiting in the queue, with its controller's transport waiting for the outcome. */
export interface QueuedAck extends BatchAck {
  resolve: (outcome: AckOutcome) => void;
  reject: (error: unknown) => void;
}

/** One batch written in one transaction: per answer its outcome, and the rows of the commands it finished. */
export type AckWrite<F> = (part: QueuedAck[]) => Promise<{ outcomes: (AckOutcome | CommandAckError)[]; finished: F[] }>;

/**
 * The acknowledgement batching loop (docs/control.md, *Commands*): answers are gathered for
 * ACK_GATHER_MS, at most ACK_BATCH, and written in one transaction (`write`); one write at a time on
 * this instance, what arrives meanwhile goes in the next, bigger batch (concurrent batches only
 * queued on each other's row locks). A batch the database refuses for one answer is written again
 * in halves so that only that answer is refused (ack-batch.ts). Once stored, every controller gets
 * its outcome (PUBACK / HTTP 200), then `afterCommit` runs (the toasts: not what a controller waits
 * for). `queue` is the owner's queue of received answers; `track` keeps the in-flight write for shutdown.
 */
export class CommandAcksWorker<F> {
  private timer?: NodeJS.Timeout;
  /** A batch is being written. */
  private writing = false;

  constructor(
    private readonly queue: QueuedAck[],
    private readonly opts: {
      write: AckWrite<F>;
      afterCommit: (finished: F[]) => Promise<void>;
      track: (work: Promise<unknown>) => void;
      warn: (message: string) => void;
    },
  ) {}

  /** Queues an answer; the write starts at once when the batch is full, else after the gathering window. */
  push(ack: QueuedAck): void {
    this.queue.push(ack);
    if (this.writing) return; // the write in progress takes the queue when it is done
    if (this.queue.length >= ACK_BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), ACK_GATHER_MS);
  }

  /** Writes the next batch now (unless one is being written: it takes the queue when done). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) return;
    const batch = this.queue.splice(0, ACK_BATCH);
    if (!batch.length) return;
    this.writing = true;
    const work = writeAckBatch(batch, this.opts.write, (e) => this.opts.warn(`acknowledgement refused on its own: ${(e as Error).message}`)).then(
      async ({ outcomes, finished }) => {
        batch.forEach((b, i) => (outcomes[i] instanceof Error ? b.reject(outcomes[i]) : b.resolve(outcomes[i])));
        await this.opts.afterCommit(finished).catch((e) => this.opts.warn(`command toasts not published: ${(e as Error).message}`));
      },
      (error) => batch.forEach((b) => b.reject(error)),
    );
    this.opts.track(
      work.finally(() => {
        this.writing = false;
        if (this.queue.length) this.flush();
      }),
    );
  }
}
