import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { DataSource } from 'typeorm';
import { newCuid } from '../common/ids';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import { OldRowsSweeper } from '../database/old-rows-sweeper';
import { LoginAttemptsRepository } from './login-attempts.repository';

const WINDOW_MS = 60_000;

/**
 * Setting a password costs an argon2 hash (64 MiB, about a tenth of a second of a core): a user
 * may set at most PASSWORD_CHANGES_PER_MINUTE passwords a minute (their own or, as an admin,
 * others'), counted per acting user before any hashing. Kept in the database (table
 * password_change) so every instance behind the load balancer counts the same changes; a
 * transaction-scoped advisory lock per user makes concurrent changes count one after the other.
 */
@Injectable()
export class PasswordChangeBrake implements OnModuleDestroy {
  private readonly logger = new Logger(PasswordChangeBrake.name);
  private readonly sweeper: OldRowsSweeper;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly changes: LoginAttemptsRepository,
  ) {
    this.sweeper = new OldRowsSweeper(
      ds,
      this.logger,
      'old password changes',
      LoginAttemptsRepository.SWEEP_PASSWORD_CHANGES,
      () => new Date(Date.now() - WINDOW_MS),
    );
  }

  onModuleDestroy(): void {
    this.sweeper.stop();
  }

  /** Counts one password change by this user, or throws TOO_MANY_REQUESTS (429). */
  async admit(user_cuid: string, now = Date.now()): Promise<void> {
    const limit = this.config.PASSWORD_CHANGES_PER_MINUTE;
    const actor = { user_cuid };
    const retryAfter = await this.changes.transaction(async (rows) => {
      await rows.lockPasswordChanges(actor);
      const c = await rows.countPasswordChanges(actor, new Date(now - WINDOW_MS));
      if (c.n >= limit) return Math.max(1, Math.ceil((new Date(c.oldest ?? now).getTime() + WINDOW_MS - now) / 1000));
      await rows.insertPasswordChange(actor, newCuid(), new Date(now));
      return 0;
    });
    if (retryAfter) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `Too many password changes; try again in ${retryAfter} s` });
  }
}
