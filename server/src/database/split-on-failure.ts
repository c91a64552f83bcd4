/**
 * A shared batch never fails for one bad item (CONVENTIONS.md §24, docs/security.md "A shared
 * batch never fails for one bad item"). Many callers' items written (or sent) together fail
 * together when one of them is refused; `splitOnFailure` then writes the halves again, down to
 * single items, so that only an item that fails on its own fails, with its own error, and every
 * other item is written.
 */

/** What became of one item: its write's value, or the error it failed with on its own (or a transient one). */
export type ItemResult<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface SplitOptions {
  /**
   * Errors of the database or the network, not of the data (a lost connection, a deadlock): splitting
   * cannot help, so every item of the failed part fails with it (their senders try again later).
   */
  transient?: (error: unknown) => boolean;
  /** Called once for each item that failed on its own (not for transient failures): logs, metrics. */
  onIsolated?: (error: unknown) => void;
}

/** SQLSTATE classes that say nothing about the data: connection (08), transaction rollback (40), resources (53), operator intervention (57), lock not available (55P03). */
const TRANSIENT_CLASSES = ['08', '40', '53', '57'];

/** The SQLSTATE of a driver or TypeORM error. */
export function sqlState(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** True for a failure of the database or the connection rather than of the items written. */
export function isTransientDatabaseError(error: unknown): boolean {
  const code = sqlState(error);
  if (code) return code === '55P03' || TRANSIENT_CLASSES.some((c) => code.startsWith(c));
  return /ECONNRESET|ECONNREFUSED|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    String((error as Error)?.message ?? ''),
  );
}

/**
 * Runs `write` over `items` (it returns one value per item, in order). When it throws for a reason
 * that is not transient, each half is written again on its own, recursively: the items that fail
 * alone get their own error, every other item its value. A batch with one bad item costs about
 * 2·log2(n) extra writes; a batch that succeeds costs nothing more.
 */
export async function splitOnFailure<T, R>(items: readonly T[], write: (part: T[]) => Promise<R[]>, options: SplitOptions = {}): Promise<ItemResult<R>[]> {
  const transient = options.transient ?? isTransientDatabaseError;
  const run = async (part: T[]): Promise<ItemResult<R>[]> => {
    if (!part.length) return [];
    try {
      const values = await write(part);
      return part.map((_, i) => ({ ok: true as const, value: values[i] }));
    } catch (error) {
      if (transient(error)) return part.map(() => ({ ok: false as const, error }));
      if (part.length === 1) {
        options.onIsolated?.(error);
        return [{ ok: false, error }];
      }
      const half = Math.ceil(part.length / 2);
      // One half after the other: the halves may lock the same rows.
      const first = await run(part.slice(0, half));
      const second = await run(part.slice(half));
      return [...first, ...second];
    }
  };
  return run([...items]);
}
