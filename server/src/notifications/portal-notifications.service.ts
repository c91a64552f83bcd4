import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Actor } from '../access/policy';
import { newCuid } from '../common/ids';
import { notFound } from '../common/errors';
import { DATA_SOURCE } from '../database/database.module';
import { SystemAccessService } from '../systems/system-access.service';
import { companySeesSystemSql, visibleSystemSql } from '../tenancy/visibility';
import { SqlParams } from '../database/sql-params';
import { LiveEventsService } from './live-events.service';
import type { TChangelog, TPortalNotification, TToast } from './notifications.schema';

/**
 * Portal notifications (spec type CHANGELOG so far): written with the event that causes them,
 * pushed live to the members of the companies that see the system (owner and shares), minus
 * inactive users, the author, and those who muted that system for that type.
 */
@Injectable()
export class PortalNotificationsService {
  private readonly logger = new Logger(PortalNotificationsService.name);

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly systems: SystemAccessService,
    private readonly live: LiveEventsService,
  ) {}

  async createChangelog(actor: Actor, input: { system_cuid: string; title: string; message: string }): Promise<TChangelog> {
    const { changelog, toast, recipients } = await this.ds.transaction(async (tx) => {
      const system = await this.systems.authorize(actor, 'changelog.create', input.system_cuid, tx);
      const [role] = (await tx.query(
        `SELECT m.role_cuid FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid
          WHERE m.user_cuid = $1 ORDER BY (m.company_cuid = $2) DESC, r.level LIMIT 1`,
        [actor.user_cuid, system.company_cuid],
      )) as { role_cuid: string }[];
      const [changelog] = (await tx.query(
        `INSERT INTO system_changelog (log_cuid, title, message, user_cuid, system_cuid, role_cuid)
         VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING log_cuid, "timestamp", title, message, user_cuid, system_cuid, role_cuid`,
        [newCuid(), input.title, input.message || null, actor.user_cuid, system.system_cuid, role?.role_cuid ?? null],
      )) as TChangelog[];
      const notification_cuid = newCuid();
      const [notification] = (await tx.query(
        `INSERT INTO portal_notification (notification_cuid, message, severity_level, role_cuid, system_cuid, type, args)
         VALUES ($1, $2, 'INFO', NULL, $3, 'CHANGELOG', $4) RETURNING sent_at`,
        [
          notification_cuid,
          input.message || input.title,
          system.system_cuid,
          JSON.stringify({ title: input.title, log_cuid: changelog.log_cuid, author_user_cuid: actor.user_cuid }),
        ],
      )) as { sent_at: Date }[];
      const recipients = ((await tx.query(
        `SELECT DISTINCT u.user_cuid
           FROM "user" u
           JOIN company_membership m ON m.user_cuid = u.user_cuid
           JOIN system s ON s.system_cuid = $1
          WHERE u.inactive = false AND u.user_cuid <> $2
            AND ${companySeesSystemSql('m.company_cuid')}
            AND NOT EXISTS (SELECT 1 FROM portal_notification_user_blacklist b
                             WHERE b.user_cuid = u.user_cuid AND b.system_cuid = $1 AND b.notification_type = 'CHANGELOG')`,
        [system.system_cuid, actor.user_cuid],
      )) as { user_cuid: string }[]).map((r) => r.user_cuid);
      const toast: TToast = {
        id: notification_cuid,
        type: 'NOTIFICATION',
        title: `${system.name}: ${input.title}`,
        message: input.message,
        severity: 'INFO',
        triggeredAt: { timestamp: notification.sent_at, timezone: system.timezone },
        onClickTarget: `/systems/${system.system_cuid}/changelog`,
        source: { notification_cuid, system_cuid: system.system_cuid, notification_type: 'CHANGELOG' },
      };
      return { changelog, toast, recipients };
    });
    // After the commit: the notification exists before anybody can acknowledge it.
    await this.live.publish(recipients, { kind: 'toast', toast }).catch((e: unknown) => {
      this.logger.error(`Live delivery of ${toast.id} failed: ${(e as Error).message}`);
    });
    return changelog;
  }

  /** Reading a notification writes PortalNotificationUserHistory. */
  async acknowledge(actor: Actor, notification_cuid: string): Promise<{ ok: true }> {
    const values: unknown[] = [actor.user_cuid, notification_cuid];
    // INSERT … RETURNING answers the rows (UPDATE and DELETE answer [rows, count]).
    const rows = (await this.ds.query(
      `INSERT INTO portal_notification_user_history ("timestamp", user_cuid, notification_cuid)
       SELECT now(), $1, n.notification_cuid
         FROM portal_notification n JOIN system s ON s.system_cuid = n.system_cuid
        WHERE n.notification_cuid = $2 AND ${visibleSystemSql(actor, new SqlParams(values), 's')}
       RETURNING notification_cuid`,
      values,
    )) as unknown[];
    if (!rows.length) throw notFound('Notification');
    return { ok: true };
  }

  /** Mutes one type of portal notification of one system for the caller. */
  async mute(actor: Actor, system_cuid: string, notification_type: 'CHANGELOG'): Promise<void> {
    await this.systems.visible(actor, system_cuid);
    await this.ds.query(
      `INSERT INTO portal_notification_user_blacklist (blacklist_cuid, user_cuid, system_cuid, notification_type)
       VALUES ($1, $2, $3, $4) ON CONFLICT (user_cuid, system_cuid, notification_type) DO NOTHING`,
      [newCuid(), actor.user_cuid, system_cuid, notification_type],
    );
  }

  /** Unmutes one type of one system for the caller; a system the caller cannot see is NOT_FOUND, as for mute. */
  async unmute(actor: Actor, system_cuid: string, notification_type: 'CHANGELOG'): Promise<void> {
    await this.systems.visible(actor, system_cuid);
    await this.ds.query(
      `DELETE FROM portal_notification_user_blacklist WHERE user_cuid = $1 AND system_cuid = $2 AND notification_type = $3`,
      [actor.user_cuid, system_cuid, notification_type],
    );
  }

  /** The caller's recent portal notifications (systems they see), newest first, with read state. */
  async recent(actor: Actor, limit: number): Promise<TPortalNotification[]> {
    const values: unknown[] = [actor.user_cuid, limit];
    const rows = (await this.ds.query(
      `SELECT n.notification_cuid, n.message, n.sent_at, n.severity_level::text AS severity_level, n.system_cuid,
              n.type::text AS type, n.args,
              EXISTS (SELECT 1 FROM portal_notification_user_history h
                       WHERE h.user_cuid = $1 AND h.notification_cuid = n.notification_cuid) AS read
         FROM portal_notification n JOIN system s ON s.system_cuid = n.system_cuid
        WHERE ${visibleSystemSql(actor, new SqlParams(values), 's')}
        ORDER BY n.sent_at DESC, n.notification_cuid
        LIMIT $2`,
      values,
    )) as TPortalNotification[];
    return rows;
  }
}
