import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { newCuid } from '../common/ids';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import { OldRowsSweeper } from '../database/old-rows-sweeper';

const HOUR_MS = 3600_000;

/**
 * The "forgot password" brake, kept in the database (table account_request) like the login brake,
 * so every instance counts the same requests: at most RESET_REQUESTS_PER_HOUR for one email and
 * RESET_REQUESTS_PER_ADDRESS_PER_HOUR from one client address over the last hour. Every request is
 * counted the same way whether its address belongs to an account or not (the count itself tells
 * nothing). A request past a ceiling is not counted and sends nothing; its answer stays the same.
 */
@Injectable()
export class ResetThrottle implements OnModuleDestroy {
  private readonly logger = new Logger('Accounts');
  private readonly sweeper: OldRowsSweeper;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {
    this.sweeper = new OldRowsSweeper(ds, this.logger, 'old password reset requests', `DELETE FROM account_request WHERE at < $1`, () => new Date(Date.now() - HOUR_MS), 10 * 60 * 1000);
  }

  onModuleDestroy(): void {
    this.sweeper.stop();
  }

  /** Counts one request; false when a ceiling is reached (nothing is counted then). */
  async admit(email: string, clientAddress: string, now = Date.now()): Promise<boolean> {
    const account = email.trim().toLowerCase().slice(0, 320);
    const address = clientAddress.slice(0, 100);
    return this.ds.transaction(async (tx) => {
      // Same lock order as the login brake (account first, then address), in their own key spaces.
      await tx.query(`SELECT pg_advisory_xact_lock(7201, hashtext($1))`, [account]);
      await tx.query(`SELECT pg_advisory_xact_lock(7202, hashtext($1))`, [address]);
      const [c] = (await tx.query(
        `SELECT count(*) FILTER (WHERE account = $1)::int AS account, count(*) FILTER (WHERE address = $2)::int AS address
           FROM account_request WHERE (account = $1 OR address = $2) AND at > $3`,
        [account, address, new Date(now - HOUR_MS)],
      )) as { account: number; address: number }[];
      if (c.account >= this.config.RESET_REQUESTS_PER_HOUR || c.address >= this.config.RESET_REQUESTS_PER_ADDRESS_PER_HOUR) return false;
      await tx.query(`INSERT INTO account_request (request_cuid, account, address, at) VALUES ($1, $2, $3, $4)`, [newCuid(), account, address, new Date(now)]);
      return true;
    });
  }
}
