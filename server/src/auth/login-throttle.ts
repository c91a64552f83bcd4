import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { newCuid } from '../common/ids';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import { OldRowsSweeper } from '../database/old-rows-sweeper';
import { LoginAttemptsRepository } from './login-attempts.repository';

/** One login attempt counted ahead of its password check (see reserve). */
export interface LoginTicket {
  readonly ticket: string;
  readonly account: string;
  readonly address: string;
}

export type ThrottleVerdict = { blocked: true; retryAfterSeconds: number } | { blocked: false; delayMs: number; ticket: LoginTicket };

/**
 * Brute-force brake for logins, kept in the database (table login_attempt) so that every
 * instance behind a load balancer counts the same attempts. Every attempt is counted (reserved)
 * before its password is checked, under advisory locks on its account and address, so concurrent
 * guesses cannot all pass the check at once; a success takes its own attempt back and clears that
 * address's failures for the account.
 *
 * Three counters over a sliding window (LOGIN_WINDOW_SECONDS):
 * - account + address (LOGIN_MAX_ATTEMPTS_PER_ACCOUNT): the lock an attacker meets. It is per
 *   address so that knowing someone's email does not lock its owner out: the owner, from an
 *   address without failures for the account, still signs in;
 * - address (LOGIN_MAX_ATTEMPTS_PER_ADDRESS): one address guessing across many accounts;
 * - account over all addresses (LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL, much larger): guesses spread
 *   over many addresses still meet a ceiling (then the owner waits too, as the price of that attack).
 * The first failures are free, then each further attempt waits twice as long (250 ms … 8 s), and
 * past a ceiling the answer is 429 with Retry-After until the oldest attempt leaves the window.
 */
@Injectable()
export class LoginThrottle implements OnModuleDestroy {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly sweeper: OldRowsSweeper;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly attempts: LoginAttemptsRepository,
  ) {
    this.sweeper = new OldRowsSweeper(
      ds,
      this.logger,
      'old login attempts',
      LoginAttemptsRepository.SWEEP_LOGIN_ATTEMPTS,
      () => new Date(Date.now() - this.config.LOGIN_WINDOW_SECONDS * 1000),
    );
  }

  onModuleDestroy(): void {
    this.sweeper.stop();
  }

  /** Counts an attempt before the password is checked; a blocked attempt counts nothing. */
  async reserve(email: string, clientAddress: string, now = Date.now()): Promise<ThrottleVerdict> {
    const account = email.trim().toLowerCase();
    const address = clientAddress.slice(0, 100);
    const windowMs = this.config.LOGIN_WINDOW_SECONDS * 1000;
    const { LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: perPair, LOGIN_MAX_ATTEMPTS_PER_ADDRESS: perIp, LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL: perAccount } = this.config;
    const who = { account, address };
    return this.attempts.transaction(async (rows) => {
      await rows.lockLogin(who);
      const c = await rows.countLogins(who, new Date(now - windowMs));
      const full = [
        c.pair >= perPair ? c.pair_oldest : null,
        c.address >= perIp ? c.address_oldest : null,
        c.account >= perAccount ? c.account_oldest : null,
      ].filter((d): d is Date => d !== null);
      if (full.length) {
        const oldest = Math.min(...full.map((d) => new Date(d).getTime()));
        return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) } as const;
      }
      const ticket = newCuid();
      await rows.insertLogin(who, ticket, new Date(now));
      const extra = Math.max(c.pair, c.address - perPair) - this.config.LOGIN_FREE_ATTEMPTS;
      return { blocked: false, delayMs: extra < 0 ? 0 : Math.min(250 * 2 ** extra, 8000), ticket: { ticket, account, address } } as const;
    });
  }

  /** The password was right: the attempt is given back and the address's failures for the account cleared. */
  async succeed(ticket: LoginTicket): Promise<void> {
    await this.attempts.clearLogins(ticket, ticket.ticket);
  }

  /** The attempt ended without a password verdict (an error, an inactive account): it is given back. */
  async release(ticket: LoginTicket): Promise<void> {
    await this.attempts.deleteLogin(ticket, ticket.ticket);
  }
}
