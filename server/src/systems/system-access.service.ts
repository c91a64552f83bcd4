import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type Actor, can, type Permission, type PolicyTarget } from '../../../shared/access/policy';
import { forbidden, notFound } from '../common/errors';
import { SystemAccessRepository, type VisibleSystem } from './system-access.repository';

export type { VisibleSystem } from './system-access.repository';

/** Loads a system the caller may see (else NOT_FOUND, like a missing one) and checks a permission on it. */
@Injectable()
export class SystemAccessService {
  constructor(private readonly repo: SystemAccessRepository) {}

  async visible(actor: Actor, system_cuid: string, manager?: EntityManager): Promise<VisibleSystem> {
    const row = await this.repo.visible(actor, system_cuid, manager);
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
