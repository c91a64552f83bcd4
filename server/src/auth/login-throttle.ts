import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';

/** One login attempt counted ahead of its password check (see reserve). */
export interface LoginTicket {
  readonly keys: readonly string[];
  readonly pair: string;
  readonly at: number;
}

export type ThrottleVerdict = { blocked: true; retryAfterSeconds: number } | { blocked: false; delayMs: number; ticket: LoginTicket };

/**
 * Brute-force brake for logins. Every attempt is counted (reserved) before its password is
 * checked, so concurrent guesses cannot all pass the check at once; a success takes its own
 * attempt back and clears that address's failures for the account.
 *
 * Three counters over a sliding window:
 * - account + address (LOGIN_MAX_ATTEMPTS_PER_ACCOUNT): the lock an attacker meets. It is per
 *   address so that knowing someone's email does not lock its owner out: the owner, from an
 *   address without failures for the account, still signs in;
 * - address (LOGIN_MAX_ATTEMPTS_PER_ADDRESS): one address guessing across many accounts;
 * - account over all addresses (LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL, much larger): guesses spread
 *   over many addresses still meet a ceiling (then the owner waits too, as the price of that attack).
 * The first failures are free, then each further attempt waits twice as long (250 ms … 8 s), and
 * past a ceiling the answer is 429 with Retry-After until the oldest attempt leaves the window.
 * Kept in memory per instance: behind a load balancer each instance brakes on its own.
 */
@Injectable()
export class LoginThrottle {
  private readonly attempts = new Map<string, number[]>();
  private static readonly MAX_KEYS = 100_000;

  constructor(private readonly config: AppConfig) {}

  private recent(key: string, now: number): number[] {
    const windowStart = now - this.config.LOGIN_WINDOW_SECONDS * 1000;
    const list = (this.attempts.get(key) ?? []).filter((t) => t > windowStart);
    if (list.length) this.attempts.set(key, list);
    else this.attempts.delete(key);
    return list;
  }

  private static keys(email: string, address: string) {
    const account = email.trim().toLowerCase();
    return { pair: `p:${account}\u0000${address}`, account: `a:${account}`, address: `i:${address}` };
  }

  /** Counts an attempt before the password is checked; a blocked attempt counts nothing. */
  reserve(email: string, address: string, now = Date.now()): ThrottleVerdict {
    if (this.attempts.size > LoginThrottle.MAX_KEYS) this.prune(now);
    const keys = LoginThrottle.keys(email, address);
    const pair = this.recent(keys.pair, now);
    const account = this.recent(keys.account, now);
    const ip = this.recent(keys.address, now);
    const { LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: perPair, LOGIN_MAX_ATTEMPTS_PER_ADDRESS: perIp, LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL: perAccount } = this.config;
    const full = [
      pair.length >= perPair ? pair[0] : undefined,
      ip.length >= perIp ? ip[0] : undefined,
      account.length >= perAccount ? account[0] : undefined,
    ].filter((t): t is number => t !== undefined);
    if (full.length) {
      const windowMs = this.config.LOGIN_WINDOW_SECONDS * 1000;
      return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((Math.min(...full) + windowMs - now) / 1000)) };
    }
    const extra = Math.max(pair.length, ip.length - perPair) - this.config.LOGIN_FREE_ATTEMPTS;
    for (const [key, list] of [[keys.pair, pair], [keys.account, account], [keys.address, ip]] as const) {
      list.push(now);
      this.attempts.set(key, list);
    }
    return {
      blocked: false,
      delayMs: extra < 0 ? 0 : Math.min(250 * 2 ** extra, 8000),
      ticket: { keys: [keys.pair, keys.account, keys.address], pair: keys.pair, at: now },
    };
  }

  /** The password was right: the attempt is given back and the address's failures for the account cleared. */
  succeed(ticket: LoginTicket): void {
    this.release(ticket);
    this.attempts.delete(ticket.pair);
  }

  /** The attempt ended without a password verdict (an error, an inactive account): it is given back. */
  release(ticket: LoginTicket): void {
    for (const key of ticket.keys) {
      const list = this.attempts.get(key);
      if (!list) continue;
      const i = list.lastIndexOf(ticket.at);
      if (i >= 0) list.splice(i, 1);
      if (!list.length) this.attempts.delete(key);
    }
  }

  private prune(now: number): void {
    for (const key of [...this.attempts.keys()]) this.recent(key, now);
  }
}
