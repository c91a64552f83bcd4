import { Inject, Injectable } from '@nestjs/common';
import { DATA_SOURCE } from '../database/database.module';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../database/prepared-statements';
import { SqlRepository } from '../database/repository';
import type { TSessionContext, TUserMeta } from './session.schema';

/**
 * Memberships with their company, user and role, as one SELECT (add WHERE / ORDER BY): the session
 * context and the memberships resource (companies/memberships.repository.ts) read them the same
 * way; membershipFromRow (membership-rows.ts) shapes a row.
 */
export const MEMBERSHIP_SELECT = `
  SELECT m.membership_cuid, m.role_cuid, m.user_cuid, m.company_cuid, m.is_company_admin,
         c.name AS company_name, c.url AS company_url, c.logo AS company_logo,
         u.email, u.name AS user_name, u.phone, u.inactive, u.meta,
         r.name AS role_name, r.level AS role_level, r.description AS role_description
    FROM company_membership m
    JOIN company c ON c.company_cuid = m.company_cuid
    JOIN "user" u ON u.user_cuid = m.user_cuid
    JOIN role r ON r.role_cuid = m.role_cuid`;

/** A row of MEMBERSHIP_SELECT (shaped by membershipFromRow). */
export interface MembershipRow {
  membership_cuid: string;
  role_cuid: string;
  user_cuid: string;
  company_cuid: string;
  is_company_admin: boolean;
  company_name: string;
  company_url: string | null;
  company_logo: string | null;
  email: string;
  user_name: string;
  phone: string | null;
  inactive: boolean;
  meta: TUserMeta | null;
  role_name: string;
  role_level: number;
  role_description: string | null;
}

/** The user a session belongs to: whose rows a session method reads or changes. */
export interface SessionOwner {
  readonly user_cuid: string;
}

/** One session: its user and its id. */
export interface SessionKey extends SessionOwner {
  readonly sid: string;
}

/** Who is signing in, before anyone is authenticated: the email as typed. */
export interface SignInIdentity {
  readonly email: string;
}

export interface SessionUserRow {
  user_cuid: string;
  email: string;
  name: string;
  phone: string | null;
  inactive: boolean;
  meta: TUserMeta | null;
  session_epoch: number;
}

export interface SignInUserRow {
  user_cuid: string;
  email: string;
  password: string | null;
  inactive: boolean;
}

export interface RevocationRow {
  user_cuid: string;
  sid: string;
  inactive: boolean;
  session_epoch: number;
  revoked: boolean;
}

/**
 * The session's SQL: the user, memberships and blacklists a session context is built from, the
 * revocation check and logout. Session methods take the session's owner (SessionOwner / SessionKey)
 * first and read only that user's rows; the sign-in lookup is pre-authentication and takes the
 * explicit identity being checked (SignInIdentity: the email) first. A Nest provider of the auth
 * module, injected into the services that use it (unit specs pass an in-memory stand-in).
 */
@Injectable()
export class SessionsRepository extends SqlRepository<SessionsRepository> {
  /** For the sweeper: deletes the revoked sessions that expired before $1. */
  static readonly SWEEP_REVOKED_SESSIONS = `DELETE FROM revoked_session WHERE expires_at < $1`;
  private readonly prepared: PreparedStatements;

  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
    this.prepared = new PreparedStatements(ds);
  }

  /** The user with this email (any case), with the password hash, for the password check. */
  async signInUser(who: SignInIdentity): Promise<SignInUserRow | undefined> {
    const [user] = (await this.db.query(`SELECT user_cuid, email, password, inactive FROM "user" WHERE email = lower($1)`, [
      who.email.trim(),
    ])) as SignInUserRow[];
    return user;
  }

  async user(owner: SessionOwner): Promise<SessionUserRow | undefined> {
    const [user] = (await this.db.query(`SELECT user_cuid, email, name, phone, inactive, meta, session_epoch FROM "user" WHERE user_cuid = $1`, [
      owner.user_cuid,
    ])) as SessionUserRow[];
    return user;
  }

  /** The user's memberships as MEMBERSHIP_SELECT rows, by role level then company name. */
  async memberships(owner: SessionOwner): Promise<MembershipRow[]> {
    return (await this.db.query(`${MEMBERSHIP_SELECT} WHERE m.user_cuid = $1 ORDER BY r.level, c.name`, [owner.user_cuid])) as MembershipRow[];
  }

  /** The user's notification blacklist entries still in force. */
  async notificationBlacklist(owner: SessionOwner): Promise<TSessionContext['notificationBlacklist']> {
    return (await this.db.query(
      `SELECT blacklist_cuid, user_cuid, trigger_cuid,
              to_char(until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS until
         FROM notification_user_blacklist WHERE user_cuid = $1 AND (until IS NULL OR until > now())`,
      [owner.user_cuid],
    )) as TSessionContext['notificationBlacklist'];
  }

  async portalNotificationBlacklist(owner: SessionOwner): Promise<TSessionContext['portalNotificationBlacklist']> {
    return (await this.db.query(
      `SELECT blacklist_cuid, user_cuid, system_cuid, notification_type::text AS notification_type
         FROM portal_notification_user_blacklist WHERE user_cuid = $1`,
      [owner.user_cuid],
    )) as TSessionContext['portalNotificationBlacklist'];
  }

  /**
   * The revocation state of many sessions at once (the hot path: batched, a prepared statement on
   * PostgreSQL): each session's user's inactive flag and epoch, and whether that session id was
   * signed out. A session whose user is gone has no row.
   */
  async revocationStates(sessions: readonly SessionKey[]): Promise<RevocationRow[]> {
    return this.prepared.query<RevocationRow>(
      'session-revocation-check',
      `SELECT k.user_cuid, k.sid, u.inactive, u.session_epoch, (r.sid IS NOT NULL) AS revoked
         FROM unnest($1::varchar[], $2::varchar[]) AS k(user_cuid, sid)
         JOIN "user" u ON u.user_cuid = k.user_cuid
         LEFT JOIN revoked_session r ON r.sid = k.sid`,
      [sessions.map((k) => k.user_cuid), sessions.map((k) => k.sid)],
    );
  }

  /** Whether this session id of this user was signed out. */
  async isRevoked(session: SessionKey): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM revoked_session WHERE sid = $1 AND user_cuid = $2`, [session.sid, session.user_cuid]);
    return rows.length > 0;
  }

  /** Signs this session out until `expiresAtSeconds` (its cookie's expiry, Unix seconds); a second call changes nothing. */
  async revoke(session: SessionKey, expiresAtSeconds: number): Promise<void> {
    await this.db.query(
      `INSERT INTO revoked_session (sid, user_cuid, expires_at) VALUES ($1, $2, to_timestamp($3))
       ON CONFLICT (sid) DO NOTHING`,
      [session.sid, session.user_cuid, expiresAtSeconds],
    );
  }
}
