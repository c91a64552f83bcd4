import { Inject, Injectable } from '@nestjs/common';
import { DATA_SOURCE } from '../database/database.module';
import type { DataSource } from 'typeorm';
import { SqlRepository } from '../database/repository';

/**
 * Who a "forgot password" request is counted against, before anyone is authenticated: the email
 * asked for (trimmed, lower case, at most 320 characters) and the client address (at most 100).
 */
export interface ResetRequester {
  readonly account: string;
  readonly address: string;
}

/**
 * The reset brake's memory (table account_request). Pre-authentication: every method takes the
 * explicit identity being throttled (ResetRequester) first and reads or adds only its rows. The
 * locks are transaction-scoped: call them inside `transaction()`. A Nest provider of the accounts
 * module.
 */
@Injectable()
export class AccountRequestsRepository extends SqlRepository<AccountRequestsRepository> {
  /** For the sweeper: deletes the requests older than $1. */
  static readonly SWEEP_ACCOUNT_REQUESTS = `DELETE FROM account_request WHERE at < $1`;

  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
  }

  /** Same lock order as the login brake (account first, then address), in their own key spaces. */
  async lock(who: ResetRequester): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(7201, hashtext($1))`, [who.account]);
    await this.db.query(`SELECT pg_advisory_xact_lock(7202, hashtext($1))`, [who.address]);
  }

  /** The requests after `since` for this email and from this address. */
  async count(who: ResetRequester, since: Date): Promise<{ account: number; address: number }> {
    const [c] = (await this.db.query(
      `SELECT count(*) FILTER (WHERE account = $1)::int AS account, count(*) FILTER (WHERE address = $2)::int AS address
         FROM account_request WHERE (account = $1 OR address = $2) AND at > $3`,
      [who.account, who.address, since],
    )) as { account: number; address: number }[];
    return c;
  }

  async insert(who: ResetRequester, request_cuid: string, at: Date): Promise<void> {
    await this.db.query(`INSERT INTO account_request (request_cuid, account, address, at) VALUES ($1, $2, $3, $4)`, [
      request_cuid,
      who.account,
      who.address,
      at,
    ]);
  }
}
