import type { Locale } from '../common/locale';
import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { LoginThrottle } from '../auth/login-throttle';
import { keepOwnSession } from '../trpc/own-session';
import { hashPassword, verifyPassword } from '../auth/password';
import { type Actor, can, isSuperUser, mayHandleLevel, needsCurrentPassword } from '../../../shared/access/policy';
import { forbidden, notFound } from '../common/errors';
import { type Scope, scopeOf } from '../access/scope';
import { fieldError } from '../common/field-error';
import { type RoleListParams, SqlUsersRepository, type UserChanges, type UserListParams, type UsersRepository } from './users.repository';
import type { TInvitationOutcome, TRole, TUserCreateData, TUserFindOneOutput, TUserRecord, TUserStatusOutput, TUserUpdateData } from './users.schema';

/** The role resource has no caller to scope by: the four roles are the same for everybody. */
const ANYBODY: Scope = { user_cuid: '', superuser: false, companies: [], adminCompanies: [] };

/** The one answer a non-superuser gets for a taken email, wherever the holder is a member. */
export const EMAIL_UNUSABLE = 'This email cannot be used';

/** A user created without a password, to be invited (accounts/ sends the mail and keeps the link). */
export interface Invitee {
  user_cuid: string;
  email: string;
  name: string;
  /** The language of the mail: the one the admin picked, else the admin's. */
  locale: Locale;
  /** The language of the answer to the admin (theirs). */
  answerLocale: Locale;
  /** The Host header and protocol of the admin's request (the brand of the mail). */
  host?: string;
  protocol?: string;
  /** The admin who invites (the mail counts against their hourly mail budget). */
  invited_by?: string;
  /** The company the admin invites from: the mail counts against its budgets only, never the invitee's other companies. */
  company_cuid?: string;
}
/** Sends an invitation; never throws for a mail that could not be sent (the outcome says so). */
export type UserInviter = (invitee: Invitee) => Promise<TInvitationOutcome>;

@Injectable()
export class UsersService {
  /** Set by the accounts module at start (it sits above users: users cannot import it). */
  private inviter?: UserInviter;

  useInviter(inviter: UserInviter): void {
    this.inviter = inviter;
  }

  constructor(
    @Inject(SqlUsersRepository) private readonly rows: UsersRepository,
    private readonly throttle?: LoginThrottle,
  ) {}

  async allRoles(): Promise<TRole[]> {
    return this.rows.roles(ANYBODY);
  }

  /** Spec §7 `user findOne` by email: the caller, or a user of a company the caller administers. */
  async findOneByEmail(actor: Actor, email: string): Promise<TUserFindOneOutput> {
    const scope = scopeOf(actor);
    const user = await this.rows.visibleByEmail(scope, email);
    if (!user) throw notFound('User');
    const blacklists = await this.rows.blacklists(scope, user.user_cuid);
    return { ...user, meta: user.meta ?? {}, ...blacklists };
  }

  /** Stores the caller's toast preferences in user.meta (spec §3.1 meta.preferences.toast_notifications). */
  async updatePreferences(
    actor: Actor,
    input: { toast_notifications_disabled?: boolean; toast_notification_timeout?: number | null; language?: Locale },
  ): Promise<void> {
    const scope = scopeOf(actor);
    const { language, ...toast } = input;
    await this.rows.transaction(async (rows) => {
      const row = await rows.lockOwnMeta(scope);
      if (!row) throw notFound('User');
      const meta = row.meta ?? {};
      const preferences = { ...(meta.preferences ?? {}) };
      if (Object.keys(toast).length > 0) preferences.toast_notifications = { ...(preferences.toast_notifications ?? {}), ...toast };
      if (language !== undefined) preferences.language = language;
      await rows.writeOwnMeta(scope, { ...meta, preferences });
    });
  }

  /** Deactivates or reactivates a user; deactivation ends their sessions on the next request. */
  async setInactive(actor: Actor, user_cuid: string, inactive: boolean): Promise<TUserStatusOutput> {
    const scope = scopeOf(actor);
    const target = await this.rows.visibleWithLevels(scope, user_cuid);
    if (!target) throw notFound('User');
    if (!can(actor, 'users.deactivate', { user_cuid, user_memberships: target.memberships })) {
      throw forbidden('Only a superuser, or an admin of every company of this user who is at least as powerful there, can change this user');
    }
    return this.rows.setInactive(scope, user_cuid, inactive);
  }

  // ---- react-admin resource `user` (spec §6 Users) ----------------------------------------------

  /**
   * Users the caller may read with users.view: themselves, and users holding a membership in a
   * company the caller administers (a superuser reads all); the company filter only looks at
   * companies the caller administers (or their own membership).
   */
  async list(actor: Actor, params: UserListParams, reference?: { target: 'company_cuid'; id: string }) {
    return this.rows.list(scopeOf(actor), params, reference);
  }

  async getMany(actor: Actor, ids: string[]): Promise<{ data: TUserRecord[] }> {
    return { data: await this.rows.visibleMany(scopeOf(actor), ids) };
  }

  async getOne(actor: Actor, id: string): Promise<{ data: TUserRecord }> {
    const [row] = (await this.getMany(actor, [id])).data;
    if (!row) throw notFound('User');
    return { data: row };
  }

  private async loadRecord(rows: UsersRepository, scope: Scope, user_cuid: string): Promise<TUserRecord> {
    const row = await rows.record(scope, user_cuid);
    if (!row) throw notFound('User');
    return row;
  }

  /**
   * A user the caller may try to change (a colleague of one of their companies answers FORBIDDEN
   * later, not NOT_FOUND), locked, with their password hash and every membership's level.
   */
  private async lockTarget(rows: UsersRepository, scope: Scope, id: string) {
    const row = await rows.lockReachable(scope, id);
    if (!row) throw notFound('User');
    return row;
  }

  /**
   * A taken email: a superuser is told so; anybody else gets one answer whether the holder is a
   * member of their company or of another one (nothing to learn about other companies' users).
   */
  private emailTaken(actor: Actor): TRPCError {
    return fieldError(['email'], isSuperUser(actor) ? 'A user with this email already exists' : EMAIL_UNUSABLE, 'CONFLICT');
  }

  private async assertEmailFree(actor: Actor, rows: UsersRepository, email: string, except?: string): Promise<void> {
    if (await rows.emailTaken(scopeOf(actor), email, except)) throw this.emailTaken(actor);
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
  async create(
    actor: Actor,
    input: TUserCreateData,
    invite: { locale: Locale; host?: string; protocol?: string } = { locale: 'en' },
  ): Promise<{ data: TUserRecord; invitation?: TInvitationOutcome }> {
    const scope = scopeOf(actor);
    if (!scope.superuser && !scope.companies.includes(input.company_cuid)) throw notFound('Company');
    if (!(await this.rows.companyExists(scope, input.company_cuid))) throw notFound('Company');
    if (!can(actor, 'users.create', { company_cuid: input.company_cuid })) throw forbidden('Only an admin of this company can add users to it');
    const level = await this.rows.roleLevel(scope, input.role_cuid);
    if (level === undefined) throw notFound('Role');
    if (!mayHandleLevel(actor, input.company_cuid, level)) throw forbidden('You cannot grant a role above your own');
    await this.assertEmailFree(actor, this.rows, input.email);
    if (input.password === undefined && !this.inviter) throw fieldError(['password'], 'Required');
    const hash = input.password === undefined ? null : await hashPassword(input.password);
    const created = await this.uniqueEmail(actor, () =>
      this.rows.transaction(async (rows) => {
        const user_cuid = await rows.insert(scope, {
          email: input.email,
          password: hash,
          name: input.name,
          phone: input.phone ?? null,
          company_cuid: input.company_cuid,
          role_cuid: input.role_cuid,
          is_company_admin: input.is_company_admin ?? false,
          // Invited: inactive until the user sets their password from the link.
          inactive: hash === null,
          language: input.language,
        });
        return { data: await this.loadRecord(rows, scope, user_cuid) };
      }),
    );
    if (hash !== null || !this.inviter) return created;
    // After the commit: a mail that cannot go out now does not undo the user (it can be re-sent).
    const invitation = await this.inviter({
      user_cuid: created.data.user_cuid,
      email: created.data.email,
      name: created.data.name,
      locale: input.language ?? invite.locale,
      answerLocale: invite.locale,
      host: invite.host,
      protocol: invite.protocol,
      invited_by: actor.user_cuid,
      company_cuid: input.company_cuid,
    });
    return { ...created, invitation };
  }

  /**
   * Spec §6 edit single: the user themselves, a superuser, or (no takeover across companies) an
   * admin of every company the user belongs to who is at least as powerful there; only a
   * superuser changes a superuser (policy `mayManageUser`). One's own password or email needs the
   * current password. A password, email or inactive change revokes the user's sessions (database
   * trigger on "user").
   */
  async update(actor: Actor, id: string, data: TUserUpdateData, client: { address?: string } = {}): Promise<{ data: TUserRecord }> {
    const scope = scopeOf(actor);
    const { current_password, ...changes } = data;
    // One's own sign-in (password, email) needs the current password, checked before the
    // transaction: the login brake records a wrong guess in its own transaction (a rollback here
    // must not erase it), and the embedded database has a single connection.
    let checkedHash: string | null | undefined;
    if (id === actor.user_cuid && (changes.password !== undefined || changes.email !== undefined)) {
      const me = await this.rows.signIn(scope, id);
      if (me && needsCurrentPassword(actor, { user_cuid: id, email: me.email }, changes)) {
        await this.assertCurrentPassword(me.email, me.password, current_password, client.address ?? 'unknown');
        checkedHash = me.password;
      }
    }
    const hash = changes.password !== undefined ? await hashPassword(changes.password) : undefined;
    return this.uniqueEmail(actor, () =>
      this.rows.transaction(async (rows, tx) => {
        const target = await this.lockTarget(rows, scope, id);
        const policyTarget = { user_cuid: target.user_cuid, user_memberships: target.memberships };
        if (!can(actor, 'users.edit', policyTarget)) {
          throw forbidden('Only the user, a superuser, or an admin of every company of this user who is at least as powerful there can change this user');
        }
        if (changes.inactive !== undefined && !can(actor, 'users.deactivate', policyTarget)) throw forbidden();
        if (needsCurrentPassword(actor, target, changes) && (checkedHash === undefined || checkedHash !== target.password)) {
          // Not checked above, or the password changed since: ask again.
          throw fieldError(['current_password'], 'Enter your current password to change your password or email');
        }
        if (changes.email !== undefined) await this.assertEmailFree(actor, rows, changes.email, target.user_cuid);
        const columns: UserChanges = { email: changes.email, name: changes.name, phone: changes.phone, password: hash, inactive: changes.inactive };
        // One's own password or email change keeps the session making it (the others end).
        if (Object.values(columns).some((v) => v !== undefined)) {
          await keepOwnSession(tx, actor.user_cuid, () => rows.update(scope, target.user_cuid, columns));
        }
        return { data: await this.loadRecord(rows, scope, target.user_cuid) };
      }),
    );
  }

  /**
   * A user the caller may edit (`users.edit`, as in update): NOT_FOUND for one they cannot reach,
   * FORBIDDEN for a colleague they may not change. With what an invitation needs to know.
   */
  async editable(actor: Actor, id: string): Promise<TUserRecord & { has_password: boolean }> {
    const scope = scopeOf(actor);
    return this.rows.transaction(async (rows) => {
      const target = await this.lockTarget(rows, scope, id);
      if (!can(actor, 'users.edit', { user_cuid: target.user_cuid, user_memberships: target.memberships })) {
        throw forbidden('Only the user, a superuser, or an admin of every company of this user who is at least as powerful there can change this user');
      }
      return { ...(await this.loadRecord(rows, scope, target.user_cuid)), has_password: target.password !== null };
    });
  }

  /**
   * Spec §6 delete: a single user by a superuser, never oneself (`users.delete`); several at once
   * need level 0 (`users.deleteAny`) and never include oneself. All or nothing.
   */
  async remove(actor: Actor, ids: string[], permission: 'users.delete' | 'users.deleteAny'): Promise<TUserRecord[]> {
    const scope = scopeOf(actor);
    return this.rows.transaction(async (rows) => {
      const removed: TUserRecord[] = [];
      for (const id of [...new Set(ids)]) {
        const target = await this.lockTarget(rows, scope, id);
        if (target.user_cuid === actor.user_cuid) throw forbidden('You cannot delete yourself');
        if (!can(actor, 'users.delete', { user_cuid: target.user_cuid }) || !can(actor, permission, { user_cuid: target.user_cuid })) {
          throw forbidden();
        }
        removed.push(await this.loadRecord(rows, scope, target.user_cuid));
        await rows.delete(scope, target.user_cuid);
      }
      return removed;
    });
  }

  // ---- react-admin resource `role` (read-only; the same four roles for everybody) ---------------

  async roleList(params: RoleListParams) {
    return this.rows.roleList(ANYBODY, params);
  }

  async roleMany(ids: string[]) {
    return { data: await this.rows.roleMany(ANYBODY, ids) };
  }

  async roleOne(id: string) {
    const [row] = (await this.roleMany([id])).data;
    if (!row) throw notFound('Role');
    return { data: row };
  }
}
