import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { type Actor, can, type Permission, type PolicyTarget } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { DATA_SOURCE } from '../database/database.module';
import { systemSharesSql, visibleSystemSql } from '../tenancy/visibility';
import { SqlParams } from '../database/sql-params';

export interface VisibleSystem {
  system_cuid: string;
  company_cuid: string;
  name: string;
  timezone: string;
  shares: { company_cuid: string; change: boolean }[];
}

/** Loads a system the caller may see (else NOT_FOUND, like a missing one) and checks a permission on it. */
@Injectable()
export class SystemAccessService {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async visible(actor: Actor, system_cuid: string, manager: EntityManager = this.ds.manager): Promise<VisibleSystem> {
    const values: unknown[] = [system_cuid];
    const [row] = (await manager.query(
      `SELECT s.system_cuid, s.company_cuid, s.name, s.timezone, ${systemSharesSql('s')} AS shares
         FROM system s
        WHERE s.system_cuid = $1 AND ${visibleSystemSql(actor, new SqlParams(values), 's')}`,
      values,
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
