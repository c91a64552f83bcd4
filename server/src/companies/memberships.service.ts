import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { DataSource } from 'typeorm';
import { type Actor, can, levelIn, isSuperUser } from '../auth/policy';
import { forbidden, notFound } from '../common/errors';
import { scopeOf } from '../common/scope';
import { DATA_SOURCE } from '../database/database.module';
import type { TMembership } from './companies.schema';

const MEMBERSHIP_SELECT = `
  SELECT m.membership_cuid, m.role_cuid, m.user_cuid, m.company_cuid, m.is_company_admin,
         c.name AS company_name, c.url AS company_url, c.logo AS company_logo,
         u.email, u.name AS user_name, u.phone, u.inactive, u.meta,
         r.name AS role_name, r.level AS role_level, r.description AS role_description
    FROM company_membership m
    JOIN company c ON c.company_cuid = m.company_cuid
    JOIN "user" u ON u.user_cuid = m.user_cuid
    JOIN role r ON r.role_cuid = m.role_cuid`;

function toMembership(m: Record<string, any>): TMembership {
  return {
    membership_cuid: m.membership_cuid,
    role_cuid: m.role_cuid,
    user_cuid: m.user_cuid,
    company_cuid: m.company_cuid,
    is_company_admin: m.is_company_admin,
    company: { company_cuid: m.company_cuid, name: m.company_name, url: m.company_url, logo: m.company_logo },
    user: { user_cuid: m.user_cuid, email: m.email, name: m.user_name, phone: m.phone, inactive: m.inactive, meta: m.meta ?? {} },
    role: { role_cuid: m.role_cuid, name: m.role_name, level: Number(m.role_level), description: m.role_description },
  };
}

@Injectable()
export class MembershipsService {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /**
   * Spec §7 `companyMembership manyForUser`: all of one's own memberships; for another user only
   * their memberships in companies the caller administers (a superuser sees all). A user the
   * caller may not see answers NOT_FOUND, like a missing one.
   */
  async manyForUser(actor: Actor, user_cuid: string): Promise<TMembership[]> {
    const scope = scopeOf(actor);
    const everything = scope.superuser || user_cuid === scope.user_cuid;
    const rows = (await this.ds.query(
      `${MEMBERSHIP_SELECT}
        WHERE m.user_cuid = $1 AND ($2::boolean OR m.company_cuid = ANY($3::varchar[]))
        ORDER BY r.level, c.name`,
      [user_cuid, everything, scope.adminCompanies],
    )) as Record<string, any>[];
    if (rows.length === 0) {
      const exists = everything && (await this.ds.query(`SELECT 1 FROM "user" WHERE user_cuid = $1`, [user_cuid])).length > 0;
      if (!exists) throw notFound('User');
    }
    return rows.map(toMembership);
  }

  /** Changes a membership's role or admin flag (spec §6 membership edit rules). */
  async update(
    actor: Actor,
    input: { membership_cuid: string; role_cuid?: string; is_company_admin?: boolean },
  ): Promise<TMembership> {
    const scope = scopeOf(actor);
    return this.ds.transaction(async (tx) => {
      const [current] = (await tx.query(
        `${MEMBERSHIP_SELECT}
          WHERE m.membership_cuid = $1 AND ($2::boolean OR m.company_cuid = ANY($3::varchar[]))
          FOR UPDATE OF m`,
        [input.membership_cuid, scope.superuser, scope.companies],
      )) as Record<string, any>[];
      if (!current) throw notFound('Membership');
      const target = {
        user_cuid: current.user_cuid as string,
        company_cuid: current.company_cuid as string,
        membership_level: Number(current.role_level),
      };
      if (!can(actor, 'memberships.edit', target)) {
        throw forbidden(
          target.user_cuid === actor.user_cuid ? 'You cannot change your own membership' : 'Only an admin of this company can change its memberships',
        );
      }
      let roleCuid = current.role_cuid as string;
      if (input.role_cuid !== undefined) {
        const [role] = (await tx.query(`SELECT role_cuid, level FROM role WHERE role_cuid = $1`, [input.role_cuid])) as {
          role_cuid: string;
          level: number;
        }[];
        if (!role) throw notFound('Role');
        // Nobody hands out more power than they hold in that company.
        if (!isSuperUser(actor) && Number(role.level) < levelIn(actor, target.company_cuid)) {
          throw forbidden('You cannot grant a role above your own');
        }
        roleCuid = role.role_cuid;
      }
      const admin = input.is_company_admin ?? current.is_company_admin;
      if (roleCuid === current.role_cuid && admin === current.is_company_admin) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'Nothing changes' });
      }
      await tx.query(`UPDATE company_membership SET role_cuid = $2, is_company_admin = $3 WHERE membership_cuid = $1`, [
        input.membership_cuid,
        roleCuid,
        admin,
      ]);
      const [updated] = (await tx.query(`${MEMBERSHIP_SELECT} WHERE m.membership_cuid = $1`, [input.membership_cuid])) as Record<
        string,
        any
      >[];
      return toMembership(updated);
    });
  }
}
