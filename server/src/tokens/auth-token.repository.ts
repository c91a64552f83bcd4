import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { likeNeedle, pageSql } from '../crud/list-query';
import { SqlParams } from '../database/sql-params';
import { DATA_SOURCE } from '../database/database.module';
import { SqlRepository, type Transactional } from '../database/repository';
import type { TAuthToken, TAuthTokenRecord } from './auth-token.schema';

/** Whose tokens a caller reaches: a superuser all of them, anybody else those of `companies`. */
export interface TokenScope {
  user_cuid: string;
  superuser: boolean;
  /** Companies where the caller may see and manage tokens. */
  companies: string[];
}

export interface TokenListParams {
  pagination: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' };
  filter: { q?: string; id?: string[]; company_cuid?: string; revoked?: boolean };
}

export interface NewToken {
  token_cuid: string;
  description: string;
  company_cuid: string;
  token_hash: string;
  expires_at: Date | null;
}

/** A live token found by id, with the hash its secret must match. */
export interface LiveToken {
  token_cuid: string;
  company_cuid: string;
  description: string | null;
  token_hash: string;
}

/**
 * The SQL of API tokens. Every method with a caller takes the caller's token scope first;
 * `live` and `touch` serve the machine side, where the token itself is the caller. No rules
 * here: the service decides what a missing row means.
 */
export interface AuthTokenRepository extends Transactional<AuthTokenRepository> {
  /** Unscoped: whether the company exists. */
  companyExists(scope: TokenScope, company_cuid: string): Promise<boolean>;
  /** Unscoped (checked by the caller): stores a token created by the caller. */
  insert(scope: TokenScope, token: NewToken): Promise<TAuthToken>;
  list(scope: TokenScope, filter: { company_cuid?: string; include_revoked?: boolean }): Promise<TAuthToken[]>;
  /** Revokes a token in scope (kept revoked at its first revocation); undefined when out of scope or missing. */
  revoke(scope: TokenScope, token_cuid: string): Promise<TAuthToken | undefined>;
  /** The unrevoked, unexpired token with this id. */
  live(token_cuid: string): Promise<LiveToken | undefined>;
  /** Records a use now (best effort). */
  touch(token_cuid: string): Promise<void>;

  getList(scope: TokenScope, params: TokenListParams, reference?: { target: 'company_cuid'; id: string }): Promise<{ data: TAuthTokenRecord[]; total: number }>;
  visibleMany(scope: TokenScope, ids: string[]): Promise<TAuthTokenRecord[]>;
  /** revoke for the react-admin resource: the record shape. */
  revokeRecord(scope: TokenScope, token_cuid: string): Promise<TAuthTokenRecord | undefined>;
}

const TOKEN_COLUMNS = `token_cuid, description, company_cuid, created_by_user_cuid, created_at, last_used_at, expires_at, revoked_at`;

const RECORD = `t.token_cuid AS id, t.token_cuid, t.description, t.company_cuid, t.created_by_user_cuid,
    t.created_at, t.last_used_at, t.expires_at, t.revoked_at`;

const SORTS: Record<string, string> = {
  id: 't.token_cuid',
  token_cuid: 't.token_cuid',
  description: 't.description',
  created_at: 't.created_at',
  last_used_at: 't.last_used_at',
  expires_at: 't.expires_at',
  revoked_at: 't.revoked_at',
};

function visibleSql(scope: TokenScope, p: SqlParams): string {
  return scope.superuser ? 'TRUE' : `t.company_cuid = ANY(${p.add(scope.companies)}::varchar[])`;
}

@Injectable()
export class SqlAuthTokenRepository extends SqlRepository<AuthTokenRepository> implements AuthTokenRepository {
  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
  }

  async companyExists(_scope: TokenScope, company_cuid: string): Promise<boolean> {
    const [company] = await this.db.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [company_cuid]);
    return !!company;
  }

  async insert(scope: TokenScope, token: NewToken): Promise<TAuthToken> {
    const [row] = (await this.db.query(
      `INSERT INTO auth_token (token_cuid, description, company_cuid, token_hash, created_by_user_cuid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${TOKEN_COLUMNS}`,
      [token.token_cuid, token.description, token.company_cuid, token.token_hash, scope.user_cuid, token.expires_at],
    )) as TAuthToken[];
    return row;
  }

  async list(scope: TokenScope, filter: { company_cuid?: string; include_revoked?: boolean }): Promise<TAuthToken[]> {
    return (await this.db.query(
      `SELECT ${TOKEN_COLUMNS} FROM auth_token
        WHERE ($1::boolean OR company_cuid = ANY($2::varchar[]))
          AND ($3::varchar IS NULL OR company_cuid = $3)
          AND ($4::boolean OR revoked_at IS NULL)
        ORDER BY created_at DESC, token_cuid`,
      [scope.superuser, scope.companies, filter.company_cuid ?? null, filter.include_revoked ?? false],
    )) as TAuthToken[];
  }

  async revoke(scope: TokenScope, token_cuid: string): Promise<TAuthToken | undefined> {
    const [rows] = (await this.db.query(
      `UPDATE auth_token SET revoked_at = COALESCE(revoked_at, now())
        WHERE token_cuid = $1 AND ($2::boolean OR company_cuid = ANY($3::varchar[]))
        RETURNING ${TOKEN_COLUMNS}`,
      [token_cuid, scope.superuser, scope.companies],
    )) as [TAuthToken[], number];
    return rows[0];
  }

  async live(token_cuid: string): Promise<LiveToken | undefined> {
    const [row] = (await this.db.query(
      `SELECT token_cuid, company_cuid, description, token_hash FROM auth_token
        WHERE token_cuid = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [token_cuid],
    )) as LiveToken[];
    return row;
  }

  async touch(token_cuid: string): Promise<void> {
    await this.db.query(`UPDATE auth_token SET last_used_at = now() WHERE token_cuid = $1`, [token_cuid]);
  }

  async getList(scope: TokenScope, params: TokenListParams, reference?: { target: 'company_cuid'; id: string }) {
    const p = new SqlParams();
    const where = [visibleSql(scope, p)];
    const f = params.filter;
    if (f.q) where.push(`t.description ILIKE ${p.add(likeNeedle(f.q))}`);
    if (f.id) where.push(`t.token_cuid = ANY(${p.add(f.id)}::varchar[])`);
    if (f.company_cuid !== undefined) where.push(`t.company_cuid = ${p.add(f.company_cuid)}`);
    if (reference) where.push(`t.company_cuid = ${p.add(reference.id)}`);
    if (f.revoked !== undefined) where.push(f.revoked ? 't.revoked_at IS NOT NULL' : 't.revoked_at IS NULL');
    const countParams = [...p.values];
    const page = pageSql(p, params, SORTS, { field: 'created_at', order: 'DESC' }, 't.token_cuid');
    const [rows, [{ n }]] = await Promise.all([
      this.db.query(`SELECT ${RECORD} FROM auth_token t WHERE ${where.join(' AND ')} ${page}`, p.values) as Promise<TAuthTokenRecord[]>,
      this.db.query(`SELECT count(*)::int AS n FROM auth_token t WHERE ${where.join(' AND ')}`, countParams) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async visibleMany(scope: TokenScope, ids: string[]): Promise<TAuthTokenRecord[]> {
    const p = new SqlParams();
    return (await this.db.query(
      `SELECT ${RECORD} FROM auth_token t WHERE t.token_cuid = ANY(${p.add([...new Set(ids)])}::varchar[]) AND ${visibleSql(scope, p)}
        ORDER BY t.created_at DESC`,
      p.values,
    )) as TAuthTokenRecord[];
  }

  async revokeRecord(scope: TokenScope, token_cuid: string): Promise<TAuthTokenRecord | undefined> {
    const p = new SqlParams();
    const [rows] = (await this.db.query(
      `UPDATE auth_token t SET revoked_at = COALESCE(t.revoked_at, now())
        WHERE t.token_cuid = ${p.add(token_cuid)} AND ${visibleSql(scope, p)}
        RETURNING ${RECORD}`,
      p.values,
    )) as [TAuthTokenRecord[], number];
    return rows[0];
  }
}
