import type { Queryable } from '../database/repository';

/** The user whose own session keepOwnSession may re-issue. */
export interface SessionUser {
  readonly user_cuid: string;
}

/**
 * keepOwnSession's SQL: the session epoch of the user making the request, read inside the
 * caller's transaction (passed explicitly: it has no data source of its own, so it is stateless
 * and constructed with `new OwnSessionRepository()`). Takes that user first and reads only their row.
 */
export class OwnSessionRepository {
  /** The user's session epoch; `lock` locks their row until the transaction ends. undefined when the user is gone. */
  async epochOf(user: SessionUser, tx: Queryable, lock: boolean): Promise<number | undefined> {
    const rows = (await tx.query(`SELECT session_epoch FROM "user" WHERE user_cuid = $1${lock ? ' FOR UPDATE' : ''}`, [user.user_cuid])) as {
      session_epoch: number;
    }[];
    return rows[0]?.session_epoch;
  }
}
