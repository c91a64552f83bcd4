import { Inject, Injectable } from '@nestjs/common';
import { DATA_SOURCE } from '../../database/database.module';
import type { DataSource } from 'typeorm';
import { updatedRows } from '../../database/returned-rows';
import type { SystemJob } from '../../common/system-job';

/**
 * Who the Telegram update loop's SQL runs for: no user, the loop of one instance, named by its
 * lease owner id (the lease row in telegram_bot_state says which instance polls the bot).
 */
export interface TelegramUpdatesJob extends SystemJob {
  readonly job: 'telegram-updates';
  readonly owner: string;
}

export const telegramUpdatesJob = (owner: string): TelegramUpdatesJob => ({ job: 'telegram-updates', owner });

/**
 * The SQL of the Telegram bot's update loop (telegram-updates.service.ts): its lease and stored
 * offset, linking a chat to the PENDING channel holding a code, chats that moved or removed the bot.
 * The loop's identity comes first.
 */
@Injectable()
export class TelegramUpdatesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** Takes or renews the lease for `leaseSeconds`; answers the stored offset, or null when another instance holds it. */
  async lease(job: TelegramUpdatesJob, bot_id: string, leaseSeconds: number): Promise<number | null> {
    await this.ds.query(`INSERT INTO telegram_bot_state (bot_id) VALUES ($1) ON CONFLICT (bot_id) DO NOTHING`, [bot_id]);
    const rows = await this.ds.query<unknown[]>(
      `UPDATE telegram_bot_state SET lease_owner = $2, lease_until = now() + make_interval(secs => $3)
        WHERE bot_id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < now())
        RETURNING update_offset`,
      [bot_id, job.owner, leaseSeconds],
    );
    const row = updatedRows<{ update_offset: string }>(rows)[0];
    return row ? Number(row.update_offset) : null;
  }

  async releaseLease(job: TelegramUpdatesJob, bot_id: string): Promise<void> {
    await this.ds.query(`UPDATE telegram_bot_state SET lease_owner = NULL, lease_until = NULL WHERE bot_id = $1 AND lease_owner = $2`, [bot_id, job.owner]);
  }

  /** The next update to read is at least `offset` (only while this loop holds the lease). */
  async advanceOffset(job: TelegramUpdatesJob, bot_id: string, offset: number): Promise<void> {
    await this.ds.query(`UPDATE telegram_bot_state SET update_offset = GREATEST(update_offset, $2) WHERE bot_id = $1 AND lease_owner = $3`, [
      bot_id,
      offset,
      job.owner,
    ]);
  }

  /** The bot was removed from a chat: the ACTIVE channels linked to it are DISABLED. */
  async disableChat(_job: TelegramUpdatesJob, chat_id: string): Promise<void> {
    await this.ds.query(
      `UPDATE notification_channel c SET status = 'DISABLED' FROM telegram_notification_channel t
        WHERE t.channel_cuid = c.channel_cuid AND t.group_chat_id = $1 AND c.status = 'ACTIVE'`,
      [chat_id],
    );
  }

  /** Links the chat to the PENDING channel holding `code` (once: the code is cleared) and makes it ACTIVE. */
  async linkByCode(_job: TelegramUpdatesJob, code: string, chat: { id: string; name: string }): Promise<{ channel_cuid: string; company: string } | null> {
    return this.ds.transaction(async (tx) => {
      const [row] = await tx.query<{ channel_cuid: string; company: string }[]>(
        `SELECT t.channel_cuid, co.name AS company FROM telegram_notification_channel t
           JOIN notification_channel c ON c.channel_cuid = t.channel_cuid JOIN company co ON co.company_cuid = c.company_cuid
          WHERE t.token = $1 AND t.linked_at IS NULL FOR UPDATE OF t`,
        [code],
      );
      if (!row) return null;
      await tx.query(
        `UPDATE telegram_notification_channel SET group_chat_id = $2, group_chat_name = $3, linked_at = now(), token = NULL WHERE channel_cuid = $1`,
        [row.channel_cuid, chat.id, chat.name],
      );
      await tx.query(`UPDATE notification_channel SET status = 'ACTIVE' WHERE channel_cuid = $1 AND status = 'PENDING'`, [row.channel_cuid]);
      return row;
    });
  }

  /** A group became a supergroup: its channels follow the chat's new id. */
  async migrateChat(_job: TelegramUpdatesJob, from: string, to: string): Promise<void> {
    await this.ds.query(`UPDATE telegram_notification_channel SET group_chat_id = $2 WHERE group_chat_id = $1`, [from, to]);
  }
}
