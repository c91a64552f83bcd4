import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { DataSource, EntityManager } from 'typeorm';
import { type Actor, can } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { CrudService } from '../crud/crud.service';
import { fieldError } from '../crud/field-error';
import type { TGetListParams } from '../crud/crud.schema';
import { likeNeedle } from '../crud/list-query';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { visibleShareSql } from '../tenancy/visibility';
import { SystemAccessService } from './system-access.service';

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

const SELECT = `SELECT sh.system_cuid || ':' || sh.company_cuid AS id, sh.system_cuid, sh.company_cuid, sh.membership_cuid, sh.change,
                       c.name AS company_name, s.name AS system_name, s.company_cuid AS owner_company_cuid
                  FROM system_sharing sh
                  JOIN system s ON s.system_cuid = sh.system_cuid
                  JOIN company c ON c.company_cuid = sh.company_cuid`;

/** Sort fields → SQL (never from input). */
const SORTS: Record<string, string> = {
  id: 'sh.system_cuid, sh.company_cuid',
  company_name: 'c.name',
  system_name: 's.name',
  change: 'sh.change',
  system_cuid: 'sh.system_cuid',
  company_cuid: 'sh.company_cuid',
};
const FILTERS: Record<string, string> = { system_cuid: 'sh.system_cuid', company_cuid: 'sh.company_cuid', change: 'sh.change', owner_company_cuid: 's.company_cuid' };

/**
 * Systems shared with other companies (spec SystemSharing). A share is seen by members of the
 * owner company and of the receiving company; only the owner side changes it: level 1 in the
 * owner company itself (`systems.share`), so a share with `change` does not allow re-sharing.
 */
@Injectable()
export class SystemSharingService {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly systems: SystemAccessService,
    private readonly crud: CrudService,
  ) {}

  /** Condition: the caller sees share `sh` of system `s`. */
  private visible(actor: Actor, p: SqlParams): string {
    return visibleShareSql(actor, p, { share: 'sh', system: 's' });
  }

  async getList(actor: Actor, params: TGetListParams, extra?: { target: string; id: string }) {
    const p = new SqlParams();
    const where = [this.visible(actor, p)];
    const filter: Record<string, unknown> = { ...params.filter };
    if (extra) {
      if (extra.target !== 'system_cuid' && extra.target !== 'company_cuid') throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown reference: ${extra.target}` });
      filter[extra.target] = extra.id;
    }
    for (const [field, value] of Object.entries(filter)) {
      if (value === undefined || value === '') continue;
      if (field === 'q') {
        const needle = p.add(likeNeedle(String(value)));
        where.push(`(c.name ILIKE ${needle} OR s.name ILIKE ${needle})`);
      } else if (field === 'id') {
        const ids = (Array.isArray(value) ? value : [value]).map(String);
        where.push(`(sh.system_cuid || ':' || sh.company_cuid) = ANY(${p.add(ids)}::text[])`);
      } else if (Object.hasOwn(FILTERS, field)) {
        if (value === null) where.push(`${FILTERS[field]} IS NULL`);
        else if (Array.isArray(value)) where.push(`${FILTERS[field]}::text = ANY(${p.add(value.map(String))}::text[])`);
        else where.push(`${FILTERS[field]}::text = ${p.add(String(value))}`);
      } else throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown filter: ${field}` });
    }
    const sort = params.sort ?? { field: 'company_name', order: 'ASC' as const };
    const sortSql = Object.hasOwn(SORTS, sort.field) ? SORTS[sort.field] : undefined;
    if (!sortSql) throw new TRPCError({ code: 'BAD_REQUEST', message: `Cannot sort by ${sort.field}` });
    const order = sort.order === 'DESC' ? 'DESC' : 'ASC';
    const { page, perPage } = params.pagination;
    const whereSql = where.join(' AND ');
    const countValues = [...p.values];
    const rows = (await this.ds.query(
      `${SELECT} WHERE ${whereSql} ORDER BY ${sortSql.split(', ').map((x) => `${x} ${order}`).join(', ')}, sh.system_cuid, sh.company_cuid
        LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`,
      p.values,
    )) as SystemShare[];
    const [{ n }] = (await this.ds.query(
      `SELECT count(*) AS n FROM system_sharing sh JOIN system s ON s.system_cuid = sh.system_cuid JOIN company c ON c.company_cuid = sh.company_cuid WHERE ${whereSql}`,
      countValues,
    )) as { n: string }[];
    return { data: rows, total: Number(n) };
  }

  private async load(actor: Actor | null, ids: string[], manager: EntityManager = this.ds.manager, lock = false): Promise<SystemShare[]> {
    const pairs = ids.map(parseId).filter((p): p is [string, string] => p !== null);
    if (!pairs.length) return [];
    const p = new SqlParams();
    const [systems, companies] = [p.add(pairs.map((pair) => pair[0])), p.add(pairs.map((pair) => pair[1]))];
    const visible = actor ? this.visible(actor, p) : 'TRUE';
    return (await manager.query(
      `${SELECT} WHERE (sh.system_cuid, sh.company_cuid) IN (SELECT * FROM unnest(${systems}::varchar[], ${companies}::varchar[])) AND ${visible}${lock ? ' FOR UPDATE OF sh' : ''}`,
      p.values,
    )) as SystemShare[];
  }

  async getOne(actor: Actor, id: string) {
    const [row] = await this.load(actor, [id]);
    if (!row) throw notFound('Share');
    return { data: row };
  }

  async getMany(actor: Actor, ids: string[]) {
    return { data: await this.load(actor, [...new Set(ids)]) };
  }

  /** Per visible share: may the caller change or remove it (owner side, level 1)? */
  async access(actor: Actor, ids: string[]) {
    const data: Record<string, { edit: boolean; delete: boolean }> = {};
    for (const row of await this.load(actor, [...new Set(ids)])) {
      const allowed = can(actor, 'systems.share', { company_cuid: row.owner_company_cuid });
      data[row.id] = { edit: allowed, delete: allowed };
    }
    return { data };
  }

  private assertOwnerSide(actor: Actor, owner_company_cuid: string): void {
    if (!can(actor, 'systems.share', { company_cuid: owner_company_cuid })) throw forbidden();
  }

  /** Runs a share write; lists of everything system-scoped may now count differently. */
  private async write<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.ds.transaction(work);
    } finally {
      this.crud.forgetAllCounts();
    }
  }

  async create(actor: Actor, input: { system_cuid: string; company_cuid: string; change: boolean }) {
    return this.write(async (tx) => {
      const system = await this.systems.visible(actor, input.system_cuid, tx);
      this.assertOwnerSide(actor, system.company_cuid);
      if (input.company_cuid === system.company_cuid) throw fieldError(['data', 'company_cuid'], 'A system is not shared with its owner company');
      const [company] = (await tx.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [input.company_cuid])) as unknown[];
      if (!company) throw notFound('Company');
      const [exists] = (await tx.query(`SELECT 1 FROM system_sharing WHERE system_cuid = $1 AND company_cuid = $2`, [input.system_cuid, input.company_cuid])) as unknown[];
      if (exists) throw new TRPCError({ code: 'CONFLICT', message: 'The system is already shared with this company' });
      const [membership] = (await tx.query(
        `SELECT membership_cuid FROM company_membership WHERE user_cuid = $1 AND company_cuid = $2 LIMIT 1`,
        [actor.user_cuid, system.company_cuid],
      )) as { membership_cuid: string }[];
      await tx.query(`INSERT INTO system_sharing (system_cuid, company_cuid, membership_cuid, change) VALUES ($1, $2, $3, $4)`, [
        input.system_cuid,
        input.company_cuid,
        membership?.membership_cuid ?? null,
        input.change,
      ]);
      const [row] = await this.load(null, [shareId(input.system_cuid, input.company_cuid)], tx);
      return { data: row };
    });
  }

  private async loadForChange(actor: Actor, id: string, tx: EntityManager): Promise<SystemShare> {
    const [row] = await this.load(actor, [id], tx, true);
    if (!row) throw notFound('Share');
    this.assertOwnerSide(actor, row.owner_company_cuid);
    return row;
  }

  async update(actor: Actor, id: string, changes: { change?: boolean }) {
    return this.write(async (tx) => {
      const row = await this.loadForChange(actor, id, tx);
      if (changes.change !== undefined) {
        await tx.query(`UPDATE system_sharing SET change = $3 WHERE system_cuid = $1 AND company_cuid = $2`, [row.system_cuid, row.company_cuid, changes.change]);
      }
      const [updated] = await this.load(null, [id], tx);
      return { data: updated };
    });
  }

  /** All or nothing: one share the caller may not change refuses the whole call. */
  async delete(actor: Actor, ids: string[]) {
    return this.write(async (tx) => {
      const removed: SystemShare[] = [];
      for (const id of [...new Set(ids)]) {
        const row = await this.loadForChange(actor, id, tx);
        await tx.query(`DELETE FROM system_sharing WHERE system_cuid = $1 AND company_cuid = $2`, [row.system_cuid, row.company_cuid]);
        removed.push(row);
      }
      return removed;
    });
  }
}
