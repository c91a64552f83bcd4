import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Scope } from '../access/scope';
import { newCuid } from '../common/ids';
import { likeNeedle, pageSql } from '../crud/list-query';
import { SqlParams } from '../database/sql-params';
import { DATA_SOURCE } from '../database/database.module';
import { SqlRepository, type Transactional } from '../database/repository';
import type { TUserMeta } from '../auth/session.schema';
import type { TRole, TUserFindOneOutput, TUserRecord, TUserStatusOutput } from './users.schema';

export interface UserListParams {
  pagination: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' };
  filter: { q?: string; id?: string[]; company_cuid?: string; inactive?: boolean };
}

export interface RoleListParams {
  pagination: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' };
  filter: { q?: string; id?: string[]; level?: number };
}

export type UserLevels = { company_cuid: string; level: number }[];
export type RoleRecord = TRole & { id: string };
export type UserByEmail = Omit<TUserFindOneOutput, 'notification_blacklist' | 'portal_notification_blacklist'>;

/** The columns a user change may set (undefined: unchanged); `password` is the new hash. */
export interface UserChanges {
  email?: string;
  name?: string;
  phone?: string | null;
  password?: string;
  inactive?: boolean;
}

export interface NewUser {
  email: string;
  /** null: an invited user, who sets their own password from the invitation link. */
  password: string | null;
  name: string;
  phone: string | null;
  company_cuid: string;
  role_cuid: string;
  is_company_admin: boolean;
  /** An invited user waits inactive until they set their password (no deactivating admin recorded). */
  inactive?: boolean;
  /** meta.preferences.language when the admin picked the new user's language. */
  language?: string;
}

/**
 * The SQL of users and roles. Every method takes the caller's scope first: "visible" users are the
 * caller and the users of companies they administer, "reachable" ones the caller and the users of
 * any of their companies (a superuser: everybody). Methods that say "unscoped" read by id on
 * purpose (a row the service has already reached, a uniqueness check, the global role list).
 * No rules here: the service decides what a missing row or a policy answer means.
 */
export interface UsersRepository extends Transactional<UsersRepository> {
  /** Unscoped: the four roles are the same for everybody. */
  roles(scope: Scope): Promise<TRole[]>;
  roleList(scope: Scope, params: RoleListParams): Promise<{ data: RoleRecord[]; total: number }>;
  roleMany(scope: Scope, ids: string[]): Promise<RoleRecord[]>;
  /** Unscoped: the level of a role, undefined when there is no such role. */
  roleLevel(scope: Scope, role_cuid: string): Promise<number | undefined>;
  /** Unscoped: whether the company exists. */
  companyExists(scope: Scope, company_cuid: string): Promise<boolean>;

  /** A visible user by (lower-cased) email. */
  visibleByEmail(scope: Scope, email: string): Promise<UserByEmail | undefined>;
  /** Unscoped (a user already found): the user's notification blacklists. */
  blacklists(scope: Scope, user_cuid: string): Promise<Pick<TUserFindOneOutput, 'notification_blacklist' | 'portal_notification_blacklist'>>;
  /** The caller's own meta, locked (in a transaction). */
  lockOwnMeta(scope: Scope): Promise<{ meta: TUserMeta | null } | undefined>;
  writeOwnMeta(scope: Scope, meta: TUserMeta): Promise<void>;
  /** A visible user with every membership's level. */
  visibleWithLevels(scope: Scope, user_cuid: string): Promise<{ user_cuid: string; memberships: UserLevels } | undefined>;
  /** Unscoped (checked by the caller): (de)activates a user, the caller recorded as the one who did. */
  setInactive(scope: Scope, user_cuid: string, inactive: boolean): Promise<TUserStatusOutput>;

  list(scope: Scope, params: UserListParams, reference?: { target: 'company_cuid'; id: string }): Promise<{ data: TUserRecord[]; total: number }>;
  visibleMany(scope: Scope, ids: string[]): Promise<TUserRecord[]>;
  /** Unscoped (a user the caller already reached): one record. */
  record(scope: Scope, user_cuid: string): Promise<TUserRecord | undefined>;
  /** Unscoped: the sign-in of a user (the caller's own, for the current-password check). */
  signIn(scope: Scope, user_cuid: string): Promise<{ email: string; password: string | null } | undefined>;
  /** A reachable user, locked (in a transaction), with their password hash and every membership's level. */
  lockReachable(scope: Scope, user_cuid: string): Promise<{ user_cuid: string; email: string; password: string | null; memberships: UserLevels } | undefined>;
  /** Unscoped: whether another user than `except` holds the email. */
  emailTaken(scope: Scope, email: string, except?: string): Promise<boolean>;
  /** Inserts a user and their first membership; answers the new user's id. */
  insert(scope: Scope, user: NewUser): Promise<string>;
  /** Unscoped (checked by the caller): writes the changes; the caller is recorded as the one who deactivated. */
  update(scope: Scope, user_cuid: string, changes: UserChanges): Promise<void>;
  /** Unscoped (checked by the caller). */
  delete(scope: Scope, user_cuid: string): Promise<void>;
}

const USER_COLUMNS = `u.user_cuid, u.user_cuid AS id, u.email, u.name, u.phone, COALESCE(u.meta, '{}'::jsonb) AS meta,
  u.inactive, u.inactivated_at, u.inactivated_by_user_cuid, u.created_at`;

const USER_SORT_COLUMNS: Record<string, string> = {
  id: 'u.user_cuid',
  user_cuid: 'u.user_cuid',
  email: 'u.email',
  name: 'u.name',
  phone: 'u.phone',
  inactive: 'u.inactive',
  inactivated_at: 'u.inactivated_at',
  created_at: 'u.created_at',
};

/** SQL condition: the user `u` is visible to the caller ($2 superuser, $3 self, $4 admin companies). */
const VISIBLE_USER = `($2::boolean OR u.user_cuid = $3 OR EXISTS (
  SELECT 1 FROM company_membership vm WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY($4::varchar[])))`;

/** Every membership of user `u` with its level (the policy's `user_memberships`). */
const USER_MEMBERSHIPS = `COALESCE((SELECT json_agg(json_build_object('company_cuid', m.company_cuid, 'level', r.level))
    FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid WHERE m.user_cuid = u.user_cuid), '[]'::json)`;

const ROLE_RECORD = `r.role_cuid AS id, r.role_cuid, r.name, r.level::int AS level, r.description, r.translations`;

/**
 * Rows of "user" u the caller may read with users.view: themselves, and users holding a
 * membership in a company the caller administers (a superuser reads all). Being a plain member
 * of a company shows nobody of it.
 */
function visibleSql(scope: Scope, p: SqlParams): string {
  if (scope.superuser) return 'TRUE';
  return `(u.user_cuid = ${p.add(scope.user_cuid)} OR EXISTS (SELECT 1 FROM company_membership vm
            WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY(${p.add(scope.adminCompanies)}::varchar[])))`;
}

/**
 * Users the caller may try to change: the visible ones and the members of the caller's companies
 * (a colleague is known; changing them answers FORBIDDEN, not NOT_FOUND).
 */
function reachableSql(scope: Scope, p: SqlParams): string {
  if (scope.superuser) return 'TRUE';
  return `(u.user_cuid = ${p.add(scope.user_cuid)} OR EXISTS (SELECT 1 FROM company_membership vm
            WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY(${p.add(scope.companies)}::varchar[])))`;
}

@Injectable()
export class SqlUsersRepository extends SqlRepository<UsersRepository> implements UsersRepository {
  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
  }

  async roles(_scope: Scope): Promise<TRole[]> {
    const rows = await this.db.query(`SELECT role_cuid, name, level, description, translations FROM role ORDER BY level, name`);
    return (rows as TRole[]).map((r) => ({ ...r, level: Number(r.level) }));
  }

  async roleList(_scope: Scope, params: RoleListParams) {
    const p = new SqlParams();
    const where = ['TRUE'];
    const f = params.filter;
    if (f.q) where.push(`(r.name ILIKE ${p.add(likeNeedle(f.q))} OR r.description ILIKE ${p.add(likeNeedle(f.q))})`);
    if (f.id) where.push(`r.role_cuid = ANY(${p.add(f.id)}::varchar[])`);
    if (f.level !== undefined) where.push(`r.level = ${p.add(f.level)}`);
    const countParams = [...p.values];
    const page = pageSql(
      p,
      params,
      { id: 'r.role_cuid', role_cuid: 'r.role_cuid', name: 'r.name', level: 'r.level' },
      { field: 'level', order: 'ASC' },
      'r.role_cuid',
    );
    const [rows, [{ n }]] = await Promise.all([
      this.db.query(`SELECT ${ROLE_RECORD} FROM role r WHERE ${where.join(' AND ')} ${page}`, p.values) as Promise<RoleRecord[]>,
      this.db.query(`SELECT count(*)::int AS n FROM role r WHERE ${where.join(' AND ')}`, countParams) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async roleMany(_scope: Scope, ids: string[]): Promise<RoleRecord[]> {
    return (await this.db.query(`SELECT ${ROLE_RECORD} FROM role r WHERE r.role_cuid = ANY($1::varchar[]) ORDER BY r.level`, [
      [...new Set(ids)],
    ])) as RoleRecord[];
  }

  async roleLevel(_scope: Scope, role_cuid: string): Promise<number | undefined> {
    const [role] = (await this.db.query(`SELECT role_cuid, level FROM role WHERE role_cuid = $1`, [role_cuid])) as { level: number }[];
    return role ? Number(role.level) : undefined;
  }

  async companyExists(_scope: Scope, company_cuid: string): Promise<boolean> {
    const [company] = await this.db.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [company_cuid]);
    return !!company;
  }

  async visibleByEmail(scope: Scope, email: string): Promise<UserByEmail | undefined> {
    const [user] = (await this.db.query(
      `SELECT u.user_cuid, u.email, u.name, u.inactive, u.meta FROM "user" u
        WHERE u.email = lower($1) AND ${VISIBLE_USER}`,
      [email, scope.superuser, scope.user_cuid, scope.adminCompanies],
    )) as UserByEmail[];
    return user;
  }

  async blacklists(_scope: Scope, user_cuid: string) {
    const [notification_blacklist, portal_notification_blacklist] = await Promise.all([
      this.db.query(
        `SELECT blacklist_cuid, user_cuid, trigger_cuid,
                to_char(until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS until
           FROM notification_user_blacklist WHERE user_cuid = $1 AND (until IS NULL OR until > now())`,
        [user_cuid],
      ) as Promise<TUserFindOneOutput['notification_blacklist']>,
      this.db.query(
        `SELECT blacklist_cuid, user_cuid, system_cuid, notification_type::text AS notification_type
           FROM portal_notification_user_blacklist WHERE user_cuid = $1`,
        [user_cuid],
      ) as Promise<TUserFindOneOutput['portal_notification_blacklist']>,
    ]);
    return { notification_blacklist, portal_notification_blacklist };
  }

  async lockOwnMeta(scope: Scope) {
    const [row] = (await this.db.query(`SELECT meta FROM "user" WHERE user_cuid = $1 FOR UPDATE`, [scope.user_cuid])) as { meta: TUserMeta | null }[];
    return row;
  }

  async writeOwnMeta(scope: Scope, meta: TUserMeta): Promise<void> {
    await this.db.query(`UPDATE "user" SET meta = $2 WHERE user_cuid = $1`, [scope.user_cuid, JSON.stringify(meta)]);
  }

  async visibleWithLevels(scope: Scope, user_cuid: string) {
    const [target] = (await this.db.query(
      `SELECT u.user_cuid, ${USER_MEMBERSHIPS} AS memberships
         FROM "user" u WHERE u.user_cuid = $1 AND ${VISIBLE_USER}`,
      [user_cuid, scope.superuser, scope.user_cuid, scope.adminCompanies],
    )) as { user_cuid: string; memberships: UserLevels }[];
    return target;
  }

  async setInactive(scope: Scope, user_cuid: string, inactive: boolean): Promise<TUserStatusOutput> {
    const [rows] = (await this.db.query(
      `UPDATE "user" SET inactive = $2,
              inactivated_at = CASE WHEN $2 THEN COALESCE(inactivated_at, now()) ELSE NULL END,
              inactivated_by_user_cuid = CASE WHEN $2 THEN $3 ELSE NULL END
        WHERE user_cuid = $1
        RETURNING user_cuid, inactive, inactivated_at, inactivated_by_user_cuid`,
      [user_cuid, inactive, scope.user_cuid],
    )) as [TUserStatusOutput[], number];
    return rows[0];
  }

  async list(scope: Scope, params: UserListParams, reference?: { target: 'company_cuid'; id: string }) {
    const p = new SqlParams();
    const where = [visibleSql(scope, p)];
    const f = params.filter;
    if (f.q) where.push(`(u.email ILIKE ${p.add(likeNeedle(f.q))} OR u.name ILIKE ${p.add(likeNeedle(f.q))})`);
    if (f.id) where.push(`u.user_cuid = ANY(${p.add(f.id)}::varchar[])`);
    if (f.inactive !== undefined) where.push(`u.inactive = ${p.add(f.inactive)}`);
    for (const company of [f.company_cuid, reference?.id].filter((c): c is string => c !== undefined)) {
      // Only companies the caller administers (or their own membership): membership elsewhere is not theirs to learn.
      where.push(`EXISTS (SELECT 1 FROM company_membership fm WHERE fm.user_cuid = u.user_cuid AND fm.company_cuid = ${p.add(company)}
                  ${scope.superuser ? '' : `AND (fm.company_cuid = ANY(${p.add(scope.adminCompanies)}::varchar[]) OR fm.user_cuid = ${p.add(scope.user_cuid)})`})`);
    }
    const countParams = [...p.values];
    const page = pageSql(p, params, USER_SORT_COLUMNS, { field: 'email', order: 'ASC' }, 'u.user_cuid');
    const [rows, [{ n }]] = await Promise.all([
      this.db.query(`SELECT ${USER_COLUMNS} FROM "user" u WHERE ${where.join(' AND ')} ${page}`, p.values) as Promise<TUserRecord[]>,
      this.db.query(`SELECT count(*)::int AS n FROM "user" u WHERE ${where.join(' AND ')}`, countParams) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async visibleMany(scope: Scope, ids: string[]): Promise<TUserRecord[]> {
    const p = new SqlParams();
    return (await this.db.query(
      `SELECT ${USER_COLUMNS} FROM "user" u WHERE u.user_cuid = ANY(${p.add([...new Set(ids)])}::varchar[]) AND ${visibleSql(scope, p)}
        ORDER BY u.email`,
      p.values,
    )) as TUserRecord[];
  }

  async record(_scope: Scope, user_cuid: string): Promise<TUserRecord | undefined> {
    const [row] = (await this.db.query(`SELECT ${USER_COLUMNS} FROM "user" u WHERE u.user_cuid = $1`, [user_cuid])) as TUserRecord[];
    return row;
  }

  async signIn(_scope: Scope, user_cuid: string) {
    const [me] = (await this.db.query(`SELECT email, password FROM "user" WHERE user_cuid = $1`, [user_cuid])) as { email: string; password: string | null }[];
    return me;
  }

  async lockReachable(scope: Scope, user_cuid: string) {
    const p = new SqlParams();
    const [row] = (await this.db.query(
      `SELECT u.user_cuid, u.email, u.password, ${USER_MEMBERSHIPS} AS memberships
         FROM "user" u WHERE u.user_cuid = ${p.add(user_cuid)} AND ${reachableSql(scope, p)} FOR UPDATE OF u`,
      p.values,
    )) as { user_cuid: string; email: string; password: string | null; memberships: UserLevels }[];
    if (!row) return undefined;
    return { ...row, memberships: row.memberships.map((m) => ({ company_cuid: m.company_cuid, level: Number(m.level) })) };
  }

  async emailTaken(_scope: Scope, email: string, except?: string): Promise<boolean> {
    const [taken] = await this.db.query(`SELECT 1 FROM "user" WHERE email = $1 AND user_cuid IS DISTINCT FROM $2`, [email, except ?? null]);
    return !!taken;
  }

  async insert(_scope: Scope, user: NewUser): Promise<string> {
    const user_cuid = newCuid();
    await this.db.query(
      `INSERT INTO "user" (user_cuid, email, password, name, phone, inactive, inactivated_at, meta)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6 THEN now() END, $7)`,
      [
        user_cuid,
        user.email,
        user.password,
        user.name,
        user.phone,
        user.inactive ?? false,
        JSON.stringify(user.language ? { preferences: { language: user.language } } : {}),
      ],
    );
    await this.db.query(`INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ($1, $2, $3, $4, $5)`, [
      newCuid(),
      user.role_cuid,
      user_cuid,
      user.company_cuid,
      user.is_company_admin,
    ]);
    return user_cuid;
  }

  async update(scope: Scope, user_cuid: string, changes: UserChanges): Promise<void> {
    const p = new SqlParams();
    const sets: string[] = [];
    if (changes.email !== undefined) sets.push(`email = ${p.add(changes.email)}`);
    if (changes.name !== undefined) sets.push(`name = ${p.add(changes.name)}`);
    if (changes.phone !== undefined) sets.push(`phone = ${p.add(changes.phone)}`);
    if (changes.password !== undefined) sets.push(`password = ${p.add(changes.password)}`);
    if (changes.inactive !== undefined) {
      const inactive = p.add(changes.inactive);
      sets.push(
        `inactive = ${inactive}`,
        `inactivated_at = CASE WHEN ${inactive} THEN COALESCE(inactivated_at, now()) ELSE NULL END`,
        `inactivated_by_user_cuid = CASE WHEN ${inactive} THEN (CASE WHEN inactive THEN inactivated_by_user_cuid ELSE ${p.add(scope.user_cuid)} END) ELSE NULL END`,
      );
    }
    if (sets.length) await this.db.query(`UPDATE "user" SET ${sets.join(', ')} WHERE user_cuid = ${p.add(user_cuid)}`, p.values);
  }

  async delete(_scope: Scope, user_cuid: string): Promise<void> {
    await this.db.query(`DELETE FROM "user" WHERE user_cuid = $1`, [user_cuid]);
  }
}
