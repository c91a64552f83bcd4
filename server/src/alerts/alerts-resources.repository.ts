import type { Actor } from '../../../shared/access/policy';
import type { Queryable } from '../database/repository';

/**
 * The SQL the event records' resources (alerts.resources.ts) run besides the generic CRUD's:
 * whether a channel has what makes it deliverable. The caller comes first, then the CRUD's transaction.
 */
export class AlertsResourcesRepository {
  /**
   * Unscoped (the CRUD already reached the channel under the caller's scope): a verified address,
   * a linked chat, or a webhook.
   */
  async channelReady(_actor: Actor, tx: Queryable, channel_cuid: string): Promise<boolean> {
    const [ready] = (await tx.query(
      `SELECT EXISTS (SELECT 1 FROM email_notification_channel WHERE channel_cuid = $1 AND verified_at IS NOT NULL)
           OR EXISTS (SELECT 1 FROM telegram_notification_channel WHERE channel_cuid = $1 AND linked_at IS NOT NULL)
           OR EXISTS (SELECT 1 FROM discord_notification_channel WHERE channel_cuid = $1) AS ready`,
      [channel_cuid],
    )) as { ready: boolean }[];
    return !!ready?.ready;
  }
}
