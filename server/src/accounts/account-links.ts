import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { newCuid } from '../common/ids';
import { DATA_SOURCE } from '../database/database.module';
import { UrlRequestsRepository } from './url-requests.repository';

/** What a one-time account link does (url_request.data.kind). */
export type AccountLinkKind = 'accountInvitation' | 'passwordReset';
const KINDS: readonly AccountLinkKind[] = ['accountInvitation', 'passwordReset'];

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const TOKEN = /^([a-z0-9]{1,32})\.([A-Za-z0-9_-]{16,128})$/;

/** A link checked and locked inside a transaction. */
export interface OpenedLink {
  kind: AccountLinkKind;
  user_cuid: string;
}

/**
 * One-time links of accounts (invitation, password reset) in url_request, the way the alert
 * e-mail verification keeps its links: the token given out is `<token_cuid>.<secret>`, and only a
 * SHA-256 of the secret is stored, so a copy of the table opens nothing. One user has at most one
 * live link: a new one replaces the older ones of either kind. A link belongs to the address it
 * was mailed to: it opens only while the account still has that address (and a change of the
 * address deletes it: migration 1764630000000).
 */
@Injectable()
export class AccountLinks implements OnModuleDestroy {
  private readonly logger = new Logger('Accounts');
  private readonly sweeper: NodeJS.Timeout;
  private readonly rows = new UrlRequestsRepository();

  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {
    this.sweeper = setInterval(() => void this.sweep(), 60 * 60 * 1000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** A new link for the user, mailed to `email`; their older links stop working. Answers the token to put in the mail. */
  async issue(kind: AccountLinkKind, user_cuid: string, email: string, ttlSeconds: number): Promise<string> {
    const token_cuid = newCuid();
    const secret = randomBytes(24).toString('base64url');
    await this.ds.transaction(async (tx) => {
      await this.dropAll(tx, user_cuid);
      await this.rows.insert({ user_cuid }, tx, { token_cuid }, { kind, email: email.trim().toLowerCase(), secret_sha256: sha256(secret) }, ttlSeconds);
    });
    return `${token_cuid}.${secret}`;
  }

  /** Every link of the user (after a password was set, or when they are deleted). */
  async dropAll(tx: EntityManager | DataSource, user_cuid: string): Promise<void> {
    await this.rows.deleteOfUser({ user_cuid }, tx, KINDS);
  }

  /**
   * Whether a token names a live link (right secret, not expired), without locking: a cheap check
   * made before the new password is hashed, so junk tokens cost no hashing.
   */
  async peek(token: string): Promise<OpenedLink | undefined> {
    return this.read(this.ds, token, false);
  }

  /** The live link of a token, locked (FOR UPDATE) in `tx`: two uses of one link wait on each other, and the second finds it gone. */
  async lock(tx: EntityManager, token: string): Promise<OpenedLink | undefined> {
    return this.read(tx, token, true);
  }

  /** Deletes one link (used). */
  async use(tx: EntityManager, token: string): Promise<void> {
    const m = TOKEN.exec(token);
    if (m) await this.rows.delete({ token_cuid: m[1] }, tx);
  }

  private async read(tx: EntityManager | DataSource, token: string, lock: boolean): Promise<OpenedLink | undefined> {
    const m = TOKEN.exec(token);
    if (!m) return undefined;
    const [, token_cuid, secret] = m;
    const row = await this.rows.read({ token_cuid }, tx, lock);
    if (
      !row ||
      row.expired ||
      !KINDS.includes(row.data.kind as AccountLinkKind) ||
      typeof row.data.secret_sha256 !== 'string' ||
      typeof row.data.user_cuid !== 'string'
    ) {
      return undefined;
    }
    // Sent to another address than the account's (changed since, or a link from before addresses were kept): dead.
    if (typeof row.data.email !== 'string' || row.current_email === null || row.data.email !== row.current_email.toLowerCase()) return undefined;
    const a = Buffer.from(sha256(secret), 'hex');
    const b = Buffer.from(row.data.secret_sha256, 'hex');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
    return { kind: row.data.kind as AccountLinkKind, user_cuid: row.data.user_cuid };
  }

  private async sweep(): Promise<void> {
    try {
      await this.rows.deleteExpired({ job: 'account-links-sweep' }, this.ds, KINDS);
    } catch (e) {
      this.logger.warn(`Could not sweep expired account links: ${(e as Error).message}`);
    }
  }
}
