import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { newCuid } from '../../common/ids';
import { DATA_SOURCE } from '../../database/database.module';
import { AppConfig } from '../../config/config';
import { escapeHtml } from '../render';
import type { TelegramChat, TelegramMessage, TelegramUpdate } from './telegram-api';
import { TelegramBot } from './telegram-bot';

/** Seconds a lease on the update loop lasts without renewal (another instance takes over after). */
const LEASE_SECONDS = 90;
/** `/start <code>` or `/start@bot_name <code>`. */
const START = /^\/start(?:@([A-Za-z0-9_]{3,64}))?\s+([A-Za-z0-9_-]{4,64})\s*$/;

/**
 * The bot's update loop: getUpdates long polling, by one instance at a time (a lease row in
 * telegram_bot_state), with the offset stored there so a restart reads no update twice. It links a
 * chat to a channel when someone sends `/start <code>` there (the deep link does it for them).
 */
@Injectable()
export class TelegramUpdatesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Telegram');
  private readonly owner = newCuid();
  private readonly stop = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly bot: TelegramBot,
  ) {
    bot.onChatMigrated = (from, to) => this.migrate(from, to);
  }

  onApplicationBootstrap(): void {
    if (!this.bot.configured) {
      this.logger.log('No TELEGRAM_BOT_TOKEN: Telegram channels are not offered');
      return;
    }
    this.loop = this.run().catch((e) => this.logger.error(`update loop stopped: ${(e as Error).message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stop.abort();
    await this.loop;
    const me = this.bot.configured ? await this.bot.me().catch(() => null) : null;
    if (me) await this.ds.query(`UPDATE telegram_bot_state SET lease_owner = NULL, lease_until = NULL WHERE bot_id = $1 AND lease_owner = $2`, [me.id, this.owner]).catch(() => undefined);
  }

  private async run(): Promise<void> {
    const api = this.bot.api!;
    let me = await this.bot.me();
    while (!this.stop.signal.aborted) {
      if (!me) {
        await this.pause(30_000);
        me = await this.bot.me();
        continue;
      }
      const offset = await this.lease(me.id).catch(() => null);
      if (offset === null) {
        await this.pause(10_000);
        continue;
      }
      let answer;
      try {
        answer = await api.getUpdates(offset, this.config.TELEGRAM_POLL_SECONDS, this.stop.signal);
      } catch (e) {
        if (this.stop.signal.aborted) break;
        this.logger.warn((e as Error).message);
        await this.pause(5000);
        continue;
      }
      if (!answer.ok || !answer.result) {
        const wait = (answer.parameters?.retry_after ?? 5) * 1000;
        this.logger.warn(`getUpdates refused: ${api.scrub(answer.description ?? String(answer.error_code))}`);
        await this.pause(wait);
        continue;
      }
      for (const update of answer.result) {
        if (this.stop.signal.aborted) break;
        try {
          await this.handle(update, me.username);
        } catch (e) {
          this.logger.warn(`update ${update.update_id}: ${api.scrub((e as Error).message)}`);
        }
        await this.ds.query(`UPDATE telegram_bot_state SET update_offset = GREATEST(update_offset, $2) WHERE bot_id = $1 AND lease_owner = $3`, [me.id, update.update_id + 1, this.owner]);
      }
    }
  }

  /** Takes or renews the lease; answers the stored offset, or null when another instance holds it. */
  private async lease(bot_id: string): Promise<number | null> {
    await this.ds.query(`INSERT INTO telegram_bot_state (bot_id) VALUES ($1) ON CONFLICT (bot_id) DO NOTHING`, [bot_id]);
    const rows = (await this.ds.query(
      `UPDATE telegram_bot_state SET lease_owner = $2, lease_until = now() + make_interval(secs => $3)
        WHERE bot_id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < now())
        RETURNING update_offset`,
      [bot_id, this.owner, LEASE_SECONDS],
    )) as { update_offset: string }[];
    // PGlite answers UPDATE … RETURNING as [rows, count] through TypeORM's driver on some versions.
    const row = Array.isArray(rows[0]) ? (rows[0] as unknown as { update_offset: string }[])[0] : rows[0];
    return row ? Number(row.update_offset) : null;
  }

  private async handle(update: TelegramUpdate, username: string | null): Promise<void> {
    const message: TelegramMessage | undefined = update.message ?? update.channel_post;
    if (message?.migrate_to_chat_id !== undefined) {
      await this.migrate(String(message.chat.id), String(message.migrate_to_chat_id));
      return;
    }
    if (update.my_chat_member && ['kicked', 'left'].includes(update.my_chat_member.new_chat_member.status)) {
      await this.ds.query(
        `UPDATE notification_channel c SET status = 'DISABLED' FROM telegram_notification_channel t
          WHERE t.channel_cuid = c.channel_cuid AND t.group_chat_id = $1 AND c.status = 'ACTIVE'`,
        [String(update.my_chat_member.chat.id)],
      );
      return;
    }
    const m = message?.text ? START.exec(message.text.trim()) : null;
    if (!message || !m) return;
    if (m[1] && username && m[1].toLowerCase() !== username.toLowerCase()) return; // meant for another bot
    const linked = await this.link(m[2], message.chat);
    const api = this.bot.api!;
    const chat = String(message.chat.id);
    if (linked) {
      this.logger.log(`channel ${linked.channel_cuid} linked to a chat`);
      await api.sendMessage(chat, `✅ Linked: the alerts of <b>${escapeHtml(linked.company)}</b> will arrive in this chat.`).catch(() => undefined);
    } else {
      await api.sendMessage(chat, 'This link code is not valid or was already used. Create a Telegram channel in the portal to get a new one.').catch(() => undefined);
    }
  }

  /** Links the chat to the PENDING channel holding `code` (once: the code is cleared). */
  async link(code: string, chat: TelegramChat): Promise<{ channel_cuid: string; company: string } | null> {
    const name = chat.title ?? ([chat.first_name, chat.last_name].filter(Boolean).join(' ') || (chat.username ? `@${chat.username}` : String(chat.id)));
    return this.ds.transaction(async (tx) => {
      const [row] = (await tx.query(
        `SELECT t.channel_cuid, co.name AS company FROM telegram_notification_channel t
           JOIN notification_channel c ON c.channel_cuid = t.channel_cuid JOIN company co ON co.company_cuid = c.company_cuid
          WHERE t.token = $1 AND t.linked_at IS NULL FOR UPDATE OF t`,
        [code],
      )) as { channel_cuid: string; company: string }[];
      if (!row) return null;
      await tx.query(`UPDATE telegram_notification_channel SET group_chat_id = $2, group_chat_name = $3, linked_at = now(), token = NULL WHERE channel_cuid = $1`, [
        row.channel_cuid,
        String(chat.id),
        name.slice(0, 255),
      ]);
      await tx.query(`UPDATE notification_channel SET status = 'ACTIVE' WHERE channel_cuid = $1 AND status = 'PENDING'`, [row.channel_cuid]);
      return row;
    });
  }

  private async migrate(from: string, to: string): Promise<void> {
    await this.ds.query(`UPDATE telegram_notification_channel SET group_chat_id = $2 WHERE group_chat_id = $1`, [from, to]);
  }

  private pause(ms: number): Promise<void> {
    if (this.stop.signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.stop.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.stop.signal.addEventListener('abort', done, { once: true });
    });
  }
}
