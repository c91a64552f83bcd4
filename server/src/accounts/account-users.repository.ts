import type { Queryable } from '../database/repository';

/** Who asked for a password reset, before anyone is authenticated: the email as typed. */
export interface ResetAddress {
  readonly email: string;
}

/** The user a checked one-time link belongs to (AccountLinks.lock): whose row is read and changed. */
export interface LinkUser {
  readonly user_cuid: string;
}

export interface ResetUserRow {
  user_cuid: string;
  email: string;
  name: string;
  meta: unknown;
}

export interface PasswordStateRow {
  has_password: boolean;
  inactive: boolean;
  inactivated_by_user_cuid: string | null;
}

/**
 * The user rows accounts recovery reads and sets: the reset lookup is pre-authentication and takes
 * the explicit address asked for (ResetAddress) first; setting a password from a link takes the
 * link's user (LinkUser) first and changes only that row. Every method runs on the data source or
 * the caller's transaction, passed explicitly (`db`): the class is stateless, constructed with
 * `new AccountUsersRepository()`.
 */
export class AccountUsersRepository {
  /** The active user with this address (trimmed, lower case), if any. */
  async activeByEmail(who: ResetAddress, db: Queryable): Promise<ResetUserRow | undefined> {
    const [user] = (await db.query(`SELECT user_cuid, email, name, meta FROM "user" WHERE email = $1 AND NOT inactive`, [
      who.email.trim().toLowerCase(),
    ])) as ResetUserRow[];
    return user;
  }

  /** The user's password state, their row locked (FOR UPDATE) in `tx`. */
  async lockPasswordState(user: LinkUser, tx: Queryable): Promise<PasswordStateRow | undefined> {
    const [row] = (await tx.query(
      `SELECT password IS NOT NULL AS has_password, inactive, inactivated_by_user_cuid FROM "user" WHERE user_cuid = $1 FOR UPDATE`,
      [user.user_cuid],
    )) as PasswordStateRow[];
    return row;
  }

  /** Sets the password hash of an invited user and activates them. */
  async acceptInvitation(user: LinkUser, tx: Queryable, hash: string): Promise<void> {
    await tx.query(`UPDATE "user" SET password = $2, inactive = false, inactivated_at = NULL WHERE user_cuid = $1`, [user.user_cuid, hash]);
  }

  /** Sets the user's password hash. */
  async setPassword(user: LinkUser, tx: Queryable, hash: string): Promise<void> {
    await tx.query(`UPDATE "user" SET password = $2 WHERE user_cuid = $1`, [user.user_cuid, hash]);
  }
}
