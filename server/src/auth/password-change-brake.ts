import { Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { AppConfig } from '../config/config';

/**
 * Setting a password costs an argon2 hash (64 MiB, about a tenth of a second of a core): a user
 * may set at most PASSWORD_CHANGES_PER_MINUTE passwords a minute (their own or, as an admin,
 * others'), counted per acting user before any hashing. In memory per instance.
 */
@Injectable()
export class PasswordChangeBrake {
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly config: AppConfig) {}

  /** Counts one password change by this user, or throws TOO_MANY_REQUESTS (429). */
  admit(user_cuid: string, now = Date.now()): void {
    const windowStart = now - 60_000;
    const list = (this.recent.get(user_cuid) ?? []).filter((t) => t > windowStart);
    if (list.length >= this.config.PASSWORD_CHANGES_PER_MINUTE) {
      this.recent.set(user_cuid, list);
      const retryAfter = Math.max(1, Math.ceil((list[0] + 60_000 - now) / 1000));
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `Too many password changes; try again in ${retryAfter} s` });
    }
    list.push(now);
    this.recent.set(user_cuid, list);
    if (this.recent.size > 10_000) {
      for (const [key, times] of this.recent) if (!times.some((t) => t > windowStart)) this.recent.delete(key);
    }
  }
}
