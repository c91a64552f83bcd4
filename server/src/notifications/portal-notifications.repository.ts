import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../../shared/access/policy';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { companySeesSystemSql, visibleSystemSql } from '../tenancy/visibility';
import type { TChangelog, TPortalNotification } from './notifications.schema';

/**
 * The SQL of portal notifications (spec type CHANGELOG so far) and of the changelog entries that
 * cause them. The caller comes first; a method that runs in the caller's transaction takes it next.
 * Reads and acknowledgements are limited in the query to systems the caller sees.
 */
@Injectable()
export class PortalNotificationsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(_actor: Actor, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /** The caller's role recorded with an entry: the one held in the system's company first, else the most powerful. */
  async authorRole(actor: Actor, tx: EntityManager, company_cuid: string): Promise<string | null> {
    const [role] = await tx.query<{ role_cuid: string }[]>(
      `SELECT m.role_cuid FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid
        WHERE m.user_cuid = $1 ORDER BY (m.company_cuid = $2) DESC, r.level LIMIT 1`,
      [actor.user_cuid, company_cuid],
    );
    return role?.role_cuid ?? null;
  }

  /** Unscoped (the caller was authorized on the system): a changelog entry by the caller. */
  async insertChangelog(
    actor: Actor,
    tx: EntityManager,
    entry: { log_cuid: string; title: string; message: string | null; system_cuid: string; role_cuid: string | null },
  ): Promise<TChangelog> {
    const [changelog] = await tx.query<TChangelog[]>(
      `INSERT INTO system_changelog (log_cuid, title, message, user_cuid, system_cuid, role_cuid)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING log_cuid, "timestamp", title, message, user_cuid, system_cuid, role_cuid`,
      [entry.log_cuid, entry.title, entry.message, actor.user_cuid, entry.system_cuid, entry.role_cuid],
    );
    return changelog;
  }

  /** Unscoped (the caller was authorized on the system): an INFO CHANGELOG notification; answers when it was sent. */
  async insertChangelogNotification(
    _actor: Actor,
    tx: EntityManager,
    n: { notification_cuid: string; message: string; system_cuid: string; args: Record<string, unknown> },
  ): Promise<Date> {
    const [notification] = await tx.query<{ sent_at: Date }[]>(
      `INSERT INTO portal_notification (notification_cuid, message, severity_level, role_cuid, system_cuid, type, args)
       VALUES ($1, $2, 'INFO', NULL, $3, 'CHANGELOG', $4) RETURNING sent_at`,
      [n.notification_cuid, n.message, n.system_cuid, JSON.stringify(n.args)],
    );
    return notification.sent_at;
  }

  /**
   * Who gets a changelog notification of a system: the active members of the companies that see it
   * (owner and shares), minus the caller (its author) and those who muted CHANGELOG for that system.
   */
  async changelogRecipients(actor: Actor, tx: EntityManager, system_cuid: string): Promise<string[]> {
    const rows = await tx.query<{ user_cuid: string }[]>(
      `SELECT DISTINCT u.user_cuid
         FROM "user" u
         JOIN company_membership m ON m.user_cuid = u.user_cuid
         JOIN system s ON s.system_cuid = $1
        WHERE u.inactive = false AND u.user_cuid <> $2
          AND ${companySeesSystemSql('m.company_cuid')}
          AND NOT EXISTS (SELECT 1 FROM portal_notification_user_blacklist b
                           WHERE b.user_cuid = u.user_cuid AND b.system_cuid = $1 AND b.notification_type = 'CHANGELOG')`,
      [system_cuid, actor.user_cuid],
    );
    return rows.map((r) => r.user_cuid);
  }

  /** Records that the caller read a notification of a system they see; false when there is none such. */
  async acknowledge(actor: Actor, notification_cuid: string): Promise<boolean> {
    const values: unknown[] = [actor.user_cuid, notification_cuid];
    // INSERT … RETURNING answers the rows (UPDATE and DELETE answer [rows, count]).
    const rows = await this.ds.query<unknown[]>(
      `INSERT INTO portal_notification_user_history ("timestamp", user_cuid, notification_cuid)
       SELECT now(), $1, n.notification_cuid
         FROM portal_notification n JOIN system s ON s.system_cuid = n.system_cuid
        WHERE n.notification_cuid = $2 AND ${visibleSystemSql(actor, new SqlParams(values), 's')}
       RETURNING notification_cuid`,
      values,
    );
    return rows.length > 0;
  }

  /** The caller's own mute (the system was checked visible by the caller). */
  async mute(actor: Actor, blacklist_cuid: string, system_cuid: string, notification_type: 'CHANGELOG'): Promise<void> {
    await this.ds.query(
      `INSERT INTO portal_notification_user_blacklist (blacklist_cuid, user_cuid, system_cuid, notification_type)
       VALUES ($1, $2, $3, $4) ON CONFLICT (user_cuid, system_cuid, notification_type) DO NOTHING`,
      [blacklist_cuid, actor.user_cuid, system_cuid, notification_type],
    );
  }

  async unmute(actor: Actor, system_cuid: string, notification_type: 'CHANGELOG'): Promise<void> {
    await this.ds.query(`DELETE FROM portal_notification_user_blacklist WHERE user_cuid = $1 AND system_cuid = $2 AND notification_type = $3`, [
      actor.user_cuid,
      system_cuid,
      notification_type,
    ]);
  }

  /** The caller's recent portal notifications (systems they see), newest first, with read state. */
  async recent(actor: Actor, limit: number): Promise<TPortalNotification[]> {
    const values: unknown[] = [actor.user_cuid, limit];
    return await this.ds.query<TPortalNotification[]>(
      `SELECT n.notification_cuid, n.message, n.sent_at, n.severity_level::text AS severity_level, n.system_cuid,
              n.type::text AS type, n.args,
              EXISTS (SELECT 1 FROM portal_notification_user_history h
                       WHERE h.user_cuid = $1 AND h.notification_cuid = n.notification_cuid) AS read
         FROM portal_notification n JOIN system s ON s.system_cuid = n.system_cuid
        WHERE ${visibleSystemSql(actor, new SqlParams(values), 's')}
        ORDER BY n.sent_at DESC, n.notification_cuid
        LIMIT $2`,
      values,
    );
  }
}
