import type { ValidatedBatch } from './ingest-validator';
import type { TRejectedRow } from './telemetry.schema';
import { type FlushInput, type InsertedBySegment, isForeignKeyViolation, isRetryable, pgCode } from './telemetry-writer.service';

export interface SubmissionResult {
  accepted: number;
  duplicates: number;
  /** The submission's refused rows (more than at submission if a device vanished meanwhile). */
  rejected: TRejectedRow[];
}

export interface BatcherOptions {
  /** Flush when a shard holds this many rows … */
  maxRows: number;
  /** … or when its oldest row has waited this long. */
  maxWaitMs: number;
  /** Independent flush lanes; a controller always uses the same one. */
  shards: number;
}

type WriteFn = (input: FlushInput) => Promise<{ rows: InsertedBySegment; standard: InsertedBySegment; states: InsertedBySegment }>;
/** Checks submissions again after a foreign-key violation (a device removed meanwhile). */
type RevalidateFn = (batch: ValidatedBatch) => Promise<ValidatedBatch>;

interface Pending {
  batch: ValidatedBatch;
  size: number;
  resolve(result: SubmissionResult): void;
  reject(error: unknown): void;
}

interface Shard {
  pending: Pending[];
  rows: number;
  oldest: number;
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
}

const sizeOf = (b: ValidatedBatch): number => b.rows.length + b.standard.length + b.states.length;

function shardOf(controller_id: string, shards: number): number {
  let h = 0;
  for (let i = 0; i < controller_id.length; i++) h = (Math.imul(h, 31) + controller_id.charCodeAt(i)) | 0;
  return Math.abs(h) % shards;
}

/**
 * Buffers validated submissions and writes them in batches: a shard flushes when it holds
 * `maxRows` rows or its oldest row waited `maxWaitMs`, one flush at a time per shard. Each
 * submission's promise settles only after the transaction holding its rows committed (so the
 * caller acknowledges stored data only). A controller always lands in the same shard, so
 * concurrent flushes never lock the same device rows (foreign keys) or rollup keys.
 */
export class IngestBatcher {
  private readonly shards: Shard[];
  private closed = false;

  constructor(
    private readonly write: WriteFn,
    private readonly revalidate: RevalidateFn,
    private readonly options: BatcherOptions,
  ) {
    this.shards = Array.from({ length: Math.max(1, options.shards) }, () => ({ pending: [], rows: 0, oldest: 0 }));
  }

  submit(batch: ValidatedBatch): Promise<SubmissionResult> {
    const size = sizeOf(batch);
    if (size === 0) return Promise.resolve({ accepted: 0, duplicates: 0, rejected: batch.rejected });
    if (this.closed) return Promise.reject(new Error('ingest is shutting down'));
    const shard = this.shards[shardOf(batch.controller_id, this.shards.length)];
    return new Promise<SubmissionResult>((resolve, reject) => {
      if (!shard.pending.length) shard.oldest = Date.now();
      shard.pending.push({ batch, size, resolve, reject });
      shard.rows += size;
      this.schedule(shard);
    });
  }

  /** Rows waiting (not yet in a flush). */
  get backlog(): number {
    return this.shards.reduce((n, s) => n + s.rows, 0);
  }

  /** Writes everything pending and waits for it (shutdown). */
  async drain(): Promise<void> {
    this.closed = true;
    for (;;) {
      const busy = this.shards.filter((s) => s.flushing !== undefined || s.pending.length > 0);
      if (!busy.length) return;
      for (const s of busy) {
        if (!s.flushing && s.pending.length) this.flush(s);
      }
      await Promise.all(busy.map((s) => s.flushing ?? Promise.resolve()));
    }
  }

  private schedule(shard: Shard): void {
    if (shard.flushing) return; // the running flush looks again when it ends
    const waited = Date.now() - shard.oldest;
    if (shard.rows >= this.options.maxRows || waited >= this.options.maxWaitMs) {
      if (shard.timer) clearTimeout(shard.timer);
      shard.timer = undefined;
      this.flush(shard);
    } else if (!shard.timer) {
      shard.timer = setTimeout(() => {
        shard.timer = undefined;
        if (!shard.flushing && shard.pending.length) this.flush(shard);
      }, this.options.maxWaitMs - waited);
    }
  }

  private flush(shard: Shard): void {
    // One submission per controller per flush (the writer counts inserted rows per device);
    // a controller's later submissions wait for the next flush, in order.
    const taken: Pending[] = [];
    const controllers = new Set<string>();
    const kept: Pending[] = [];
    let rows = 0;
    for (const p of shard.pending) {
      const fits = taken.length === 0 || rows + p.size <= this.options.maxRows;
      if (fits && !controllers.has(p.batch.controller_id)) {
        taken.push(p);
        controllers.add(p.batch.controller_id);
        rows += p.size;
      } else {
        kept.push(p);
      }
      if (rows >= this.options.maxRows) {
        kept.push(...shard.pending.slice(shard.pending.indexOf(p) + 1));
        break;
      }
    }
    shard.pending = kept;
    shard.rows -= rows;
    if (shard.pending.length) shard.oldest = Date.now();
    shard.flushing = this.run(taken).finally(() => {
      shard.flushing = undefined;
      if (shard.pending.length) this.schedule(shard);
    });
  }

  private async run(taken: Pending[]): Promise<void> {
    try {
      await this.writeAndSettle(taken);
    } catch (error) {
      if (taken.length === 1 || isRetryable(error)) {
        // Transient (the database, not the data): every sender tries again later.
        for (const p of taken) p.reject(taken.length === 1 ? asRefusal(error) : error);
        return;
      }
      // One submission broke the shared transaction: write each alone, so that only the
      // submission that fails by itself answers with an error and the others are stored.
      for (const p of taken) {
        try {
          await this.writeAndSettle([p]);
        } catch (own) {
          p.reject(asRefusal(own));
        }
      }
    }
  }

  /** Writes the submissions in one transaction (checking them again after a foreign-key violation) and resolves them. */
  private async writeAndSettle(taken: Pending[]): Promise<void> {
    let result;
    try {
      result = await this.write(toFlushInput(taken.map((p) => p.batch)));
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      // A device or parameter disappeared after the check: check again and write what is still valid.
      for (const p of taken) {
        p.batch = await this.revalidate(p.batch);
        p.size = sizeOf(p.batch);
      }
      result = await this.write(toFlushInput(taken.map((p) => p.batch)));
    }
    taken.forEach((p, seg) => {
      const accepted = (result.rows.get(seg) ?? 0) + (result.standard.get(seg) ?? 0) + (result.states.get(seg) ?? 0);
      p.resolve({ accepted, duplicates: sizeOf(p.batch) - accepted, rejected: p.batch.rejected });
    });
  }
}

/**
 * A submission the database refuses for its own content (a data exception or a constraint, SQL
 * class 22 or 23): sending it again cannot help, so its sender is told so (not "try later").
 */
export class SubmissionRefused extends Error {
  constructor(readonly cause: unknown) {
    super(`refused by the database: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

function asRefusal(error: unknown): unknown {
  const code = pgCode(error);
  return code && (code.startsWith('22') || code.startsWith('23')) ? new SubmissionRefused(error) : error;
}

function toFlushInput(batches: ValidatedBatch[]): FlushInput {
  const input: FlushInput = { rows: [], standard: [], states: [] };
  batches.forEach((b, seg) => {
    for (const row of b.rows) input.rows.push({ seg, row });
    for (const row of b.standard) input.standard.push({ seg, row });
    for (const row of b.states) input.states.push({ seg, row });
  });
  return input;
}
