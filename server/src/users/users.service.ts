import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { TRPCError } from '@trpc/server';
import { LoginThrottle } from '../auth/login-throttle';
import { keepOwnSession } from '../trpc/own-session';
import { hashPassword, verifyPassword } from '../auth/password';
import { type Actor, bestLevel, can, isSuperUser, mayHandleLevel } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { newCuid } from '../common/ids';
import { scopeOf } from '../access/scope';
import { DATA_SOURCE } from '../database/database.module';
import { fieldError } from '../crud/field-error';
import { likeNeedle, pageSql } from '../crud/list-query';
import { SqlParams } from '../database/sql-params';
import type { TRole, TUserCreateData, TUserFindOneOutput, TUserRecord, TUserStatusOutput, TUserUpdateData } from './users.schema';

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

export interface UserListParams {
  pagination: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' };
  filter: { q?: string; id?: string[]; company_cuid?: string; inactive?: boolean };
}

/** SQL condition: the user `u` is visible to the caller ($2 superuser, $3 self, $4 admin companies). */
const VISIBLE_USER = `($2::boolean OR u.user_cuid = $3 OR EXISTS (
  SELECT 1 FROM company_membership vm WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY($4::varchar[])))`;

/** Every membership of user `u` with its level (the policy's `user_memberships`). */
const USER_MEMBERSHIPS = `COALESCE((SELECT json_agg(json_build_object('company_cuid', m.company_cuid, 'level', r.level))
    FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid WHERE m.user_cuid = u.user_cuid), '[]'::json)`;

/** The one answer a non-superuser gets for a taken email, wherever the holder is a member. */
export const EMAIL_UNUSABLE = 'This email cannot be used';

@Injectable()
export class UsersService {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly throttle?: LoginThrottle,
  ) {}

  async allRoles(): Promise<TRole[]> {
    const rows = await this.ds.query(`SELECT role_cuid, name, level, description FROM role ORDER BY level, name`);
    return (rows as TRole[]).map((r) => ({ ...r, level: Number(r.level) }));
  }

  /** Spec §7 `user findOne` by email: the caller, or a user of a company the caller administers. */
  async findOneByEmail(actor: Actor, email: string): Promise<TUserFindOneOutput> {
    const scope = scopeOf(actor);
    const [user] = (await this.ds.query(
      `SELECT u.user_cuid, u.email, u.name, u.inactive, u.meta FROM "user" u
        WHERE u.email = lower($1) AND ${VISIBLE_USER}`,
      [email, scope.superuser, scope.user_cuid, scope.adminCompanies],
    )) as Omit<TUserFindOneOutput, 'notification_blacklist' | 'portal_notification_blacklist'>[];
    if (!user) throw notFound('User');
    const [blacklist, portal] = await Promise.all([
      this.ds.query(`SELECT blacklist_cuid, user_cuid, trigger_cuid FROM notification_user_blacklist WHERE user_cuid = $1`, [
        user.user_cuid,
      ]),
      this.ds.query(
        `SELECT blacklist_cuid, user_cuid, system_cuid, notification_type::text AS notification_type
           FROM portal_notification_user_blacklist WHERE user_cuid = $1`,
        [user.user_cuid],
      ),
    ]);
    return { ...user, meta: user.meta ?? {}, notification_blacklist: blacklist, portal_notification_blacklist: portal };
  }

  /** Stores the caller's toast preferences in user.meta (spec §3.1 meta.preferences.toast_notifications). */
  async updatePreferences(
    actor: Actor,
    input: { toast_notifications_disabled?: boolean; toast_notification_timeout?: number | null },
  ): Promise<void> {
    await this.ds.transaction(async (tx) => {
      const [row] = (await tx.query(`SELECT meta FROM "user" WHERE user_cuid = $1 FOR UPDATE`, [actor.user_cuid])) as {
        meta: Record<string, any> | null;
      }[];
      if (!row) throw notFound('User');
      const meta = row.meta ?? {};
      const preferences = { ...(meta.preferences ?? {}) };
      preferences.toast_notifications = { ...(preferences.toast_notifications ?? {}), ...input };
      await tx.query(`UPDATE "user" SET meta = $2 WHERE user_cuid = $1`, [actor.user_cuid, JSON.stringify({ ...meta, preferences })]);
    });
  }

  /** Deactivates or reactivates a user; deactivation ends their sessions on the next request. */
  async setInactive(actor: Actor, user_cuid: string, inactive: boolean): Promise<TUserStatusOutput> {
    const scope = scopeOf(actor);
    const [target] = (await this.ds.query(
      `SELECT u.user_cuid, ${USER_MEMBERSHIPS} AS memberships
         FROM "user" u WHERE u.user_cuid = $1 AND ${VISIBLE_USER}`,
      [user_cuid, scope.superuser, scope.user_cuid, scope.adminCompanies],
    )) as { user_cuid: string; memberships: { company_cuid: string; level: number }[] }[];
    if (!target) throw notFound('User');
    if (!can(actor, 'users.deactivate', { user_cuid, user_memberships: target.memberships })) {
      throw forbidden('Only a superuser, or an admin of every company of this user who is at least as powerful there, can change this user');
    }
    const [rows] = (await this.ds.query(
      `UPDATE "user" SET inactive = $2,
              inactivated_at = CASE WHEN $2 THEN COALESCE(inactivated_at, now()) ELSE NULL END,
              inactivated_by_user_cuid = CASE WHEN $2 THEN $3 ELSE NULL END
        WHERE user_cuid = $1
        RETURNING user_cuid, inactive, inactivated_at, inactivated_by_user_cuid`,
      [user_cuid, inactive, actor.user_cuid],
    )) as [TUserStatusOutput[], number];
    return rows[0];
  }

  // ---- react-admin resource `user` (spec §6 Users) ----------------------------------------------

  /**
   * Rows of "user" u the caller may read with users.view: themselves, and users holding a
   * membership in a company the caller administers (a superuser reads all). Being a plain member
   * of a company shows nobody of it.
   */
  private visibleSql(actor: Actor, p: SqlParams): string {
    const scope = scopeOf(actor);
    if (scope.superuser) return 'TRUE';
    return `(u.user_cuid = ${p.add(scope.user_cuid)} OR EXISTS (SELECT 1 FROM company_membership vm
              WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY(${p.add(scope.adminCompanies)}::varchar[])))`;
  }

  /**
   * Users the caller may try to change: the `visibleSql` ones and the members of the caller's
   * companies (a colleague is known; changing them answers FORBIDDEN, not NOT_FOUND).
   */
  private reachableSql(actor: Actor, p: SqlParams): string {
    const scope = scopeOf(actor);
    if (scope.superuser) return 'TRUE';
    return `(u.user_cuid = ${p.add(scope.user_cuid)} OR EXISTS (SELECT 1 FROM company_membership vm
              WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY(${p.add(scope.companies)}::varchar[])))`;
  }

  async list(actor: Actor, params: UserListParams, reference?: { target: 'company_cuid'; id: string }) {
    const p = new SqlParams();
    const where = [this.visibleSql(actor, p)];
    const f = params.filter;
    if (f.q) where.push(`(u.email ILIKE ${p.add(likeNeedle(f.q))} OR u.name ILIKE ${p.add(likeNeedle(f.q))})`);
    if (f.id) where.push(`u.user_cuid = ANY(${p.add(f.id)}::varchar[])`);
    if (f.inactive !== undefined) where.push(`u.inactive = ${p.add(f.inactive)}`);
    const scope = scopeOf(actor);
    for (const company of [f.company_cuid, reference?.id].filter((c): c is string => c !== undefined)) {
      // Only companies the caller administers (or their own membership): membership elsewhere is not theirs to learn.
      where.push(`EXISTS (SELECT 1 FROM company_membership fm WHERE fm.user_cuid = u.user_cuid AND fm.company_cuid = ${p.add(company)}
                  ${scope.superuser ? '' : `AND (fm.company_cuid = ANY(${p.add(scope.adminCompanies)}::varchar[]) OR fm.user_cuid = ${p.add(scope.user_cuid)})`})`);
    }
    const countParams = [...p.values];
    const page = pageSql(p, params, USER_SORT_COLUMNS, { field: 'email', order: 'ASC' }, 'u.user_cuid');
    const [rows, [{ n }]] = await Promise.all([
      this.ds.query(`SELECT ${USER_COLUMNS} FROM "user" u WHERE ${where.join(' AND ')} ${page}`, p.values) as Promise<TUserRecord[]>,
      this.ds.query(`SELECT count(*)::int AS n FROM "user" u WHERE ${where.join(' AND ')}`, countParams) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async getMany(actor: Actor, ids: string[]): Promise<{ data: TUserRecord[] }> {
    const p = new SqlParams();
    const rows = (await this.ds.query(
      `SELECT ${USER_COLUMNS} FROM "user" u WHERE u.user_cuid = ANY(${p.add([...new Set(ids)])}::varchar[]) AND ${this.visibleSql(actor, p)}
        ORDER BY u.email`,
      p.values,
    )) as TUserRecord[];
    return { data: rows };
  }

  async getOne(actor: Actor, id: string): Promise<{ data: TUserRecord }> {
    const [row] = (await this.getMany(actor, [id])).data;
    if (!row) throw notFound('User');
    return { data: row };
  }

  private async loadRecord(tx: EntityManager, user_cuid: string): Promise<TUserRecord> {
    const [row] = (await tx.query(`SELECT ${USER_COLUMNS} FROM "user" u WHERE u.user_cuid = $1`, [user_cuid])) as TUserRecord[];
    if (!row) throw notFound('User');
    return row;
  }

  /** A user the caller may try to change, locked, with their password hash and every membership's level. */
  private async lockTarget(actor: Actor, tx: EntityManager, id: string) {
    const p = new SqlParams();
    const [row] = (await tx.query(
      `SELECT u.user_cuid, u.email, u.password, ${USER_MEMBERSHIPS} AS memberships
         FROM "user" u WHERE u.user_cuid = ${p.add(id)} AND ${this.reachableSql(actor, p)} FOR UPDATE OF u`,
      p.values,
    )) as { user_cuid: string; email: string; password: string | null; memberships: { company_cuid: string; level: number }[] }[];
    if (!row) throw notFound('User');
    return { ...row, memberships: row.memberships.map((m) => ({ company_cuid: m.company_cuid, level: Number(m.level) })) };
  }

  /**
   * A taken email: a superuser is told so; anybody else gets one answer whether the holder is a
   * member of their company or of another one (nothing to learn about other companies' users).
   */
  private emailTaken(actor: Actor): TRPCError {
    return fieldError(['email'], isSuperUser(actor) ? 'A user with this email already exists' : EMAIL_UNUSABLE, 'CONFLICT');
  }

  private async assertEmailFree(actor: Actor, tx: EntityManager, email: string, except?: string): Promise<void> {
    const [taken] = await tx.query(`SELECT 1 FROM "user" WHERE email = $1 AND user_cuid IS DISTINCT FROM $2`, [email, except ?? null]);
    if (taken) throw this.emailTaken(actor);
  }

  private async uniqueEmail<T>(actor: Actor, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      const pg = (e as { driverError?: { code?: string; constraint?: string } }).driverError;
      if (pg?.code === '23505' && pg.constraint === 'uq_user_email') throw this.emailTaken(actor);
      throw e;
    }
  }

  /**
   * One's own password or email (one's sign-in) changes only with the current password, so a
   * session left open is not an account given away. Wrong guesses count in the login brake.
   */
  private async assertCurrentPassword(email: string, hash: string | null, given: string | undefined, address: string): Promise<void> {
    if (!given) throw fieldError(['current_password'], 'Enter your current password to change your password or email');
    // Reserved before the check, like a login: concurrent guesses cannot all pass the brake.
    const verdict = this.throttle ? await this.throttle.reserve(email, address) : undefined;
    if (verdict?.blocked) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `Too many wrong passwords. Try again in ${verdict.retryAfterSeconds} s.` });
    }
    let right: boolean;
    try {
      right = await verifyPassword(hash, given);
    } catch (e) {
      if (verdict) await this.throttle!.release(verdict.ticket);
      throw e;
    }
    // A wrong password keeps its reserved attempt: it counts as a failure.
    if (!right) throw fieldError(['current_password'], 'The current password is not right');
    if (verdict) await this.throttle!.succeed(verdict.ticket);
  }

  /**
   * Spec §6: a company admin creates a user with a password and their first membership, in a
   * company they administer; nobody grants a role above their own level in that company.
   */
  async create(actor: Actor, input: TUserCreateData): Promise<{ data: TUserRecord }> {
    const scope = scopeOf(actor);
    if (!scope.superuser && !scope.companies.includes(input.company_cuid)) throw notFound('Company');
    const [company] = await this.ds.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [input.company_cuid]);
    if (!company) throw notFound('Company');
    if (!can(actor, 'users.create', { company_cuid: input.company_cuid })) throw forbidden('Only an admin of this company can add users to it');
    const [role] = (await this.ds.query(`SELECT role_cuid, level FROM role WHERE role_cuid = $1`, [input.role_cuid])) as { level: number }[];
    if (!role) throw notFound('Role');
    if (!mayHandleLevel(actor, input.company_cuid, Number(role.level))) throw forbidden('You cannot grant a role above your own');
    await this.assertEmailFree(actor, this.ds.manager, input.email);
    const hash = await hashPassword(input.password);
    return this.uniqueEmail(actor, () =>
      this.ds.transaction(async (tx) => {
        const user_cuid = newCuid();
        await tx.query(`INSERT INTO "user" (user_cuid, email, password, name, phone) VALUES ($1, $2, $3, $4, $5)`, [
          user_cuid,
          input.email,
          hash,
          input.name,
          input.phone ?? null,
        ]);
        await tx.query(
          `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ($1, $2, $3, $4, $5)`,
          [newCuid(), input.role_cuid, user_cuid, input.company_cuid, input.is_company_admin ?? false],
        );
        return { data: await this.loadRecord(tx, user_cuid) };
      }),
    );
  }

  /**
   * Spec §6 edit single: the user themselves, a superuser, or (no takeover across companies) an
   * admin of every company the user belongs to who is at least as powerful there; only a
   * superuser changes a superuser (policy `mayManageUser`). One's own password or email needs the
   * current password. A password, email or inactive change revokes the user's sessions (database
   * trigger on "user").
   */
  async update(actor: Actor, id: string, data: TUserUpdateData, client: { address?: string } = {}): Promise<{ data: TUserRecord }> {
    const { current_password, ...changes } = data;
    // One's own sign-in (password, email) needs the current password, checked before the
    // transaction: the login brake records a wrong guess in its own transaction (a rollback here
    // must not erase it), and the embedded database has a single connection.
    let checkedHash: string | null | undefined;
    if (id === actor.user_cuid && (changes.password !== undefined || changes.email !== undefined)) {
      const [me] = (await this.ds.query(`SELECT email, password FROM "user" WHERE user_cuid = $1`, [id])) as { email: string; password: string | null }[];
      if (me && (changes.password !== undefined || changes.email !== me.email)) {
        await this.assertCurrentPassword(me.email, me.password, current_password, client.address ?? 'unknown');
        checkedHash = me.password;
      }
    }
    const hash = changes.password !== undefined ? await hashPassword(changes.password) : undefined;
    return this.uniqueEmail(actor, () =>
      this.ds.transaction(async (tx) => {
        const target = await this.lockTarget(actor, tx, id);
        const policyTarget = { user_cuid: target.user_cuid, user_memberships: target.memberships };
        if (!can(actor, 'users.edit', policyTarget)) {
          throw forbidden('Only the user, a superuser, or an admin of every company of this user who is at least as powerful there can change this user');
        }
        if (changes.inactive !== undefined && !can(actor, 'users.deactivate', policyTarget)) throw forbidden();
        const signIn = changes.password !== undefined || (changes.email !== undefined && changes.email !== target.email);
        if (signIn && target.user_cuid === actor.user_cuid && (checkedHash === undefined || checkedHash !== target.password)) {
          // Not checked above, or the password changed since: ask again.
          throw fieldError(['current_password'], 'Enter your current password to change your password or email');
        }
        if (changes.email !== undefined) await this.assertEmailFree(actor, tx, changes.email, target.user_cuid);
        const p = new SqlParams();
        const sets: string[] = [];
        if (changes.email !== undefined) sets.push(`email = ${p.add(changes.email)}`);
        if (changes.name !== undefined) sets.push(`name = ${p.add(changes.name)}`);
        if (changes.phone !== undefined) sets.push(`phone = ${p.add(changes.phone)}`);
        if (hash !== undefined) sets.push(`password = ${p.add(hash)}`);
        if (changes.inactive !== undefined) {
          const inactive = p.add(changes.inactive);
          sets.push(
            `inactive = ${inactive}`,
            `inactivated_at = CASE WHEN ${inactive} THEN COALESCE(inactivated_at, now()) ELSE NULL END`,
            `inactivated_by_user_cuid = CASE WHEN ${inactive} THEN (CASE WHEN inactive THEN inactivated_by_user_cuid ELSE ${p.add(actor.user_cuid)} END) ELSE NULL END`,
          );
        }
        // One's own password or email change keeps the session making it (the others end).
        if (sets.length) await keepOwnSession(tx, actor.user_cuid, () => tx.query(`UPDATE "user" SET ${sets.join(', ')} WHERE user_cuid = ${p.add(target.user_cuid)}`, p.values));
        return { data: await this.loadRecord(tx, target.user_cuid) };
      }),
    );
  }

  /**
   * Spec §6 delete: a single user by a superuser, never oneself (`users.delete`); several at once
   * need level 0 (`users.deleteAny`) and never include oneself. All or nothing.
   */
  async remove(actor: Actor, ids: string[], permission: 'users.delete' | 'users.deleteAny'): Promise<TUserRecord[]> {
    return this.ds.transaction(async (tx) => {
      const removed: TUserRecord[] = [];
      for (const id of [...new Set(ids)]) {
        const target = await this.lockTarget(actor, tx, id);
        if (target.user_cuid === actor.user_cuid) throw forbidden('You cannot delete yourself');
        if (!can(actor, 'users.delete', { user_cuid: target.user_cuid }) || !can(actor, permission, { user_cuid: target.user_cuid })) {
          throw forbidden();
        }
        removed.push(await this.loadRecord(tx, target.user_cuid));
        await tx.query(`DELETE FROM "user" WHERE user_cuid = $1`, [target.user_cuid]);
      }
      return removed;
    });
  }

  // ---- react-admin resource `role` (read-only; the same four roles for everybody) ---------------

  async roleList(params: {
    pagination: { page: number; perPage: number };
    sort?: { field: string; order: 'ASC' | 'DESC' };
    filter: { q?: string; id?: string[]; level?: number };
  }) {
    const p = new SqlParams();
    const where = ['TRUE'];
    const f = params.filter;
    if (f.q) where.push(`(r.name ILIKE ${p.add(likeNeedle(f.q))} OR r.description ILIKE ${p.add(likeNeedle(f.q))})`);
    if (f.id) where.push(`r.role_cuid = ANY(${p.add(f.id)}::varchar[])`);
    if (f.level !== undefined) where.push(`r.level = ${p.add(f.level)}`);
    const countParams = [...p.values];
    const page = pageSql(p, params, { id: 'r.role_cuid', role_cuid: 'r.role_cuid', name: 'r.name', level: 'r.level' }, { field: 'level', order: 'ASC' }, 'r.role_cuid');
    const [rows, [{ n }]] = await Promise.all([
      this.ds.query(`SELECT r.role_cuid AS id, r.role_cuid, r.name, r.level::int AS level, r.description FROM role r WHERE ${where.join(' AND ')} ${page}`, p.values) as Promise<
        (TRole & { id: string })[]
      >,
      this.ds.query(`SELECT count(*)::int AS n FROM role r WHERE ${where.join(' AND ')}`, countParams) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async roleMany(ids: string[]) {
    const rows = (await this.ds.query(
      `SELECT r.role_cuid AS id, r.role_cuid, r.name, r.level::int AS level, r.description FROM role r WHERE r.role_cuid = ANY($1::varchar[]) ORDER BY r.level`,
      [[...new Set(ids)]],
    )) as (TRole & { id: string })[];
    return { data: rows };
  }

  async roleOne(id: string) {
    const [row] = (await this.roleMany([id])).data;
    if (!row) throw notFound('Role');
    return { data: row };
  }
}
