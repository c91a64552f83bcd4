import { CommandAckError } from '../../gateway/command-link';
import { isTransientDatabaseError, splitOnFailure, sqlState } from '../../database/split-on-failure';
import { knownDatabaseError } from '../../trpc/errors';
import type { AckOutcome } from './command-inbox';

/**
 * The acknowledgement batch isolates its items (docs/security.md, "A shared batch never fails for
 * one bad item"): many controllers' answers share one transaction; when the database refuses it
 * for one answer's content, the batch is written again in halves, so that only that answer is
 * refused (400 to its controller, with the reason) and every other one is stored. A transient
 * failure (connection, deadlock) still fails them all: their controllers send again.
 */
export async function writeAckBatch<Q, F>(
  batch: readonly Q[],
  write: (part: Q[]) => Promise<{ outcomes: (AckOutcome | CommandAckError)[]; finished: F[] }>,
  onIsolated?: (error: unknown) => void,
): Promise<{ outcomes: (AckOutcome | Error)[]; finished: F[] }> {
  const finished: F[] = [];
  const results = await splitOnFailure(
    batch,
    async (part) => {
      const written = await write(part);
      // Committed: its finished commands get their changelog toasts.
      finished.push(...written.finished);
      return written.outcomes;
    },
    { onIsolated },
  );
  const outcomes = results.map((r) => (r.ok ? r.value : isolatedRefusal(r.error)));
  return { outcomes, finished };
}

/** The refusal of one acknowledgement the database would not store; a transient error stays as it is (the transports answer "try again"). */
function isolatedRefusal(error: unknown): Error {
  if (error instanceof CommandAckError) return error;
  if (isTransientDatabaseError(error)) return error as Error;
  // The content's fault (SQLSTATE classes 22 data exception, 23 constraint): sending it again cannot help.
  const code = sqlState(error);
  const known = knownDatabaseError(code);
  if (!code || !/^2[23]/.test(code) || !known) return error instanceof Error ? error : new Error(String(error));
  return new CommandAckError(400, 'BAD_REQUEST', `The acknowledgement cannot be stored: ${known.message}`);
}
