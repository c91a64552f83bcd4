import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsString, Max, Min } from 'class-validator';
import { defineSettings, toBool, toInt } from '../config/config';

/**
 * Alerts: the outbox worker, the trigger engine and the channels (server/src/alerts, docs/alerts.md).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class AlertsSettings {
  // ---- Alerts: the outbox worker (server/src/alerts/delivery, docs/alerts.md, "The outbox") ----
  /** Deliver alert events at all (off: events stay PENDING; benches compare with it off). */
  @Transform(toBool)
  @IsBoolean()
  ALERTS_DELIVERY_ENABLED = true;

  /** Failed sends of one alert to one channel before it is ARCHIVED with the reason. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_MAX_ATTEMPTS = 6;

  /** First retry after this many ms; each later one waits twice as long … */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_BACKOFF_BASE_MS = 5_000;

  /** … up to this many ms. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_BACKOFF_MAX_MS = 600_000;

  /** "Wait" answers (429 retry_after) one delivery may get before it is ARCHIVED; they do not count as failed attempts. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_MAX_DEFERRALS = 30;

  /**
   * A claimed (SENDING) event or delivery not finished within this many seconds is claimed again (its
   * instance died). A delivery's holder renews it every third of this while it works: only an
   * instance silent for a whole lease loses its deliveries.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_LEASE_SECONDS = 60;

  /** Poll interval (ms) of the worker; it also wakes on the engine's signal and, on PostgreSQL, on LISTEN. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  ALERTS_DELIVERY_POLL_MS = 2_000;

  /** Events and deliveries one worker claims at once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_BATCH = 200;

  /** Channels one worker sends to at the same time. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_CONCURRENCY = 16;

  /** A channel's alerts wait this many ms (from the first one) so a burst goes out as one message. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_GROUP_WINDOW_MS = 2_000;

  /** From this many alerts for one channel in one window, they go out as one grouped message. */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  ALERTS_GROUP_MIN = 3;

  /** Most alerts in one grouped message (more make several messages). */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  ALERTS_GROUP_MAX = 100;

  /** Days finished deliveries (SENT / ARCHIVED per channel) are kept; 0 → forever. The Notification and NotificationChannelToNotification rows stay. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_DELIVERY_KEEP_DAYS = 30;

  /** Alarm toasts only for events whose device time is at most this many seconds old (backfill raises none). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_LIVE_WINDOW_SECONDS = 900;

  // ---- Alerts: the trigger engine (server/src/alerts/engine, docs/alerts.md, "The trigger engine") ----
  /** Milliseconds between the engine timer's claims of due triggers (no_data, offline, pending durations); 0 → no timer (tests drive it). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_TIMER_INTERVAL_MS = 1000;

  /** Due triggers one timer claim takes (FOR UPDATE SKIP LOCKED LIMIT n; the rest wait for the next claim or another instance). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_TIMER_BATCH = 200;

  /** Ingested values waiting for evaluation, at most; past it the values are dropped and their triggers re-read the stored values instead. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  ALERTS_QUEUE_MAX_ROWS = 500_000;

  /** Seconds between checks whether triggers were changed by another instance (the index is then reloaded); 0 → never. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_INDEX_CHECK_SECONDS = 5;

  // ---- Alert channels (email, Telegram, Discord: server/src/alerts/channels) -------------------
  /** Email: the SMTP server (smtp://user:pass@host:587, smtps://…:465); empty → mails are written as .eml files under <DATA_DIR>/mail. */
  @IsString()
  SMTP_URL = '';

  /** Email: the sender of alert and verification mails. */
  @IsString()
  MAIL_FROM = 'Energy portal <alerts@portal.invalid>';

  /** Email: seconds an address verification link stays valid. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  EMAIL_VERIFY_TTL_SECONDS = 48 * 3600;

  /** Telegram: the bot's token from BotFather; empty → Telegram channels are not offered. A secret: never logged. */
  @IsString()
  TELEGRAM_BOT_TOKEN = '';

  /** Telegram: the Bot API's address (a local Bot API server or a test peer may stand in). */
  @IsString()
  TELEGRAM_API_URL = 'https://api.telegram.org';

  /** Telegram: seconds one getUpdates long poll waits for the bot's next message. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(50)
  TELEGRAM_POLL_SECONDS = 25;

  /** Discord: hosts (host or host:port) a webhook URL may point at, comma-separated; nothing else is ever requested. */
  @IsString()
  DISCORD_WEBHOOK_HOSTS = 'discord.com,discordapp.com,canary.discord.com,ptb.discord.com';

  /** Alert channels: milliseconds one request to Telegram, Discord or the SMTP server may take. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  CHANNEL_HTTP_TIMEOUT_MS = 10_000;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends AlertsSettings {}
}

export const ALERTS_SETTINGS = defineSettings(AlertsSettings);
