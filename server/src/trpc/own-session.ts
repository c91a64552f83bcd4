import { AsyncLocalStorage } from 'node:async_hooks';

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

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

async function epochOf(tx: Queryable, user_cuid: string, lock: boolean): Promise<number | undefined> {
  const rows = (await tx.query(`SELECT session_epoch FROM "user" WHERE user_cuid = $1${lock ? ' FOR UPDATE' : ''}`, [user_cuid])) as { session_epoch: number }[];
  return rows[0]?.session_epoch;
}

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
  const before = await epochOf(tx, user_cuid, true);
  const result = await change();
  const after = await epochOf(tx, user_cuid, false);
  if (before === store.ep && after !== undefined && after !== before) store.renewTo = after;
  return result;
}
