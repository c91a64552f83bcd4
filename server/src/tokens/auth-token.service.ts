import { Inject, Injectable, Optional } from '@nestjs/common';
import { SharedSignals, SIGNAL_TOPICS } from '../database/shared-signals';
import { TRPCError } from '@trpc/server';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newCuid } from '../common/ids';
import { forbidden, notFound } from '../common/errors';
import { scopeOf } from '../access/scope';
import { type Actor, can, levelIn, POLICY } from '../../../shared/access/policy';
import type { TAuthToken, TAuthTokenRecord } from './auth-token.schema';
import { type AuthTokenRepository, SqlAuthTokenRepository, type TokenListParams, type TokenScope } from './auth-token.repository';

/** Tokens look like `ppt_<token_cuid>_<43 base64url chars>`: the id finds the row, the rest proves it. */
const TOKEN_PATTERN = /^ppt_([a-z0-9]{8,32})_([A-Za-z0-9_-]{43})$/;

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export interface MachineCaller {
  token_cuid: string;
  company_cuid: string;
  description: string | null;
}

/** Companies where the caller may see and manage tokens (the permission's level there). */
export function tokenScopeOf(actor: Actor): TokenScope {
  const needed = POLICY['authTokens.manage'].level;
  return {
    user_cuid: actor.user_cuid,
    superuser: scopeOf(actor).superuser,
    companies: [...new Set(actor.memberships.filter((m) => levelIn(actor, m.company_cuid) <= needed).map((m) => m.company_cuid))],
  };
}

@Injectable()
export class AuthTokenService {
  /** last_used_at is written at most once a minute per token. */
  private readonly lastTouched = new Map<string, number>();

  constructor(
    @Inject(SqlAuthTokenRepository) private readonly rows: AuthTokenRepository,
    @Optional() private readonly signals?: SharedSignals,
  ) {}

  async create(actor: Actor, input: { company_cuid: string; description: string; expires_at?: Date | null }): Promise<TAuthToken & { secret: string }> {
    const scope = scopeOf(actor);
    if (!scope.superuser && !scope.companies.includes(input.company_cuid)) throw notFound('Company');
    const tokens = tokenScopeOf(actor);
    if (!(await this.rows.companyExists(tokens, input.company_cuid))) throw notFound('Company');
    if (!can(actor, 'authTokens.manage', { company_cuid: input.company_cuid })) throw forbidden();
    if (input.expires_at && input.expires_at.getTime() <= Date.now()) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The expiry date must be in the future' });
    }
    const token_cuid = newCuid();
    const secret = `ppt_${token_cuid}_${randomBytes(32).toString('base64url')}`;
    const row = await this.rows.insert(tokens, {
      token_cuid,
      description: input.description,
      company_cuid: input.company_cuid,
      token_hash: sha256(secret),
      expires_at: input.expires_at ?? null,
    });
    return { ...row, secret };
  }

  async list(actor: Actor, input?: { company_cuid?: string; include_revoked?: boolean }): Promise<TAuthToken[]> {
    return this.rows.list(tokenScopeOf(actor), input ?? {});
  }

  async revoke(actor: Actor, token_cuid: string): Promise<TAuthToken> {
    const row = await this.rows.revoke(tokenScopeOf(actor), token_cuid);
    if (!row) throw await this.missing(actor, [token_cuid]);
    // Connected controllers (in-process broker, every instance) check their token again.
    await this.signals?.publish(SIGNAL_TOPICS.authTokens, token_cuid);
    return row;
  }

  /** Checks an `Authorization: Bearer …` value; undefined for anything but a live token. */
  async authenticate(authorization: string | undefined): Promise<MachineCaller | undefined> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const parsed = match ? TOKEN_PATTERN.exec(match[1]) : null;
    if (!match || !parsed) return undefined;
    const row = await this.rows.live(parsed[1]);
    if (!row) return undefined;
    const given = Buffer.from(sha256(match[1]), 'hex');
    const stored = Buffer.from(row.token_hash, 'hex');
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) return undefined;
    this.touch(row.token_cuid);
    return { token_cuid: row.token_cuid, company_cuid: row.company_cuid, description: row.description };
  }

  private touch(token_cuid: string): void {
    const now = Date.now();
    if ((this.lastTouched.get(token_cuid) ?? 0) > now - 60_000) return;
    this.lastTouched.set(token_cuid, now);
    this.rows.touch(token_cuid).catch(() => undefined);
  }

  // ---- react-admin resource `authToken` ---------------------------------------------------------

  async getList(
    actor: Actor,
    params: TokenListParams,
    reference?: { target: 'company_cuid'; id: string },
  ): Promise<{ data: TAuthTokenRecord[]; total: number }> {
    return this.rows.getList(tokenScopeOf(actor), params, reference);
  }

  async getMany(actor: Actor, ids: string[]): Promise<{ data: TAuthTokenRecord[] }> {
    return { data: await this.rows.visibleMany(tokenScopeOf(actor), ids) };
  }

  async getOne(actor: Actor, id: string): Promise<{ data: TAuthTokenRecord }> {
    const [row] = (await this.getMany(actor, [id])).data;
    if (!row) throw await this.missing(actor, [id]);
    return { data: row };
  }

  /**
   * Why tokens are out of the caller's token scope: FORBIDDEN when every one is of a company they
   * belong to at a level too low for tokens (levels count in their own company), else NOT_FOUND
   * like a missing id.
   */
  private async missing(actor: Actor, ids: string[], rows: AuthTokenRepository = this.rows): Promise<TRPCError> {
    const scope = scopeOf(actor);
    const members: TokenScope = { user_cuid: actor.user_cuid, superuser: scope.superuser, companies: scope.companies };
    const seen = await rows.visibleMany(members, ids);
    return seen.length === new Set(ids).size ? forbidden() : notFound('API token');
  }

  /** react-admin delete = revoke (the row stays for the record); all or nothing. */
  async revokeMany(actor: Actor, ids: string[]): Promise<TAuthTokenRecord[]> {
    const scope = tokenScopeOf(actor);
    const revoked = await this.rows.transaction(async (rows) => {
      const out: TAuthTokenRecord[] = [];
      for (const id of [...new Set(ids)]) {
        const row = await rows.revokeRecord(scope, id);
        // Asked inside the transaction: PGlite has one connection, held by it.
        if (!row) throw await this.missing(actor, [id], rows);
        out.push(row);
      }
      return out;
    });
    await this.signals?.publish(SIGNAL_TOPICS.authTokens, null);
    return revoked;
  }
}
