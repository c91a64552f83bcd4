import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/config';
import type { SendResult } from '../delivery/channel-sender';
import { Buckets, SlidingWindows, type Window } from './rate-limit';
import { TelegramBotApi } from './telegram-api';

/** Telegram's documented limits for bots. */
export const TELEGRAM_LIMITS = {
  /** About one message per second to one chat (short bursts pass, sustained ones get 429). */
  perChat: { max: 1, perMs: 1000 },
  /** At most 20 messages a minute to one group. */
  perGroup: { max: 20, perMs: 60_000 },
  /** About 30 messages a second overall. */
  overall: { max: 30, perMs: 1000 },
} as const;
/** Longer than this to wait for a slot → the outbox is asked to come back later instead. */
const MAX_WAIT_MS = 2000;

/**
 * The portal's Telegram bot (TELEGRAM_BOT_TOKEN): the API client, who the bot is (getMe, for the
 * deep link), and sending under Telegram's rate limits. Without a token nothing here calls out.
 */
@Injectable()
export class TelegramBot {
  private readonly logger = new Logger('Telegram');
  readonly api: TelegramBotApi | null;
  private meCache: { id: string; username: string | null } | null = null;
  private meTriedAt = 0;
  private readonly windows = new SlidingWindows();
  /** Chats Telegram told us to leave alone for a while (429 retry_after). */
  private readonly held = new Buckets();
  /** Chats that moved (a group became a supergroup): the loop or a send stores the new id. */
  onChatMigrated: ((from: string, to: string) => Promise<void>) | null = null;

  constructor(config: AppConfig) {
    this.api = config.TELEGRAM_BOT_TOKEN ? new TelegramBotApi(config.TELEGRAM_API_URL, config.TELEGRAM_BOT_TOKEN, config.CHANNEL_HTTP_TIMEOUT_MS) : null;
  }

  get configured(): boolean {
    return this.api !== null;
  }

  /** The bot's id and username (cached; asked again at most every 30 s after a failure). */
  async me(): Promise<{ id: string; username: string | null } | null> {
    if (!this.api) return null;
    if (this.meCache) return this.meCache;
    if (Date.now() - this.meTriedAt < 30_000 && this.meTriedAt > 0) return null;
    this.meTriedAt = Date.now();
    try {
      const r = await this.api.getMe();
      if (r.ok && r.result) {
        this.meCache = { id: String(r.result.id), username: r.result.username ?? null };
        return this.meCache;
      }
      this.logger.warn(`getMe refused: ${this.api.scrub(r.description ?? String(r.error_code))}`);
    } catch (e) {
      this.logger.warn((e as Error).message);
    }
    return null;
  }

  /** Sends one HTML message to a chat under the limits; answers what the outbox needs. */
  async send(chatId: string, html: string): Promise<SendResult> {
    if (!this.api) return { ok: false, permanent: true, reason: 'Telegram is not configured on this portal' };
    const windows: Window[] = [
      { key: `chat:${chatId}`, ...TELEGRAM_LIMITS.perChat },
      { key: '*', ...TELEGRAM_LIMITS.overall },
      ...(chatId.startsWith('-') ? [{ key: `group:${chatId}`, ...TELEGRAM_LIMITS.perGroup }] : []),
    ];
    const held = this.held.waitFor(chatId);
    if (held > 0) return { ok: false, retryAfterMs: held, reason: 'Telegram asked to wait' };
    const wait = this.windows.waitFor(windows);
    if (wait > MAX_WAIT_MS) return { ok: false, retryAfterMs: wait, reason: 'Telegram rate limit (held back by the portal)' };
    await this.windows.waitUntil(this.windows.book(windows, wait));
    let r;
    try {
      r = await this.api.sendMessage(chatId, html);
    } catch (e) {
      return { ok: false, retryAfterMs: 10_000, reason: (e as Error).message };
    }
    if (r.ok) return { ok: true };
    const description = this.api.scrub(r.description ?? `HTTP ${r.status}`);
    const code = r.error_code ?? r.status;
    if (code === 429) {
      const seconds = r.parameters?.retry_after ?? 1;
      // Nothing more to this chat until then.
      this.held.emptyFor(chatId, seconds * 1000);
      return { ok: false, retryAfterMs: Math.max(1, seconds * 1000), reason: `Telegram asked to wait ${seconds} s` };
    }
    const migrated = r.parameters?.migrate_to_chat_id;
    if (migrated !== undefined && this.onChatMigrated) {
      await this.onChatMigrated(chatId, String(migrated));
      return { ok: false, retryAfterMs: 1, reason: 'The group became a supergroup; its new id is stored' };
    }
    if (code === 403 || (code === 400 && /chat not found|bot was kicked|not a member|have no rights|user is deactivated/i.test(description))) {
      return { ok: false, permanent: true, reason: `Telegram refused: ${description}` };
    }
    if (code === 401 || code === 404) return { ok: false, retryAfterMs: 60_000, reason: 'Telegram refused the bot token' };
    if (code === 400) return { ok: false, permanent: true, reason: `Telegram refused: ${description}` };
    return { ok: false, retryAfterMs: 10_000, reason: `Telegram answered ${code}` };
  }
}
