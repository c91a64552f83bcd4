import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { type Actor, can } from '../auth/policy';
import { forbidden, notFound } from '../common/errors';
import { scopeOf } from '../common/scope';
import { DATA_SOURCE } from '../database/database.module';
import type { TRole, TUserFindOneOutput, TUserStatusOutput } from './users.schema';

/** SQL condition: the user `u` is visible to the caller ($2 superuser, $3 self, $4 admin companies). */
const VISIBLE_USER = `($2::boolean OR u.user_cuid = $3 OR EXISTS (
  SELECT 1 FROM company_membership vm WHERE vm.user_cuid = u.user_cuid AND vm.company_cuid = ANY($4::varchar[])))`;

@Injectable()
export class UsersService {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

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
      `SELECT u.user_cuid, ARRAY(SELECT m.company_cuid FROM company_membership m WHERE m.user_cuid = u.user_cuid) AS companies
         FROM "user" u WHERE u.user_cuid = $1 AND ${VISIBLE_USER}`,
      [user_cuid, scope.superuser, scope.user_cuid, scope.adminCompanies],
    )) as { user_cuid: string; companies: string[] }[];
    if (!target) throw notFound('User');
    if (!can(actor, 'users.deactivate', { user_cuid, user_company_cuids: target.companies })) throw forbidden();
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
}
