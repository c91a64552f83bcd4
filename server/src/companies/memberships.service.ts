import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { DataSource, EntityManager } from 'typeorm';
import { type Actor, can, mayHandleLevel } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { newCuid } from '../common/ids';
import { scopeOf } from '../access/scope';
import { DATA_SOURCE } from '../database/database.module';
import { fieldError } from '../crud/field-error';
import { likeNeedle, pageSql } from '../crud/list-query';
import { SqlParams } from '../database/sql-params';
import type { TMembership, TMembershipChanges, TMembershipCreateData, TMembershipRecord } from './companies.schema';

const RECORD_SELECT = `
  SELECT m.membership_cuid AS id, m.membership_cuid, m.role_cuid, m.user_cuid, m.company_cuid, m.is_company_admin,
         u.email AS user_email, u.name AS user_name, r.name AS role_name, r.level::int AS role_level, c.name AS company_name
    FROM company_membership m
    JOIN company c ON c.company_cuid = m.company_cuid
    JOIN "user" u ON u.user_cuid = m.user_cuid
    JOIN role r ON r.role_cuid = m.role_cuid`;

const RECORD_SORTS: Record<string, string> = {
  id: 'm.membership_cuid',
  membership_cuid: 'm.membership_cuid',
  company_name: 'c.name',
  user_email: 'u.email',
  user_name: 'u.name',
  role_name: 'r.name',
  role_level: 'r.level',
  is_company_admin: 'm.is_company_admin',
};

export interface MembershipListParams {
  pagination: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' };
  filter: { q?: string; id?: string[]; company_cuid?: string; user_cuid?: string; role_cuid?: string; is_company_admin?: boolean };
}

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
    allowNoop = false,
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
        user_memberships: await this.userMemberships(tx, current.user_cuid as string),
      };
      if (!can(actor, 'memberships.edit', target)) {
        throw forbidden(
          target.user_cuid === actor.user_cuid ? 'You cannot change your own membership' : 'Only an admin of this company can change its memberships',
        );
      }
      if (!mayHandleLevel(actor, target.company_cuid, target.membership_level)) {
        throw forbidden('You cannot change a member more powerful than you');
      }
      let roleCuid = current.role_cuid as string;
      if (input.role_cuid !== undefined) {
        const [role] = (await tx.query(`SELECT role_cuid, level FROM role WHERE role_cuid = $1`, [input.role_cuid])) as {
          role_cuid: string;
          level: number;
        }[];
        if (!role) throw notFound('Role');
        // Nobody hands out more power than they hold in that company.
        if (!mayHandleLevel(actor, target.company_cuid, Number(role.level))) {
          throw forbidden('You cannot grant a role above your own');
        }
        roleCuid = role.role_cuid;
      }
      const admin = input.is_company_admin ?? current.is_company_admin;
      if (roleCuid === current.role_cuid && admin === current.is_company_admin) {
        if (allowNoop) return toMembership(current);
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

  /** Every membership of a user with its level (the policy's `user_memberships`). */
  private async userMemberships(tx: EntityManager, user_cuid: string): Promise<{ company_cuid: string; level: number }[]> {
    const rows = (await tx.query(
      `SELECT m.company_cuid, r.level FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid WHERE m.user_cuid = $1`,
      [user_cuid],
    )) as { company_cuid: string; level: number }[];
    return rows.map((r) => ({ company_cuid: r.company_cuid, level: Number(r.level) }));
  }

  // ---- react-admin resource `companyMembership` ---------------------------------------------------

  /**
   * Memberships the caller reads (users.view): those of companies they administer, and their own
   * (a superuser: all). Being a plain member of a company shows none of its other memberships.
   */
  private visibleSql(actor: Actor, p: SqlParams): string {
    const scope = scopeOf(actor);
    return scope.superuser
      ? 'TRUE'
      : `(m.company_cuid = ANY(${p.add(scope.adminCompanies)}::varchar[]) OR m.user_cuid = ${p.add(scope.user_cuid)})`;
  }

  /** Memberships the caller may try to change: those of their companies (FORBIDDEN, not NOT_FOUND, when not admin there). */
  private reachableSql(actor: Actor, p: SqlParams): string {
    const scope = scopeOf(actor);
    return scope.superuser ? 'TRUE' : `m.company_cuid = ANY(${p.add(scope.companies)}::varchar[])`;
  }

  async list(actor: Actor, params: MembershipListParams, reference?: { target: 'company_cuid' | 'user_cuid' | 'role_cuid'; id: string }) {
    const p = new SqlParams();
    const where = [this.visibleSql(actor, p)];
    const f = params.filter;
    if (f.q) where.push(`(u.email ILIKE ${p.add(likeNeedle(f.q))} OR u.name ILIKE ${p.add(likeNeedle(f.q))})`);
    if (f.id) where.push(`m.membership_cuid = ANY(${p.add(f.id)}::varchar[])`);
    if (f.company_cuid !== undefined) where.push(`m.company_cuid = ${p.add(f.company_cuid)}`);
    if (f.user_cuid !== undefined) where.push(`m.user_cuid = ${p.add(f.user_cuid)}`);
    if (f.role_cuid !== undefined) where.push(`m.role_cuid = ${p.add(f.role_cuid)}`);
    if (f.is_company_admin !== undefined) where.push(`m.is_company_admin = ${p.add(f.is_company_admin)}`);
    if (reference) where.push(`m.${reference.target} = ${p.add(reference.id)}`);
    const countParams = [...p.values];
    const page = pageSql(p, params, RECORD_SORTS, { field: 'company_name', order: 'ASC' }, 'u.email, m.membership_cuid');
    const [rows, [{ n }]] = await Promise.all([
      this.ds.query(`${RECORD_SELECT} WHERE ${where.join(' AND ')} ${page}`, p.values) as Promise<TMembershipRecord[]>,
      this.ds.query(
        `SELECT count(*)::int AS n FROM company_membership m JOIN "user" u ON u.user_cuid = m.user_cuid WHERE ${where.join(' AND ')}`,
        countParams,
      ) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async getMany(actor: Actor, ids: string[]): Promise<{ data: TMembershipRecord[] }> {
    const p = new SqlParams();
    const rows = (await this.ds.query(
      `${RECORD_SELECT} WHERE m.membership_cuid = ANY(${p.add([...new Set(ids)])}::varchar[]) AND ${this.visibleSql(actor, p)}
        ORDER BY c.name, u.email`,
      p.values,
    )) as TMembershipRecord[];
    return { data: rows };
  }

  async getOne(actor: Actor, id: string): Promise<{ data: TMembershipRecord }> {
    const [row] = (await this.getMany(actor, [id])).data;
    if (!row) throw notFound('Membership');
    return { data: row };
  }

  private async record(tx: EntityManager, id: string): Promise<TMembershipRecord> {
    const [row] = (await tx.query(`${RECORD_SELECT} WHERE m.membership_cuid = $1`, [id])) as TMembershipRecord[];
    if (!row) throw notFound('Membership');
    return row;
  }

  /** react-admin update: `{id, data}`; an unchanged record saves as a no-op. */
  async updateRecord(actor: Actor, id: string, changes: TMembershipChanges): Promise<{ data: TMembershipRecord }> {
    await this.update(actor, { membership_cuid: id, ...changes }, true);
    return { data: await this.record(this.ds.manager, id) };
  }

  /**
   * Spec §6 membership edit, for a new membership: an admin of the company adds someone else
   * (a user they can see, or any user for a superuser) with a role no more powerful than their own
   * there. One membership per (user, company): a second answers CONFLICT on user_cuid.
   */
  async create(actor: Actor, input: TMembershipCreateData): Promise<{ data: TMembershipRecord }> {
    const scope = scopeOf(actor);
    return this.ds.transaction(async (tx) => {
      if (!scope.superuser && !scope.companies.includes(input.company_cuid)) throw notFound('Company');
      const [company] = await tx.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [input.company_cuid]);
      if (!company) throw notFound('Company');
      const [user] = await tx.query(
        `SELECT 1 FROM "user" u WHERE u.user_cuid = $1 AND ($2::boolean OR EXISTS (
           SELECT 1 FROM company_membership vm WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY($3::varchar[])))`,
        [input.user_cuid, scope.superuser, scope.companies],
      );
      if (!user) throw notFound('User');
      const [role] = (await tx.query(`SELECT level FROM role WHERE role_cuid = $1`, [input.role_cuid])) as { level: number }[];
      if (!role) throw notFound('Role');
      const target = {
        user_cuid: input.user_cuid,
        company_cuid: input.company_cuid,
        membership_level: Number(role.level),
        user_memberships: await this.userMemberships(tx, input.user_cuid),
      };
      if (!can(actor, 'memberships.edit', target)) {
        throw forbidden(input.user_cuid === actor.user_cuid ? 'You cannot change your own membership' : 'Only an admin of this company can change its memberships');
      }
      if (!mayHandleLevel(actor, input.company_cuid, Number(role.level))) throw forbidden('You cannot grant a role above your own');
      const [taken] = await tx.query(`SELECT 1 FROM company_membership WHERE user_cuid = $1 AND company_cuid = $2`, [input.user_cuid, input.company_cuid]);
      if (taken) throw fieldError(['user_cuid'], 'This user is already a member of this company', 'CONFLICT');
      const membership_cuid = newCuid();
      await tx.query(
        `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ($1, $2, $3, $4, $5)`,
        [membership_cuid, input.role_cuid, input.user_cuid, input.company_cuid, input.is_company_admin ?? false],
      );
      return { data: await this.record(tx, membership_cuid) };
    });
  }

  /** Removes memberships under the membership edit rules; all or nothing. */
  async remove(actor: Actor, ids: string[]): Promise<TMembershipRecord[]> {
    return this.ds.transaction(async (tx) => {
      const removed: TMembershipRecord[] = [];
      for (const id of [...new Set(ids)]) {
        const p = new SqlParams();
        const [current] = (await tx.query(
          `${RECORD_SELECT} WHERE m.membership_cuid = ${p.add(id)} AND ${this.reachableSql(actor, p)} FOR UPDATE OF m`,
          p.values,
        )) as TMembershipRecord[];
        if (!current) throw notFound('Membership');
        const target = {
          user_cuid: current.user_cuid,
          company_cuid: current.company_cuid,
          membership_level: Number(current.role_level),
          user_memberships: await this.userMemberships(tx, current.user_cuid),
        };
        if (!can(actor, 'memberships.edit', target)) {
          throw forbidden(current.user_cuid === actor.user_cuid ? 'You cannot change your own membership' : 'Only an admin of this company can change its memberships');
        }
        // A non-superuser cannot remove someone more powerful than themselves in that company.
        if (!mayHandleLevel(actor, current.company_cuid, Number(current.role_level))) {
          throw forbidden('You cannot remove a member more powerful than you');
        }
        await tx.query(`DELETE FROM company_membership WHERE membership_cuid = $1`, [id]);
        removed.push({ ...current, role_level: Number(current.role_level) });
      }
      return removed;
    });
  }
}
