import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { newCuid } from '../../common/ids';
import { AppConfig } from '../../config/config';
import { escapeHtml } from '../render';
import type { TelegramChat, TelegramMessage, TelegramUpdate } from './telegram-api';
import { TelegramBot } from './telegram-bot';
import { TelegramUpdatesRepository, telegramUpdatesJob, type TelegramUpdatesJob } from './telegram-updates.repository';

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
  private readonly job: TelegramUpdatesJob = telegramUpdatesJob(newCuid());
  private readonly stop = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly bot: TelegramBot,
    /** Its SQL (a Nest provider of the channels module; a second loop in tests is made with `new`). */
    private readonly rows: TelegramUpdatesRepository,
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
    if (me) await this.rows.releaseLease(this.job, me.id).catch(() => undefined);
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
        await this.rows.advanceOffset(this.job, me.id, update.update_id + 1);
      }
    }
  }

  /** Takes or renews the lease; answers the stored offset, or null when another instance holds it. */
  private async lease(bot_id: string): Promise<number | null> {
    return this.rows.lease(this.job, bot_id, LEASE_SECONDS);
  }

  private async handle(update: TelegramUpdate, username: string | null): Promise<void> {
    const message: TelegramMessage | undefined = update.message ?? update.channel_post;
    if (message?.migrate_to_chat_id !== undefined) {
      await this.migrate(String(message.chat.id), String(message.migrate_to_chat_id));
      return;
    }
    if (update.my_chat_member && ['kicked', 'left'].includes(update.my_chat_member.new_chat_member.status)) {
      await this.rows.disableChat(this.job, String(update.my_chat_member.chat.id));
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
      await api
        .sendMessage(chat, 'This link code is not valid or was already used. Create a Telegram channel in the portal to get a new one.')
        .catch(() => undefined);
    }
  }

  /** Links the chat to the PENDING channel holding `code` (once: the code is cleared). */
  async link(code: string, chat: TelegramChat): Promise<{ channel_cuid: string; company: string } | null> {
    const name = chat.title ?? ([chat.first_name, chat.last_name].filter(Boolean).join(' ') || (chat.username ? `@${chat.username}` : String(chat.id)));
    return this.rows.linkByCode(this.job, code, { id: String(chat.id), name: name.slice(0, 255) });
  }

  private async migrate(from: string, to: string): Promise<void> {
    await this.rows.migrateChat(this.job, from, to);
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
