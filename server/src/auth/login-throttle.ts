import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';

export type ThrottleVerdict = { blocked: true; retryAfterSeconds: number } | { blocked: false; delayMs: number };

/**
 * Brute-force brake for logins, per account and per client address: the first failures are
 * free, then each further attempt waits twice as long (250 ms, 500 ms … up to 8 s), and past the
 * ceiling the answer is 429 with Retry-After until the oldest failure leaves the window.
 * Kept in memory per instance: behind a load balancer each instance brakes on its own.
 */
@Injectable()
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private static readonly MAX_KEYS = 100_000;

  constructor(private readonly config: AppConfig) {}

  private recent(key: string, now: number): number[] {
    const windowStart = now - this.config.LOGIN_WINDOW_SECONDS * 1000;
    const list = (this.failures.get(key) ?? []).filter((t) => t > windowStart);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  verdict(email: string, address: string, now = Date.now()): ThrottleVerdict {
    const account = this.recent(`a:${email.toLowerCase()}`, now);
    const ip = this.recent(`i:${address}`, now);
    const windowMs = this.config.LOGIN_WINDOW_SECONDS * 1000;
    const overAccount = account.length >= this.config.LOGIN_MAX_ATTEMPTS_PER_ACCOUNT;
    const overIp = ip.length >= this.config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS;
    if (overAccount || overIp) {
      const oldest = Math.min(...(overAccount ? [account[0]] : []), ...(overIp ? [ip[0]] : []));
      return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    const extra = Math.max(account.length, ip.length - this.config.LOGIN_MAX_ATTEMPTS_PER_ACCOUNT) - this.config.LOGIN_FREE_ATTEMPTS;
    return { blocked: false, delayMs: extra < 0 ? 0 : Math.min(250 * 2 ** extra, 8000) };
  }

  fail(email: string, address: string, now = Date.now()): void {
    if (this.failures.size > LoginThrottle.MAX_KEYS) this.prune(now);
    for (const key of [`a:${email.toLowerCase()}`, `i:${address}`]) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
  }

  succeed(email: string): void {
    this.failures.delete(`a:${email.toLowerCase()}`);
  }

  private prune(now: number): void {
    for (const key of [...this.failures.keys()]) this.recent(key, now);
  }
}
