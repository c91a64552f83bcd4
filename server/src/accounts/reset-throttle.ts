import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { newCuid } from '../common/ids';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import { OldRowsSweeper } from '../database/old-rows-sweeper';
import { AccountRequestsRepository } from './account-requests.repository';

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
    @Inject(DATA_SOURCE) ds: DataSource,
    private readonly config: AppConfig,
    private readonly requests: AccountRequestsRepository,
  ) {
    this.sweeper = new OldRowsSweeper(
      ds,
      this.logger,
      'old password reset requests',
      AccountRequestsRepository.SWEEP_ACCOUNT_REQUESTS,
      () => new Date(Date.now() - HOUR_MS),
      10 * 60 * 1000,
    );
  }

  onModuleDestroy(): void {
    this.sweeper.stop();
  }

  /** Counts one request; false when a ceiling is reached (nothing is counted then). */
  async admit(email: string, clientAddress: string, now = Date.now()): Promise<boolean> {
    const account = email.trim().toLowerCase().slice(0, 320);
    const address = clientAddress.slice(0, 100);
    const who = { account, address };
    return this.requests.transaction(async (rows) => {
      await rows.lock(who);
      const c = await rows.count(who, new Date(now - HOUR_MS));
      if (c.account >= this.config.RESET_REQUESTS_PER_HOUR || c.address >= this.config.RESET_REQUESTS_PER_ADDRESS_PER_HOUR) return false;
      await rows.insert(who, newCuid(), new Date(now));
      return true;
    });
  }
}
