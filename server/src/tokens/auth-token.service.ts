import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { newCuid } from '../common/ids';
import { forbidden, notFound } from '../common/errors';
import { scopeOf } from '../access/scope';
import { DATA_SOURCE } from '../database/database.module';
import { type Actor, can, levelIn, POLICY } from '../access/policy';
import { likeNeedle, pageSql } from '../crud/list-query';
import { SqlParams } from '../database/sql-params';
import type { TAuthToken, TAuthTokenRecord } from './auth-token.schema';

/** Tokens look like `ppt_<token_cuid>_<43 base64url chars>`: the id finds the row, the rest proves it. */
const TOKEN_PATTERN = /^ppt_([a-z0-9]{8,32})_([A-Za-z0-9_-]{43})$/;
const TOKEN_COLUMNS = `token_cuid, description, company_cuid, created_by_user_cuid, created_at, last_used_at, expires_at, revoked_at`;

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export interface MachineCaller {
  token_cuid: string;
  company_cuid: string;
  description: string | null;
}

@Injectable()
export class AuthTokenService {
  /** last_used_at is written at most once a minute per token. */
  private readonly lastTouched = new Map<string, number>();

  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** Companies where the caller may see and manage tokens (the permission's level there). */
  private manageableCompanies(actor: Actor): string[] {
    const needed = POLICY['authTokens.manage'].level;
    return [...new Set(actor.memberships.filter((m) => levelIn(actor, m.company_cuid) <= needed).map((m) => m.company_cuid))];
  }

  async create(
    actor: Actor,
    input: { company_cuid: string; description: string; expires_at?: Date | null },
  ): Promise<TAuthToken & { secret: string }> {
    const scope = scopeOf(actor);
    if (!scope.superuser && !scope.companies.includes(input.company_cuid)) throw notFound('Company');
    const [company] = await this.ds.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [input.company_cuid]);
    if (!company) throw notFound('Company');
    if (!can(actor, 'authTokens.manage', { company_cuid: input.company_cuid })) throw forbidden();
    if (input.expires_at && input.expires_at.getTime() <= Date.now()) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The expiry date must be in the future' });
    }
    const token_cuid = newCuid();
    const secret = `ppt_${token_cuid}_${randomBytes(32).toString('base64url')}`;
    const [row] = (await this.ds.query(
      `INSERT INTO auth_token (token_cuid, description, company_cuid, token_hash, created_by_user_cuid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${TOKEN_COLUMNS}`,
      [token_cuid, input.description, input.company_cuid, sha256(secret), actor.user_cuid, input.expires_at ?? null],
    )) as TAuthToken[];
    return { ...row, secret };
  }

  async list(actor: Actor, input?: { company_cuid?: string; include_revoked?: boolean }): Promise<TAuthToken[]> {
    const scope = scopeOf(actor);
    return (await this.ds.query(
      `SELECT ${TOKEN_COLUMNS} FROM auth_token
        WHERE ($1::boolean OR company_cuid = ANY($2::varchar[]))
          AND ($3::varchar IS NULL OR company_cuid = $3)
          AND ($4::boolean OR revoked_at IS NULL)
        ORDER BY created_at DESC, token_cuid`,
      [scope.superuser, this.manageableCompanies(actor), input?.company_cuid ?? null, input?.include_revoked ?? false],
    )) as TAuthToken[];
  }

  async revoke(actor: Actor, token_cuid: string): Promise<TAuthToken> {
    const scope = scopeOf(actor);
    const [rows] = (await this.ds.query(
      `UPDATE auth_token SET revoked_at = COALESCE(revoked_at, now())
        WHERE token_cuid = $1 AND ($2::boolean OR company_cuid = ANY($3::varchar[]))
        RETURNING ${TOKEN_COLUMNS}`,
      [token_cuid, scope.superuser, this.manageableCompanies(actor)],
    )) as [TAuthToken[], number];
    if (!rows[0]) throw notFound('API token');
    return rows[0];
  }

  /** Checks an `Authorization: Bearer …` value; undefined for anything but a live token. */
  async authenticate(authorization: string | undefined): Promise<MachineCaller | undefined> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const parsed = match ? TOKEN_PATTERN.exec(match[1]) : null;
    if (!match || !parsed) return undefined;
    const [row] = (await this.ds.query(
      `SELECT token_cuid, company_cuid, description, token_hash FROM auth_token
        WHERE token_cuid = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [parsed[1]],
    )) as (MachineCaller & { token_hash: string })[];
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
    this.ds.query(`UPDATE auth_token SET last_used_at = now() WHERE token_cuid = $1`, [token_cuid]).catch(() => undefined);
  }

  // ---- react-admin resource `authToken` ---------------------------------------------------------

  private visibleSql(actor: Actor, p: SqlParams): string {
    return scopeOf(actor).superuser ? 'TRUE' : `t.company_cuid = ANY(${p.add(this.manageableCompanies(actor))}::varchar[])`;
  }

  private static readonly RECORD = `t.token_cuid AS id, t.token_cuid, t.description, t.company_cuid, t.created_by_user_cuid,
    t.created_at, t.last_used_at, t.expires_at, t.revoked_at`;

  async getList(
    actor: Actor,
    params: {
      pagination: { page: number; perPage: number };
      sort?: { field: string; order: 'ASC' | 'DESC' };
      filter: { q?: string; id?: string[]; company_cuid?: string; revoked?: boolean };
    },
    reference?: { target: 'company_cuid'; id: string },
  ): Promise<{ data: TAuthTokenRecord[]; total: number }> {
    const p = new SqlParams();
    const where = [this.visibleSql(actor, p)];
    const f = params.filter;
    if (f.q) where.push(`t.description ILIKE ${p.add(likeNeedle(f.q))}`);
    if (f.id) where.push(`t.token_cuid = ANY(${p.add(f.id)}::varchar[])`);
    if (f.company_cuid !== undefined) where.push(`t.company_cuid = ${p.add(f.company_cuid)}`);
    if (reference) where.push(`t.company_cuid = ${p.add(reference.id)}`);
    if (f.revoked !== undefined) where.push(f.revoked ? 't.revoked_at IS NOT NULL' : 't.revoked_at IS NULL');
    const countParams = [...p.values];
    const sorts: Record<string, string> = {
      id: 't.token_cuid',
      token_cuid: 't.token_cuid',
      description: 't.description',
      created_at: 't.created_at',
      last_used_at: 't.last_used_at',
      expires_at: 't.expires_at',
      revoked_at: 't.revoked_at',
    };
    const page = pageSql(p, params, sorts, { field: 'created_at', order: 'DESC' }, 't.token_cuid');
    const [rows, [{ n }]] = await Promise.all([
      this.ds.query(`SELECT ${AuthTokenService.RECORD} FROM auth_token t WHERE ${where.join(' AND ')} ${page}`, p.values) as Promise<TAuthTokenRecord[]>,
      this.ds.query(`SELECT count(*)::int AS n FROM auth_token t WHERE ${where.join(' AND ')}`, countParams) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async getMany(actor: Actor, ids: string[]): Promise<{ data: TAuthTokenRecord[] }> {
    const p = new SqlParams();
    const rows = (await this.ds.query(
      `SELECT ${AuthTokenService.RECORD} FROM auth_token t WHERE t.token_cuid = ANY(${p.add([...new Set(ids)])}::varchar[]) AND ${this.visibleSql(actor, p)}
        ORDER BY t.created_at DESC`,
      p.values,
    )) as TAuthTokenRecord[];
    return { data: rows };
  }

  async getOne(actor: Actor, id: string): Promise<{ data: TAuthTokenRecord }> {
    const [row] = (await this.getMany(actor, [id])).data;
    if (!row) throw notFound('API token');
    return { data: row };
  }

  /** react-admin delete = revoke (the row stays for the record); all or nothing. */
  async revokeMany(actor: Actor, ids: string[]): Promise<TAuthTokenRecord[]> {
    return this.ds.transaction(async (tx) => {
      const out: TAuthTokenRecord[] = [];
      for (const id of [...new Set(ids)]) {
        const p = new SqlParams();
        const [rows] = (await tx.query(
          `UPDATE auth_token t SET revoked_at = COALESCE(t.revoked_at, now())
            WHERE t.token_cuid = ${p.add(id)} AND ${this.visibleSql(actor, p)}
            RETURNING ${AuthTokenService.RECORD}`,
          p.values,
        )) as [TAuthTokenRecord[], number];
        if (!rows[0]) throw notFound('API token');
        out.push(rows[0]);
      }
      return out;
    });
  }
}
