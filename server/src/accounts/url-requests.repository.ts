import type { Queryable } from '../database/repository';
import type { SystemJob } from '../common/system-job';

/** The user whose one-time account links are written or dropped. */
export interface LinkOwner {
  readonly user_cuid: string;
}

/** One link, named by the token given out (pre-authentication: whoever holds the token). */
export interface LinkToken {
  readonly token_cuid: string;
}

/** A background job's identity (the hourly sweep of expired links). */
export interface LinkSweepJob extends SystemJob {
  readonly job: 'account-links-sweep';
}

/** What a link row holds (url_request.data), as stored: checked by AccountLinks. */
export interface LinkRow {
  data: { kind?: unknown; user_cuid?: unknown; email?: unknown; secret_sha256?: unknown };
  expired: boolean;
  /** The account's address now (null: no such user). */
  current_email: string | null;
}

/**
 * The account links' SQL (table url_request, the rows whose data->>'kind' is one of `kinds`).
 * Writing and dropping take the link's owner first; reading and using a link are
 * pre-authentication and take the explicit token (LinkToken) first; the sweep takes its job's
 * identity. Every method runs on the data source or the caller's transaction, passed explicitly
 * (`db`): the class is stateless, constructed with `new UrlRequestsRepository()`.
 */
export class UrlRequestsRepository {
  /** Deletes every link of `kinds` of the user. */
  async deleteOfUser(owner: LinkOwner, db: Queryable, kinds: readonly string[]): Promise<void> {
    await db.query(`DELETE FROM url_request WHERE data->>'kind' = ANY($1::text[]) AND data->>'user_cuid' = $2`, [kinds, owner.user_cuid]);
  }

  /** Adds a link of the user, live for `ttlSeconds`; `data` must name the owner (data.user_cuid). */
  async insert(
    owner: LinkOwner,
    db: Queryable,
    link: LinkToken,
    data: { kind: string; email: string; secret_sha256: string },
    ttlSeconds: number,
  ): Promise<void> {
    await db.query(`INSERT INTO url_request (token_cuid, data, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
      link.token_cuid,
      JSON.stringify({ kind: data.kind, user_cuid: owner.user_cuid, email: data.email, secret_sha256: data.secret_sha256 }),
      ttlSeconds,
    ]);
  }

  /** The link row of a token with its owner's current address, locked (FOR UPDATE) when `lock`; any kind (the caller checks). */
  async read(link: LinkToken, db: Queryable, lock: boolean): Promise<LinkRow | undefined> {
    const [row] = (await db.query(
      `SELECT r.data, r.expires_at <= now() AS expired, u.email AS current_email
         FROM url_request r LEFT JOIN "user" u ON u.user_cuid = r.data->>'user_cuid'
        WHERE r.token_cuid = $1${lock ? ' FOR UPDATE OF r' : ''}`,
      [link.token_cuid],
    )) as LinkRow[];
    return row;
  }

  /** Deletes one link (used). */
  async delete(link: LinkToken, db: Queryable): Promise<void> {
    await db.query(`DELETE FROM url_request WHERE token_cuid = $1`, [link.token_cuid]);
  }

  /** Deletes the expired links of `kinds`, everybody's: the sweep. */
  async deleteExpired(_job: LinkSweepJob, db: Queryable, kinds: readonly string[]): Promise<void> {
    await db.query(`DELETE FROM url_request WHERE data->>'kind' = ANY($1::text[]) AND expires_at < now()`, [kinds]);
  }
}
