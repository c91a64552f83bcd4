import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Scope } from '../access/scope';
import type { TGetListParams } from '../crud/crud.schema';
import { DATA_SOURCE } from '../database/database.module';
import { SqlRepository, type Transactional } from '../database/repository';
import { likeNeedle } from '../crud/list-query';
import { SqlParams } from '../database/sql-params';
import { visibleShareSql, visibleSystemSql } from '../tenancy/visibility';
import { textOf } from '../../../shared/common/text';

export interface SystemShare {
  id: string;
  system_cuid: string;
  company_cuid: string;
  membership_cuid: string | null;
  change: boolean;
  company_name: string;
  system_name: string;
  owner_company_cuid: string;
}

/** A share's id: `${system_cuid}:${company_cuid}` (cuids never hold a colon). */
export const shareId = (system_cuid: string, company_cuid: string) => `${system_cuid}:${company_cuid}`;
const parseId = (id: string): [string, string] | null => {
  const parts = id.split(':');
  return parts.length === 2 && parts[0] && parts[1] ? [parts[0], parts[1]] : null;
};

/** Sort fields → SQL (never from input). */
const SORTS: Record<string, string> = {
  id: 'sh.system_cuid, sh.company_cuid',
  company_name: 'c.name',
  system_name: 's.name',
  change: 'sh.change',
  system_cuid: 'sh.system_cuid',
  company_cuid: 'sh.company_cuid',
};
const FILTERS: Record<string, string> = {
  system_cuid: 'sh.system_cuid',
  company_cuid: 'sh.company_cuid',
  change: 'sh.change',
  owner_company_cuid: 's.company_cuid',
};

/** The fields a share list sorts and filters by (besides `q` and `id`); the service refuses others. */
export const SHARE_SORTS: readonly string[] = Object.keys(SORTS);
export const SHARE_FILTERS: readonly string[] = Object.keys(FILTERS);
/** The references a share list may be read by. */
export const SHARE_REFERENCES = ['system_cuid', 'company_cuid'] as const;

/** A list call already checked by the service: known filters, sort and reference only. */
export interface ShareListParams {
  pagination: TGetListParams['pagination'];
  sort?: TGetListParams['sort'];
  filter: Record<string, unknown>;
}

export interface NewShare {
  system_cuid: string;
  company_cuid: string;
  membership_cuid: string | null;
  change: boolean;
}

/**
 * The SQL of system shares. Every method takes the caller's scope first: a "visible" share is seen
 * by the owner company's members and by the receiving company's members (tenancy/visibility.ts);
 * methods that say "unscoped" read by id on purpose (a row the service has already reached, an
 * existence check). No rules here: the service decides what a missing row or a policy answer means.
 */
export interface SystemSharingRepository extends Transactional<SystemSharingRepository> {
  list(scope: Scope, params: ShareListParams): Promise<{ data: SystemShare[]; total: number }>;
  /** Visible shares by id (ids that are no share id are skipped). */
  visibleMany(scope: Scope, ids: string[]): Promise<SystemShare[]>;
  /** A visible share, locked (in a transaction). */
  lockVisible(scope: Scope, id: string): Promise<SystemShare | undefined>;
  /** Unscoped (a share the caller already reached or just made): one share. */
  record(scope: Scope, system_cuid: string, company_cuid: string): Promise<SystemShare | undefined>;
  /** A visible system's owner company. */
  visibleSystem(scope: Scope, system_cuid: string): Promise<{ company_cuid: string } | undefined>;
  /** Unscoped: whether the company exists. */
  companyExists(scope: Scope, company_cuid: string): Promise<boolean>;
  /** Unscoped: whether the system is already shared with the company. */
  shareExists(scope: Scope, system_cuid: string, company_cuid: string): Promise<boolean>;
  /** The caller's membership in a company (recorded as who shared), if any. */
  ownMembership(scope: Scope, company_cuid: string): Promise<string | undefined>;
  /** Unscoped (checked by the caller). */
  insert(scope: Scope, share: NewShare): Promise<void>;
  /** Unscoped (checked by the caller). */
  setChange(scope: Scope, system_cuid: string, company_cuid: string, change: boolean): Promise<void>;
  /** Unscoped (checked by the caller). */
  delete(scope: Scope, system_cuid: string, company_cuid: string): Promise<void>;
}

const SELECT = `SELECT sh.system_cuid || ':' || sh.company_cuid AS id, sh.system_cuid, sh.company_cuid, sh.membership_cuid, sh.change,
                       c.name AS company_name, s.name AS system_name, s.company_cuid AS owner_company_cuid
                  FROM system_sharing sh
                  JOIN system s ON s.system_cuid = sh.system_cuid
                  JOIN company c ON c.company_cuid = sh.company_cuid`;

@Injectable()
export class SqlSystemSharingRepository extends SqlRepository<SystemSharingRepository> implements SystemSharingRepository {
  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
  }

  /** Condition: the caller sees share `sh` of system `s`. */
  private visible(scope: Scope, p: SqlParams): string {
    return visibleShareSql(scope, p, { share: 'sh', system: 's' });
  }

  async list(scope: Scope, params: ShareListParams) {
    const p = new SqlParams();
    const { values } = p;
    const where = [this.visible(scope, p)];
    for (const [field, value] of Object.entries(params.filter)) {
      if (value === undefined || value === '') continue;
      if (field === 'q') {
        const needle = p.add(likeNeedle(textOf(value)));
        where.push(`(c.name ILIKE ${needle} OR s.name ILIKE ${needle})`);
      } else if (field === 'id') {
        const ids = (Array.isArray(value) ? value : [value]).map(String);
        where.push(`(sh.system_cuid || ':' || sh.company_cuid) = ANY(${p.add(ids)}::text[])`);
      } else if (Object.hasOwn(FILTERS, field)) {
        if (value === null) where.push(`${FILTERS[field]} IS NULL`);
        else if (Array.isArray(value)) where.push(`${FILTERS[field]}::text = ANY(${p.add(value.map(String))}::text[])`);
        else where.push(`${FILTERS[field]}::text = ${p.add(textOf(value))}`);
      } else throw new Error(`Unknown share filter: ${field}`);
    }
    const sort = params.sort ?? { field: 'company_name', order: 'ASC' as const };
    const sortSql = Object.hasOwn(SORTS, sort.field) ? SORTS[sort.field] : undefined;
    if (!sortSql) throw new Error(`Unknown share sort: ${sort.field}`);
    const order = sort.order === 'DESC' ? 'DESC' : 'ASC';
    const { page, perPage } = params.pagination;
    const whereSql = where.join(' AND ');
    const countValues = [...values];
    const rows = (await this.db.query(
      `${SELECT} WHERE ${whereSql} ORDER BY ${sortSql
        .split(', ')
        .map((x) => `${x} ${order}`)
        .join(', ')}, sh.system_cuid, sh.company_cuid
        LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`,
      values,
    )) as SystemShare[];
    const [{ n }] = (await this.db.query(
      `SELECT count(*) AS n FROM system_sharing sh JOIN system s ON s.system_cuid = sh.system_cuid JOIN company c ON c.company_cuid = sh.company_cuid WHERE ${whereSql}`,
      countValues,
    )) as { n: string }[];
    return { data: rows, total: Number(n) };
  }

  private async load(scope: Scope | null, ids: string[], lock = false): Promise<SystemShare[]> {
    const pairs = ids.map(parseId).filter((p): p is [string, string] => p !== null);
    if (!pairs.length) return [];
    const p = new SqlParams([pairs.map((pair) => pair[0]), pairs.map((pair) => pair[1])]);
    const { values } = p;
    const visible = scope ? this.visible(scope, p) : 'TRUE';
    return (await this.db.query(
      `${SELECT} WHERE (sh.system_cuid, sh.company_cuid) IN (SELECT * FROM unnest($1::varchar[], $2::varchar[])) AND ${visible}${lock ? ' FOR UPDATE OF sh' : ''}`,
      values,
    )) as SystemShare[];
  }

  visibleMany(scope: Scope, ids: string[]): Promise<SystemShare[]> {
    return this.load(scope, ids);
  }

  async lockVisible(scope: Scope, id: string): Promise<SystemShare | undefined> {
    const [row] = await this.load(scope, [id], true);
    return row;
  }

  async record(_scope: Scope, system_cuid: string, company_cuid: string): Promise<SystemShare | undefined> {
    const [row] = await this.load(null, [shareId(system_cuid, company_cuid)]);
    return row;
  }

  async visibleSystem(scope: Scope, system_cuid: string): Promise<{ company_cuid: string } | undefined> {
    const values: unknown[] = [system_cuid];
    const [row] = (await this.db.query(
      `SELECT s.company_cuid FROM system s WHERE s.system_cuid = $1 AND ${visibleSystemSql(scope, new SqlParams(values), 's')}`,
      values,
    )) as { company_cuid: string }[];
    return row;
  }

  async companyExists(_scope: Scope, company_cuid: string): Promise<boolean> {
    const [company] = await this.db.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [company_cuid]);
    return !!company;
  }

  async shareExists(_scope: Scope, system_cuid: string, company_cuid: string): Promise<boolean> {
    const [exists] = await this.db.query(`SELECT 1 FROM system_sharing WHERE system_cuid = $1 AND company_cuid = $2`, [system_cuid, company_cuid]);
    return !!exists;
  }

  async ownMembership(scope: Scope, company_cuid: string): Promise<string | undefined> {
    const [membership] = (await this.db.query(`SELECT membership_cuid FROM company_membership WHERE user_cuid = $1 AND company_cuid = $2 LIMIT 1`, [
      scope.user_cuid,
      company_cuid,
    ])) as { membership_cuid: string }[];
    return membership?.membership_cuid;
  }

  async insert(_scope: Scope, share: NewShare): Promise<void> {
    await this.db.query(`INSERT INTO system_sharing (system_cuid, company_cuid, membership_cuid, change) VALUES ($1, $2, $3, $4)`, [
      share.system_cuid,
      share.company_cuid,
      share.membership_cuid,
      share.change,
    ]);
  }

  async setChange(_scope: Scope, system_cuid: string, company_cuid: string, change: boolean): Promise<void> {
    await this.db.query(`UPDATE system_sharing SET change = $3 WHERE system_cuid = $1 AND company_cuid = $2`, [system_cuid, company_cuid, change]);
  }

  async delete(_scope: Scope, system_cuid: string, company_cuid: string): Promise<void> {
    await this.db.query(`DELETE FROM system_sharing WHERE system_cuid = $1 AND company_cuid = $2`, [system_cuid, company_cuid]);
  }
}
