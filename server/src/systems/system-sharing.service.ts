import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { type Actor, can } from '../../../shared/access/policy';
import { scopeOf, type Scope } from '../access/scope';
import { forbidden, notFound } from '../common/errors';
import { CrudService } from '../crud/crud.service';
import { fieldError } from '../common/field-error';
import type { TGetListParams } from '../crud/crud.schema';
import {
  SHARE_FILTERS,
  SHARE_REFERENCES,
  SHARE_SORTS,
  SqlSystemSharingRepository,
  type SystemShare,
  type SystemSharingRepository,
} from './system-sharing.repository';

export { shareId, type SystemShare } from './system-sharing.repository';

/**
 * Systems shared with other companies (spec SystemSharing). A share is seen by members of the
 * owner company and of the receiving company; only the owner side changes it: level 1 in the
 * owner company itself (`systems.share`), so a share with `change` does not allow re-sharing.
 */
@Injectable()
export class SystemSharingService {
  constructor(
    @Inject(SqlSystemSharingRepository) private readonly rows: SystemSharingRepository,
    @Inject(CrudService) private readonly crud: Pick<CrudService, 'forgetAllCounts'>,
  ) {}

  async getList(actor: Actor, params: TGetListParams, extra?: { target: string; id: string }) {
    const filter: Record<string, unknown> = { ...params.filter };
    if (extra) {
      if (!(SHARE_REFERENCES as readonly string[]).includes(extra.target)) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown reference: ${extra.target}` });
      }
      filter[extra.target] = extra.id;
    }
    for (const [field, value] of Object.entries(filter)) {
      if (value === undefined || value === '' || field === 'q' || field === 'id' || SHARE_FILTERS.includes(field)) continue;
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown filter: ${field}` });
    }
    const sort = params.sort ?? { field: 'company_name', order: 'ASC' as const };
    if (!SHARE_SORTS.includes(sort.field)) throw new TRPCError({ code: 'BAD_REQUEST', message: `Cannot sort by ${sort.field}` });
    return this.rows.list(scopeOf(actor), { pagination: params.pagination, sort, filter });
  }

  async getOne(actor: Actor, id: string) {
    const [row] = await this.rows.visibleMany(scopeOf(actor), [id]);
    if (!row) throw notFound('Share');
    return { data: row };
  }

  async getMany(actor: Actor, ids: string[]) {
    return { data: await this.rows.visibleMany(scopeOf(actor), [...new Set(ids)]) };
  }

  /** Per visible share: may the caller change or remove it (owner side, level 1)? */
  async access(actor: Actor, ids: string[]) {
    const data: Record<string, { edit: boolean; delete: boolean }> = {};
    for (const row of await this.rows.visibleMany(scopeOf(actor), [...new Set(ids)])) {
      const allowed = can(actor, 'systems.share', { company_cuid: row.owner_company_cuid });
      data[row.id] = { edit: allowed, delete: allowed };
    }
    return { data };
  }

  private assertOwnerSide(actor: Actor, owner_company_cuid: string): void {
    if (!can(actor, 'systems.share', { company_cuid: owner_company_cuid })) throw forbidden();
  }

  /** Runs a share write (all or nothing); lists of everything system-scoped may now count differently. */
  private async write<T>(work: (rows: SystemSharingRepository) => Promise<T>): Promise<T> {
    try {
      return await this.rows.transaction((rows) => work(rows));
    } finally {
      this.crud.forgetAllCounts();
    }
  }

  private async record(rows: SystemSharingRepository, scope: Scope, system_cuid: string, company_cuid: string): Promise<SystemShare> {
    return (await rows.record(scope, system_cuid, company_cuid))!;
  }

  async create(actor: Actor, input: { system_cuid: string; company_cuid: string; change: boolean }) {
    const scope = scopeOf(actor);
    return this.write(async (rows) => {
      const system = await rows.visibleSystem(scope, input.system_cuid);
      if (!system) throw notFound('System');
      this.assertOwnerSide(actor, system.company_cuid);
      if (input.company_cuid === system.company_cuid) throw fieldError(['data', 'company_cuid'], 'A system is not shared with its owner company');
      if (!(await rows.companyExists(scope, input.company_cuid))) throw notFound('Company');
      if (await rows.shareExists(scope, input.system_cuid, input.company_cuid)) {
        throw new TRPCError({ code: 'CONFLICT', message: 'The system is already shared with this company' });
      }
      const membership_cuid = await rows.ownMembership(scope, system.company_cuid);
      await rows.insert(scope, {
        system_cuid: input.system_cuid,
        company_cuid: input.company_cuid,
        membership_cuid: membership_cuid ?? null,
        change: input.change,
      });
      return { data: await this.record(rows, scope, input.system_cuid, input.company_cuid) };
    });
  }

  private async loadForChange(rows: SystemSharingRepository, actor: Actor, scope: Scope, id: string): Promise<SystemShare> {
    const row = await rows.lockVisible(scope, id);
    if (!row) throw notFound('Share');
    this.assertOwnerSide(actor, row.owner_company_cuid);
    return row;
  }

  async update(actor: Actor, id: string, changes: { change?: boolean }) {
    const scope = scopeOf(actor);
    return this.write(async (rows) => {
      const row = await this.loadForChange(rows, actor, scope, id);
      if (changes.change !== undefined) await rows.setChange(scope, row.system_cuid, row.company_cuid, changes.change);
      return { data: await this.record(rows, scope, row.system_cuid, row.company_cuid) };
    });
  }

  /** All or nothing: one share the caller may not change refuses the whole call. */
  async delete(actor: Actor, ids: string[]) {
    const scope = scopeOf(actor);
    return this.write(async (rows) => {
      const removed: SystemShare[] = [];
      for (const id of [...new Set(ids)]) {
        const row = await this.loadForChange(rows, actor, scope, id);
        await rows.delete(scope, row.system_cuid, row.company_cuid);
        removed.push(row);
      }
      return removed;
    });
  }
}
