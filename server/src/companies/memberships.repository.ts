import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Scope } from '../access/scope';
import { newCuid } from '../common/ids';
import { likeNeedle, pageSql } from '../crud/list-query';
import { SqlParams } from '../database/sql-params';
import { DATA_SOURCE } from '../database/database.module';
import { SqlRepository, type Transactional } from '../database/repository';
import type { TMembership, TMembershipRecord } from './companies.schema';
import { membershipFromRow } from '../auth/membership-rows';
import { MEMBERSHIP_SELECT, type MembershipRow } from '../auth/sessions.repository';

export interface MembershipListParams {
  pagination: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' };
  filter: { q?: string; id?: string[]; company_cuid?: string; user_cuid?: string; role_cuid?: string; is_company_admin?: boolean };
}

export type MembershipReference = { target: 'company_cuid' | 'user_cuid' | 'role_cuid'; id: string };

export interface NewMembership {
  user_cuid: string;
  company_cuid: string;
  role_cuid: string;
  is_company_admin: boolean;
}

/**
 * The SQL of company memberships. Every method takes the caller's scope first: "visible"
 * memberships are those of companies the caller administers and the caller's own, "reachable"
 * ones those of any of the caller's companies (a superuser: all). Methods that say "unscoped"
 * read by id on purpose (a row the service has already reached, a uniqueness check). No rules
 * here: the service decides what a missing row or a policy answer means.
 */
export interface MembershipsRepository extends Transactional<MembershipsRepository> {
  /** All memberships of a user when the caller is that user or a superuser, else only those of companies the caller administers. */
  ofUser(scope: Scope, user_cuid: string): Promise<TMembership[]>;
  /** Unscoped: whether the user exists. */
  userExists(scope: Scope, user_cuid: string): Promise<boolean>;
  /** A user who is the caller or a member of one of the caller's companies (any user for a superuser). */
  userReachable(scope: Scope, user_cuid: string): Promise<boolean>;
  /** Unscoped: whether the company exists. */
  companyExists(scope: Scope, company_cuid: string): Promise<boolean>;
  /** Unscoped: a role and its level. */
  role(scope: Scope, role_cuid: string): Promise<{ role_cuid: string; level: number } | undefined>;
  /** Unscoped (a user the service already reached): every membership of the user with its level. */
  userLevels(scope: Scope, user_cuid: string): Promise<{ company_cuid: string; level: number }[]>;
  /** Unscoped: whether the user is already a member of the company. */
  isMember(scope: Scope, user_cuid: string, company_cuid: string): Promise<boolean>;

  /** A reachable membership, locked (in a transaction). */
  lockMembership(scope: Scope, membership_cuid: string): Promise<TMembership | undefined>;
  /** Unscoped: one membership. */
  membership(scope: Scope, membership_cuid: string): Promise<TMembership | undefined>;
  /** Unscoped (checked by the caller). */
  setRole(scope: Scope, membership_cuid: string, role_cuid: string, is_company_admin: boolean): Promise<void>;

  list(scope: Scope, params: MembershipListParams, reference?: MembershipReference): Promise<{ data: TMembershipRecord[]; total: number }>;
  visibleMany(scope: Scope, ids: string[]): Promise<TMembershipRecord[]>;
  /** Unscoped: one record. */
  record(scope: Scope, membership_cuid: string): Promise<TMembershipRecord | undefined>;
  /** A reachable record, locked (in a transaction). */
  lockRecord(scope: Scope, membership_cuid: string): Promise<TMembershipRecord | undefined>;
  /** Unscoped (checked by the caller): answers the new membership's id. */
  insert(scope: Scope, membership: NewMembership): Promise<string>;
  /** Unscoped (checked by the caller). */
  delete(scope: Scope, membership_cuid: string): Promise<void>;
}

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

/**
 * Memberships the caller reads (users.view): those of companies they administer, and their own
 * (a superuser: all). Being a plain member of a company shows none of its other memberships.
 */
function visibleSql(scope: Scope, p: SqlParams): string {
  return scope.superuser ? 'TRUE' : `(m.company_cuid = ANY(${p.add(scope.adminCompanies)}::varchar[]) OR m.user_cuid = ${p.add(scope.user_cuid)})`;
}

/** Memberships the caller may try to change: those of their companies (FORBIDDEN, not NOT_FOUND, when not admin there). */
function reachableSql(scope: Scope, p: SqlParams): string {
  return scope.superuser ? 'TRUE' : `m.company_cuid = ANY(${p.add(scope.companies)}::varchar[])`;
}

@Injectable()
export class SqlMembershipsRepository extends SqlRepository<MembershipsRepository> implements MembershipsRepository {
  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
  }

  async ofUser(scope: Scope, user_cuid: string): Promise<TMembership[]> {
    const everything = scope.superuser || user_cuid === scope.user_cuid;
    const rows = (await this.db.query(
      `${MEMBERSHIP_SELECT}
        WHERE m.user_cuid = $1 AND ($2::boolean OR m.company_cuid = ANY($3::varchar[]))
        ORDER BY r.level, c.name`,
      [user_cuid, everything, scope.adminCompanies],
    )) as MembershipRow[];
    return rows.map(membershipFromRow);
  }

  async userExists(_scope: Scope, user_cuid: string): Promise<boolean> {
    return (await this.db.query(`SELECT 1 FROM "user" WHERE user_cuid = $1`, [user_cuid])).length > 0;
  }

  async userReachable(scope: Scope, user_cuid: string): Promise<boolean> {
    const [user] = await this.db.query(
      `SELECT 1 FROM "user" u WHERE u.user_cuid = $1 AND ($2::boolean OR EXISTS (
         SELECT 1 FROM company_membership vm WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY($3::varchar[])))`,
      [user_cuid, scope.superuser, scope.companies],
    );
    return !!user;
  }

  async companyExists(_scope: Scope, company_cuid: string): Promise<boolean> {
    const [company] = await this.db.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [company_cuid]);
    return !!company;
  }

  async role(_scope: Scope, role_cuid: string) {
    const [role] = (await this.db.query(`SELECT role_cuid, level FROM role WHERE role_cuid = $1`, [role_cuid])) as { role_cuid: string; level: number }[];
    return role && { role_cuid: role.role_cuid, level: Number(role.level) };
  }

  async userLevels(_scope: Scope, user_cuid: string) {
    const rows = (await this.db.query(
      `SELECT m.company_cuid, r.level FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid WHERE m.user_cuid = $1`,
      [user_cuid],
    )) as { company_cuid: string; level: number }[];
    return rows.map((r) => ({ company_cuid: r.company_cuid, level: Number(r.level) }));
  }

  async isMember(_scope: Scope, user_cuid: string, company_cuid: string): Promise<boolean> {
    const [taken] = await this.db.query(`SELECT 1 FROM company_membership WHERE user_cuid = $1 AND company_cuid = $2`, [user_cuid, company_cuid]);
    return !!taken;
  }

  async lockMembership(scope: Scope, membership_cuid: string): Promise<TMembership | undefined> {
    const [current] = (await this.db.query(
      `${MEMBERSHIP_SELECT}
        WHERE m.membership_cuid = $1 AND ($2::boolean OR m.company_cuid = ANY($3::varchar[]))
        FOR UPDATE OF m`,
      [membership_cuid, scope.superuser, scope.companies],
    )) as MembershipRow[];
    return current && membershipFromRow(current);
  }

  async membership(_scope: Scope, membership_cuid: string): Promise<TMembership | undefined> {
    const [row] = (await this.db.query(`${MEMBERSHIP_SELECT} WHERE m.membership_cuid = $1`, [membership_cuid])) as MembershipRow[];
    return row && membershipFromRow(row);
  }

  async setRole(_scope: Scope, membership_cuid: string, role_cuid: string, is_company_admin: boolean): Promise<void> {
    await this.db.query(`UPDATE company_membership SET role_cuid = $2, is_company_admin = $3 WHERE membership_cuid = $1`, [
      membership_cuid,
      role_cuid,
      is_company_admin,
    ]);
  }

  async list(scope: Scope, params: MembershipListParams, reference?: MembershipReference) {
    const p = new SqlParams();
    const where = [visibleSql(scope, p)];
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
      this.db.query(`${RECORD_SELECT} WHERE ${where.join(' AND ')} ${page}`, p.values) as Promise<TMembershipRecord[]>,
      this.db.query(
        `SELECT count(*)::int AS n FROM company_membership m JOIN "user" u ON u.user_cuid = m.user_cuid WHERE ${where.join(' AND ')}`,
        countParams,
      ) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async visibleMany(scope: Scope, ids: string[]): Promise<TMembershipRecord[]> {
    const p = new SqlParams();
    return (await this.db.query(
      `${RECORD_SELECT} WHERE m.membership_cuid = ANY(${p.add([...new Set(ids)])}::varchar[]) AND ${visibleSql(scope, p)}
        ORDER BY c.name, u.email`,
      p.values,
    )) as TMembershipRecord[];
  }

  async record(_scope: Scope, membership_cuid: string): Promise<TMembershipRecord | undefined> {
    const [row] = (await this.db.query(`${RECORD_SELECT} WHERE m.membership_cuid = $1`, [membership_cuid])) as TMembershipRecord[];
    return row;
  }

  async lockRecord(scope: Scope, membership_cuid: string): Promise<TMembershipRecord | undefined> {
    const p = new SqlParams();
    const [current] = (await this.db.query(
      `${RECORD_SELECT} WHERE m.membership_cuid = ${p.add(membership_cuid)} AND ${reachableSql(scope, p)} FOR UPDATE OF m`,
      p.values,
    )) as TMembershipRecord[];
    return current;
  }

  async insert(_scope: Scope, membership: NewMembership): Promise<string> {
    const membership_cuid = newCuid();
    await this.db.query(`INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ($1, $2, $3, $4, $5)`, [
      membership_cuid,
      membership.role_cuid,
      membership.user_cuid,
      membership.company_cuid,
      membership.is_company_admin,
    ]);
    return membership_cuid;
  }

  async delete(_scope: Scope, membership_cuid: string): Promise<void> {
    await this.db.query(`DELETE FROM company_membership WHERE membership_cuid = $1`, [membership_cuid]);
  }
}
