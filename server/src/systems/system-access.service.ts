import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { type Actor, can, type Permission, type PolicyTarget } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { scopeOf } from '../access/scope';
import { DATA_SOURCE } from '../database/database.module';

export interface VisibleSystem {
  system_cuid: string;
  company_cuid: string;
  name: string;
  timezone: string;
  shares: { company_cuid: string; change: boolean }[];
}

/**
 * SQL condition: system `s` is visible to a caller whose companies are `$companies`
 * (owner company, or a company the system is shared with). `$superuser` sees every system.
 */
export const VISIBLE_SYSTEM_SQL = (superuser: string, companies: string) => `(${superuser}::boolean
  OR s.company_cuid = ANY(${companies}::varchar[])
  OR EXISTS (SELECT 1 FROM system_sharing vs WHERE vs.system_cuid = s.system_cuid AND vs.company_cuid = ANY(${companies}::varchar[])))`;

/** Loads a system the caller may see (else NOT_FOUND, like a missing one) and checks a permission on it. */
@Injectable()
export class SystemAccessService {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async visible(actor: Actor, system_cuid: string, manager: EntityManager = this.ds.manager): Promise<VisibleSystem> {
    const scope = scopeOf(actor);
    const [row] = (await manager.query(
      `SELECT s.system_cuid, s.company_cuid, s.name, s.timezone,
              COALESCE((SELECT json_agg(json_build_object('company_cuid', sh.company_cuid, 'change', sh.change))
                          FROM system_sharing sh WHERE sh.system_cuid = s.system_cuid), '[]'::json) AS shares
         FROM system s
        WHERE s.system_cuid = $1 AND ${VISIBLE_SYSTEM_SQL('$2', '$3')}`,
      [system_cuid, scope.superuser, scope.companies],
    )) as VisibleSystem[];
    if (!row) throw notFound('System');
    return row;
  }

  /** The system, if visible, and the permission holds against it (else FORBIDDEN). */
  async authorize(actor: Actor, permission: Permission, system_cuid: string, manager?: EntityManager): Promise<VisibleSystem> {
    const system = await this.visible(actor, system_cuid, manager);
    const target: PolicyTarget = { company_cuid: system.company_cuid, shares: system.shares };
    if (!can(actor, permission, target)) throw forbidden();
    return system;
  }
}
