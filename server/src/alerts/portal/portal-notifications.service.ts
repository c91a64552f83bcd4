import { Injectable, Logger } from '@nestjs/common';
import type { Actor } from '../../../../shared/access/policy';
import { newCuid } from '../../common/ids';
import { notFound } from '../../common/errors';
import { SystemAccessService } from '../../systems/system-access.service';
import { LiveEventsService } from './live-events.service';
import type { TChangelog, TPortalNotification, TToast } from './portal.schema';
import { PortalNotificationsRepository } from './portal-notifications.repository';

/**
 * Portal notifications (spec type CHANGELOG so far): written with the event that causes them,
 * pushed live to the members of the companies that see the system (owner and shares), minus
 * inactive users, the author, and those who muted that system for that type.
 */
@Injectable()
export class PortalNotificationsService {
  private readonly logger = new Logger(PortalNotificationsService.name);

  constructor(
    private readonly rows: PortalNotificationsRepository,
    private readonly systems: SystemAccessService,
    private readonly live: LiveEventsService,
  ) {}

  async createChangelog(actor: Actor, input: { system_cuid: string; title: string; message: string }): Promise<TChangelog> {
    const { changelog, toast, recipients } = await this.rows.transaction(actor, async (tx) => {
      const system = await this.systems.authorize(actor, 'changelog.create', input.system_cuid, tx);
      const role_cuid = await this.rows.authorRole(actor, tx, system.company_cuid);
      const changelog = await this.rows.insertChangelog(actor, tx, {
        log_cuid: newCuid(),
        title: input.title,
        message: input.message || null,
        system_cuid: system.system_cuid,
        role_cuid,
      });
      const notification_cuid = newCuid();
      const sent_at = await this.rows.insertChangelogNotification(actor, tx, {
        notification_cuid,
        message: input.message || input.title,
        system_cuid: system.system_cuid,
        args: { title: input.title, log_cuid: changelog.log_cuid, author_user_cuid: actor.user_cuid },
      });
      const recipients = await this.rows.changelogRecipients(actor, tx, system.system_cuid);
      const toast: TToast = {
        id: notification_cuid,
        type: 'NOTIFICATION',
        title: `${system.name}: ${input.title}`,
        message: input.message,
        severity: 'INFO',
        triggeredAt: { timestamp: sent_at, timezone: system.timezone },
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
    if (!(await this.rows.acknowledge(actor, notification_cuid))) throw notFound('Notification');
    return { ok: true };
  }

  /** Mutes one type of portal notification of one system for the caller. */
  async mute(actor: Actor, system_cuid: string, notification_type: 'CHANGELOG'): Promise<void> {
    await this.systems.visible(actor, system_cuid);
    await this.rows.mute(actor, newCuid(), system_cuid, notification_type);
  }

  /** Unmutes one type of one system for the caller; a system the caller cannot see is NOT_FOUND, as for mute. */
  async unmute(actor: Actor, system_cuid: string, notification_type: 'CHANGELOG'): Promise<void> {
    await this.systems.visible(actor, system_cuid);
    await this.rows.unmute(actor, system_cuid, notification_type);
  }

  /** The caller's recent portal notifications (systems they see), newest first, with read state. */
  async recent(actor: Actor, limit: number): Promise<TPortalNotification[]> {
    return this.rows.recent(actor, limit);
  }
}
