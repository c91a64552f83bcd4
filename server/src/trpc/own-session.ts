import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queryable } from '../database/repository';
import { OwnSessionRepository } from './own-session.repository';

/** The session making the current tRPC mutation, and the epoch to re-issue it at after its own change. */
export interface OwnSessionChange {
  user_cuid: string;
  /** The epoch the session was issued at (checked when the request came in). */
  ep: number;
  /** Set when this mutation alone moved the user's epoch: the session is re-issued at it. */
  renewTo?: number;
}

/** Set around every mutation by the tRPC layer (trpc.ts); read by keepOwnSession. */
export const ownSessionChanges = new AsyncLocalStorage<OwnSessionChange>();

const epochs = new OwnSessionRepository();

/**
 * Runs, inside transaction `tx`, a change that may move `user_cuid`'s session epoch (their password,
 * email or memberships: database triggers). When that user is the one making the request, and the
 * epoch moved only by this change (the user's row is locked first, so nobody else's change can
 * interleave, and it still held the session's epoch before), the session making the request is
 * re-issued afterwards: one's own password change or new company does not sign oneself out, while
 * one's other sessions end as before. Anybody else's change (an admin's reset, a deactivation) still
 * ends every session.
 */
export async function keepOwnSession<T>(tx: Queryable, user_cuid: string, change: () => Promise<T>): Promise<T> {
  const store = ownSessionChanges.getStore();
  if (!store || store.user_cuid !== user_cuid) return change();
  const user = { user_cuid };
  const before = await epochs.epochOf(user, tx, true);
  const result = await change();
  const after = await epochs.epochOf(user, tx, false);
  if (before === store.ep && after !== undefined && after !== before) store.renewTo = after;
  return result;
}
