import { Inject, Injectable } from '@nestjs/common';
import { DATA_SOURCE } from '../database/database.module';
import type { DataSource } from 'typeorm';
import { SqlRepository } from '../database/repository';

/**
 * Who a login attempt is counted against, before anyone is authenticated: the account name as
 * typed (trimmed, lower case) and the client address (at most 100 characters).
 */
export interface LoginIdentity {
  readonly account: string;
  readonly address: string;
}

/** The acting user whose password changes are counted (their own or, as an admin, others'). */
export interface PasswordChanger {
  readonly user_cuid: string;
}

/** The three login counters over the window, with each one's oldest attempt. */
export interface LoginCounts {
  pair: number;
  account: number;
  address: number;
  pair_oldest: Date | null;
  account_oldest: Date | null;
  address_oldest: Date | null;
}

/**
 * The brakes' memory: login_attempt (the login throttle) and password_change (the password-change
 * brake). Login work is pre-authentication: its methods take the explicit identity being throttled
 * (LoginIdentity: account + address) first and read or change only that identity's rows. Password
 * changes take the acting user (PasswordChanger) first. The locks are transaction-scoped: call them
 * inside `transaction()`. A Nest provider of the auth module, injected into LoginThrottle and
 * PasswordChangeBrake (unit specs pass an in-memory stand-in).
 */
@Injectable()
export class LoginAttemptsRepository extends SqlRepository<LoginAttemptsRepository> {
  /** For the sweeper: deletes the login attempts older than $1. */
  static readonly SWEEP_LOGIN_ATTEMPTS = `DELETE FROM login_attempt WHERE at < $1`;
  /** For the sweeper: deletes the password changes older than $1. */
  static readonly SWEEP_PASSWORD_CHANGES = `DELETE FROM password_change WHERE at < $1`;

  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
  }

  /** Account lock first, then address lock (separate key spaces): no two reservations wait on each other in a cycle. */
  async lockLogin(who: LoginIdentity): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(7101, hashtext($1))`, [who.account]);
    await this.db.query(`SELECT pg_advisory_xact_lock(7102, hashtext($1))`, [who.address]);
  }

  /** The attempts after `since` of this account + address, this account, and this address. */
  async countLogins(who: LoginIdentity, since: Date): Promise<LoginCounts> {
    const [c] = (await this.db.query(
      `SELECT count(*) FILTER (WHERE account = $1 AND address = $2)::int AS pair,
              count(*) FILTER (WHERE account = $1)::int AS account,
              count(*) FILTER (WHERE address = $2)::int AS address,
              min(at) FILTER (WHERE account = $1 AND address = $2) AS pair_oldest,
              min(at) FILTER (WHERE account = $1) AS account_oldest,
              min(at) FILTER (WHERE address = $2) AS address_oldest
         FROM login_attempt
        WHERE (account = $1 OR address = $2) AND at > $3`,
      [who.account, who.address, since],
    )) as LoginCounts[];
    return c;
  }

  async insertLogin(who: LoginIdentity, ticket: string, at: Date): Promise<void> {
    await this.db.query(`INSERT INTO login_attempt (ticket, account, address, at) VALUES ($1, $2, $3, $4)`, [ticket, who.account, who.address, at]);
  }

  /** Deletes the attempt `ticket` and every attempt of this account from this address. */
  async clearLogins(who: LoginIdentity, ticket: string): Promise<void> {
    await this.db.query(`DELETE FROM login_attempt WHERE (ticket = $1 AND account = $2) OR (account = $2 AND address = $3)`, [
      ticket,
      who.account,
      who.address,
    ]);
  }

  /** Deletes the one attempt `ticket` of this account. */
  async deleteLogin(who: LoginIdentity, ticket: string): Promise<void> {
    await this.db.query(`DELETE FROM login_attempt WHERE ticket = $1 AND account = $2`, [ticket, who.account]);
  }

  async lockPasswordChanges(actor: PasswordChanger): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(7103, hashtext($1))`, [actor.user_cuid]);
  }

  /** This user's password changes after `since`, with the oldest. */
  async countPasswordChanges(actor: PasswordChanger, since: Date): Promise<{ n: number; oldest: Date | null }> {
    const [c] = (await this.db.query(`SELECT count(*)::int AS n, min(at) AS oldest FROM password_change WHERE user_cuid = $1 AND at > $2`, [
      actor.user_cuid,
      since,
    ])) as { n: number; oldest: Date | null }[];
    return c;
  }

  async insertPasswordChange(actor: PasswordChanger, change_cuid: string, at: Date): Promise<void> {
    await this.db.query(`INSERT INTO password_change (change_cuid, user_cuid, at) VALUES ($1, $2, $3)`, [change_cuid, actor.user_cuid, at]);
  }
}
