import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { newCuid } from '../common/ids';
import { DATA_SOURCE } from '../database/database.module';
import { OldRowsSweeper } from '../database/old-rows-sweeper';
import { type Actor, actorFromContext } from '../../../shared/access/policy';
import { RevocationBatcher } from './revocation-batcher';
import { SESSION_MAX_AGE_SECONDS, SessionCookieCodec } from './session-cookie';
import { type TSessionContext, type TSessionPayload, ZSessionPayload } from './session.schema';
import { membershipFromRow } from './membership-rows';
import { SessionsRepository } from './sessions.repository';
import { OpenedCookies } from './opened-cookies';

/** Session cookies whose opened payload an instance keeps (see OpenedCookies): at most 5,000, 32 MB of JSON, none over 64 KB. */
const OPENED_COOKIES = { entries: 5_000, bytes: 32 * 1024 * 1024, entryBytes: 64 * 1024 };

export type SessionFailure = 'MISSING' | 'INVALID' | 'EXPIRED' | 'REVOKED' | 'INACTIVE';

export type SessionCheck = { ok: true; payload: TSessionPayload; actor: Actor } | { ok: false; reason: SessionFailure };

/**
 * The session lives in the encrypted `liuc` cookie; revocation lives in the database. Every check
 * costs one indexed query: the user's current epoch and inactive flag, and whether this session
 * id was logged out. Deactivating a user, changing their memberships or their password bumps the
 * epoch (database triggers), so the old cookie fails on the very next request.
 */
@Injectable()
export class SessionService implements OnModuleDestroy {
  private readonly logger = new Logger(SessionService.name);
  private readonly codec: SessionCookieCodec;
  private readonly sweeper: OldRowsSweeper;
  /** The hot path (every open tab, every second): batched, a prepared statement on PostgreSQL. */
  private readonly revocation = new RevocationBatcher(async (keys) => {
    const rows = await this.sessions.revocationStates(keys);
    return new Map(rows.map((r) => [RevocationBatcher.keyOf(r), r]));
  });
  private readonly opened = new OpenedCookies<TSessionPayload>(OPENED_COOKIES.entries, OPENED_COOKIES.bytes, OPENED_COOKIES.entryBytes);

  constructor(
    @Inject(DATA_SOURCE) ds: DataSource,
    config: AppConfig,
    private readonly sessions: SessionsRepository,
  ) {
    this.codec = new SessionCookieCodec(config.sessionSecret);
    this.sweeper = new OldRowsSweeper(ds, this.logger, 'expired revoked sessions', SessionsRepository.SWEEP_REVOKED_SESSIONS, () => new Date(), 60 * 60 * 1000);
  }

  onModuleDestroy(): void {
    this.sweeper.stop();
  }

  /** Builds the §3.1 context from the database. */
  async loadContext(user_cuid: string): Promise<{ ctx: TSessionContext; epoch: number } | undefined> {
    const owner = { user_cuid };
    const user = await this.sessions.user(owner);
    if (!user) return undefined;
    const [memberships, blacklist, portalBlacklist] = await Promise.all([
      this.sessions.memberships(owner),
      this.sessions.notificationBlacklist(owner),
      this.sessions.portalNotificationBlacklist(owner),
    ]);
    const meta = user.meta ?? {};
    const ctx: TSessionContext = {
      user: { user_cuid: user.user_cuid, email: user.email, name: user.name, inactive: user.inactive, meta },
      memberships: memberships.map(membershipFromRow),
      notificationBlacklist: blacklist,
      portalNotificationBlacklist: portalBlacklist,
      isSuperUser: memberships.some((m) => Number(m.role_level) === 0),
    };
    return { ctx, epoch: user.session_epoch };
  }

  /** Starts a session for a user whose password was just verified. */
  async issue(user_cuid: string): Promise<{ cookie: string; payload: TSessionPayload } | undefined> {
    const loaded = await this.loadContext(user_cuid);
    if (!loaded) return undefined;
    const now = Math.floor(Date.now() / 1000);
    const payload: TSessionPayload = {
      v: 1,
      sid: newCuid(),
      ep: loaded.epoch,
      iat: now,
      exp: now + SESSION_MAX_AGE_SECONDS,
      ctx: loaded.ctx,
    };
    return { cookie: this.codec.seal(payload), payload };
  }

  /** Re-seals a session with a fresh context (after the user changes their own preferences). */
  async refresh(payload: TSessionPayload): Promise<{ cookie: string; ctx: TSessionContext } | undefined> {
    const loaded = await this.loadContext(payload.ctx.user.user_cuid);
    if (!loaded || loaded.epoch !== payload.ep) return undefined;
    return { cookie: this.codec.seal({ ...payload, ctx: loaded.ctx }), ctx: loaded.ctx };
  }

  /**
   * Re-seals a session at the epoch its own change moved the user to (see keepOwnSession), with a
   * fresh context; nothing when the user is inactive, the session was signed out meanwhile, or the
   * epoch has moved again since.
   */
  async renewAfterOwnChange(payload: TSessionPayload, epoch: number): Promise<{ cookie: string; ctx: TSessionContext } | undefined> {
    const loaded = await this.loadContext(payload.ctx.user.user_cuid);
    if (!loaded || loaded.epoch !== epoch || loaded.ctx.user.inactive) return undefined;
    if (await this.sessions.isRevoked({ user_cuid: payload.ctx.user.user_cuid, sid: payload.sid })) return undefined;
    return { cookie: this.codec.seal({ ...payload, ep: epoch, ctx: loaded.ctx }), ctx: loaded.ctx };
  }

  /**
   * The user's `meta` (their language choice) from a cookie, opened without the revocation check:
   * enough to choose the language of an error answer, never to grant anything (nor kept: only a
   * cookie that passes `check` is).
   */
  languageMetaOf(cookie: string | undefined): unknown {
    return cookie ? this.open(cookie)?.payload.ctx.user.meta : undefined;
  }

  /** A cookie's validated payload: kept (see OpenedCookies), or opened now (`bytes` then set), or undefined when it is not one of ours. */
  private open(cookie: string): { payload: TSessionPayload; bytes?: number } | undefined {
    const kept = this.opened.peek(cookie);
    if (kept) return { payload: kept };
    const opened = this.codec.openSized(cookie);
    const parsed = opened && ZSessionPayload.safeParse(opened.payload);
    return parsed?.success ? { payload: parsed.data, bytes: opened!.bytes } : undefined;
  }

  /** Opens, validates (spec §5) and checks revocation of a cookie value. */
  async check(cookie: string | undefined): Promise<SessionCheck> {
    if (!cookie) return { ok: false, reason: 'MISSING' };
    const opened = this.open(cookie);
    if (!opened) return { ok: false, reason: 'INVALID' };
    const verdict = await this.verdict(opened.payload);
    if (verdict) {
      this.opened.forget(cookie);
      return { ok: false, reason: verdict };
    }
    if (opened.bytes !== undefined) this.opened.keep(cookie, opened.payload, opened.bytes);
    return { ok: true, payload: opened.payload, actor: actorFromContext(opened.payload.ctx) };
  }

  /** Why a validated payload no longer grants a session (expired, signed out, user inactive, epoch moved), or undefined. */
  private async verdict(payload: TSessionPayload): Promise<SessionFailure | undefined> {
    if (payload.exp * 1000 <= Date.now()) return 'EXPIRED';
    const row = await this.revocation.check({ user_cuid: payload.ctx.user.user_cuid, sid: payload.sid });
    if (!row) return 'REVOKED';
    if (row.inactive) return 'INACTIVE';
    if (row.revoked || row.session_epoch !== payload.ep) return 'REVOKED';
    return undefined;
  }

  /** Whether a session checked earlier (an open live stream's) is still valid: not signed out, user active, epoch unchanged, not expired. */
  async isStillValid(payload: TSessionPayload): Promise<boolean> {
    return (await this.verdict(payload)) === undefined;
  }

  private readonly revokeListeners = new Set<(sid: string) => void>();

  /** Called with the session id of every logout on this instance (live streams end at once). */
  onRevoke(listener: (sid: string) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  /** Logout: this session id stops working at once, other sessions of the user go on. */
  async revoke(payload: TSessionPayload): Promise<void> {
    await this.sessions.revoke({ user_cuid: payload.ctx.user.user_cuid, sid: payload.sid }, payload.exp);
    for (const listener of this.revokeListeners) listener(payload.sid);
  }
}
