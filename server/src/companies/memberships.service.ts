import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { type Actor, can, mayHandleLevel } from '../../../shared/access/policy';
import { forbidden, notFound } from '../common/errors';
import { type Scope, scopeOf } from '../access/scope';
import { fieldError } from '../common/field-error';
import type { TMembership, TMembershipChanges, TMembershipCreateData, TMembershipRecord } from './companies.schema';
import { type MembershipListParams, type MembershipReference, type MembershipsRepository, SqlMembershipsRepository } from './memberships.repository';

@Injectable()
export class MembershipsService {
  constructor(@Inject(SqlMembershipsRepository) private readonly rows: MembershipsRepository) {}

  /**
   * Spec §7 `companyMembership manyForUser`: all of one's own memberships; for another user only
   * their memberships in companies the caller administers (a superuser sees all). A user the
   * caller may not see answers NOT_FOUND, like a missing one.
   */
  async manyForUser(actor: Actor, user_cuid: string): Promise<TMembership[]> {
    const scope = scopeOf(actor);
    const everything = scope.superuser || user_cuid === scope.user_cuid;
    const memberships = await this.rows.ofUser(scope, user_cuid);
    if (memberships.length === 0) {
      const exists = everything && (await this.rows.userExists(scope, user_cuid));
      if (!exists) throw notFound('User');
    }
    return memberships;
  }

  /** Changes a membership's role or admin flag (spec §6 membership edit rules). */
  async update(actor: Actor, input: { membership_cuid: string; role_cuid?: string; is_company_admin?: boolean }, allowNoop = false): Promise<TMembership> {
    const scope = scopeOf(actor);
    return this.rows.transaction(async (rows) => {
      const current = await rows.lockMembership(scope, input.membership_cuid);
      if (!current) throw notFound('Membership');
      const target = {
        user_cuid: current.user_cuid,
        company_cuid: current.company_cuid,
        membership_level: current.role.level,
        user_memberships: await rows.userLevels(scope, current.user_cuid),
      };
      if (!can(actor, 'memberships.edit', target)) {
        throw forbidden(
          target.user_cuid === actor.user_cuid ? 'You cannot change your own membership' : 'Only an admin of this company can change its memberships',
        );
      }
      if (!mayHandleLevel(actor, target.company_cuid, target.membership_level)) {
        throw forbidden('You cannot change a member more powerful than you');
      }
      let roleCuid = current.role_cuid;
      if (input.role_cuid !== undefined) {
        const role = await rows.role(scope, input.role_cuid);
        if (!role) throw notFound('Role');
        // Nobody hands out more power than they hold in that company.
        if (!mayHandleLevel(actor, target.company_cuid, role.level)) {
          throw forbidden('You cannot grant a role above your own');
        }
        roleCuid = role.role_cuid;
      }
      const admin = input.is_company_admin ?? current.is_company_admin;
      if (roleCuid === current.role_cuid && admin === current.is_company_admin) {
        if (allowNoop) return current;
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'Nothing changes' });
      }
      await rows.setRole(scope, input.membership_cuid, roleCuid, admin);
      return (await rows.membership(scope, input.membership_cuid))!;
    });
  }

  // ---- react-admin resource `companyMembership` ---------------------------------------------------

  /**
   * Memberships the caller reads (users.view): those of companies they administer, and their own
   * (a superuser: all). Being a plain member of a company shows none of its other memberships.
   */
  async list(actor: Actor, params: MembershipListParams, reference?: MembershipReference) {
    return this.rows.list(scopeOf(actor), params, reference);
  }

  async getMany(actor: Actor, ids: string[]): Promise<{ data: TMembershipRecord[] }> {
    return { data: await this.rows.visibleMany(scopeOf(actor), ids) };
  }

  async getOne(actor: Actor, id: string): Promise<{ data: TMembershipRecord }> {
    const [row] = (await this.getMany(actor, [id])).data;
    if (!row) throw notFound('Membership');
    return { data: row };
  }

  private async record(rows: MembershipsRepository, scope: Scope, id: string): Promise<TMembershipRecord> {
    const row = await rows.record(scope, id);
    if (!row) throw notFound('Membership');
    return row;
  }

  /** react-admin update: `{id, data}`; an unchanged record saves as a no-op. */
  async updateRecord(actor: Actor, id: string, changes: TMembershipChanges): Promise<{ data: TMembershipRecord }> {
    await this.update(actor, { membership_cuid: id, ...changes }, true);
    return { data: await this.record(this.rows, scopeOf(actor), id) };
  }

  /**
   * Spec §6 membership edit, for a new membership: an admin of the company adds someone else
   * (a user they can see, or any user for a superuser) with a role no more powerful than their own
   * there. One membership per (user, company): a second answers CONFLICT on user_cuid.
   */
  async create(actor: Actor, input: TMembershipCreateData): Promise<{ data: TMembershipRecord }> {
    const scope = scopeOf(actor);
    return this.rows.transaction(async (rows) => {
      if (!scope.superuser && !scope.companies.includes(input.company_cuid)) throw notFound('Company');
      if (!(await rows.companyExists(scope, input.company_cuid))) throw notFound('Company');
      if (!(await rows.userReachable(scope, input.user_cuid))) throw notFound('User');
      const role = await rows.role(scope, input.role_cuid);
      if (!role) throw notFound('Role');
      const target = {
        user_cuid: input.user_cuid,
        company_cuid: input.company_cuid,
        membership_level: role.level,
        user_memberships: await rows.userLevels(scope, input.user_cuid),
      };
      if (!can(actor, 'memberships.edit', target)) {
        throw forbidden(
          input.user_cuid === actor.user_cuid ? 'You cannot change your own membership' : 'Only an admin of this company can change its memberships',
        );
      }
      if (!mayHandleLevel(actor, input.company_cuid, role.level)) throw forbidden('You cannot grant a role above your own');
      if (await rows.isMember(scope, input.user_cuid, input.company_cuid)) {
        throw fieldError(['user_cuid'], 'This user is already a member of this company', 'CONFLICT');
      }
      const membership_cuid = await rows.insert(scope, {
        role_cuid: input.role_cuid,
        user_cuid: input.user_cuid,
        company_cuid: input.company_cuid,
        is_company_admin: input.is_company_admin ?? false,
      });
      return { data: await this.record(rows, scope, membership_cuid) };
    });
  }

  /** Removes memberships under the membership edit rules; all or nothing. */
  async remove(actor: Actor, ids: string[]): Promise<TMembershipRecord[]> {
    const scope = scopeOf(actor);
    return this.rows.transaction(async (rows) => {
      const removed: TMembershipRecord[] = [];
      for (const id of [...new Set(ids)]) {
        const current = await rows.lockRecord(scope, id);
        if (!current) throw notFound('Membership');
        const target = {
          user_cuid: current.user_cuid,
          company_cuid: current.company_cuid,
          membership_level: Number(current.role_level),
          user_memberships: await rows.userLevels(scope, current.user_cuid),
        };
        if (!can(actor, 'memberships.edit', target)) {
          throw forbidden(
            current.user_cuid === actor.user_cuid ? 'You cannot change your own membership' : 'Only an admin of this company can change its memberships',
          );
        }
        // A non-superuser cannot remove someone more powerful than themselves in that company.
        if (!mayHandleLevel(actor, current.company_cuid, Number(current.role_level))) {
          throw forbidden('You cannot remove a member more powerful than you');
        }
        await rows.delete(scope, id);
        removed.push({ ...current, role_level: Number(current.role_level) });
      }
      return removed;
    });
  }
}
