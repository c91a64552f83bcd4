import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/config';
import type { ChannelSender, ChannelTarget, OutgoingAlert, SendResult } from '../delivery/channel-sender';
import { allowedHosts, checkWebhookUrl, postToWebhook } from './discord-webhook';
import { Mailer } from './mailer';
import { discordMarkdown, mailHtml, mailText, subjectOf, telegramHtml } from './messages';
import { Buckets, sleep } from './rate-limit';
import { TelegramBot } from './telegram-bot';
import { ChannelsRepository, type SenderChannel } from './channels.repository';

/** Waiting longer than this for a bucket → the outbox is asked to come back later. */
const MAX_WAIT_MS = 2000;

type Row = SenderChannel;
/** A channel that is not ACTIVE takes nothing (unverified, unlinked, disabled). */
const inactive = (row: Row | undefined): SendResult | null =>
  !row
    ? { ok: false, permanent: true, reason: 'The channel no longer exists' }
    : row.status !== 'ACTIVE'
      ? { ok: false, permanent: true, reason: `The channel is ${String(row.status).toLowerCase()}` }
      : null;

@Injectable()
export class EmailSender implements ChannelSender {
  readonly source = 'EMAIL' as const;
  constructor(
    private readonly rows: ChannelsRepository,
    private readonly mailer: Mailer,
  ) {}

  async send(target: ChannelTarget, alerts: OutgoingAlert[]): Promise<SendResult> {
    const row = await this.rows.senderChannel(target);
    const no = inactive(row);
    if (no) return no;
    if (!row!.verified_at) return { ok: false, permanent: true, reason: 'The address is not verified' };
    const r = await this.mailer.send({ to: String(row!.email), subject: subjectOf(alerts), text: mailText(alerts), html: mailHtml(alerts) });
    if (r.ok) return { ok: true };
    return r.temporary ? { ok: false, retryAfterMs: 60_000, reason: r.reason } : { ok: false, permanent: true, reason: r.reason };
  }
}

@Injectable()
export class TelegramSender implements ChannelSender {
  readonly source = 'TELEGRAM' as const;
  constructor(
    private readonly rows: ChannelsRepository,
    private readonly bot: TelegramBot,
  ) {}

  async send(target: ChannelTarget, alerts: OutgoingAlert[]): Promise<SendResult> {
    const row = await this.rows.senderChannel(target);
    const no = inactive(row);
    if (no) return no;
    if (!row!.group_chat_id) return { ok: false, permanent: true, reason: 'The channel is not linked to a chat' };
    return this.bot.send(String(row!.group_chat_id), telegramHtml(alerts));
  }
}

/**
 * Discord: the webhook's own bucket (X-RateLimit-Remaining / X-RateLimit-Reset-After) is kept per
 * webhook; an empty bucket waits (briefly) or sends the outbox back with retryAfterMs.
 */
@Injectable()
export class DiscordSender implements ChannelSender {
  readonly source = 'DISCORD' as const;
  private readonly buckets = new Buckets();
  constructor(
    private readonly rows: ChannelsRepository,
    private readonly config: AppConfig,
  ) {}

  async send(target: ChannelTarget, alerts: OutgoingAlert[]): Promise<SendResult> {
    const row = await this.rows.senderChannel(target);
    const no = inactive(row);
    if (no) return no;
    return this.post(target.channel_cuid, String(row!.webhook), discordMarkdown(alerts));
  }

  /** Posts to a webhook under its bucket; the key is the channel (never the secret URL). */
  async post(key: string, webhook: string, content: string): Promise<SendResult> {
    // The allow list is asked again at every send: a host removed from the setting is never called.
    const checked = checkWebhookUrl(webhook, allowedHosts(this.config.DISCORD_WEBHOOK_HOSTS));
    if (!checked.ok) return { ok: false, permanent: true, reason: checked.reason };
    const wait = this.buckets.waitFor(key);
    if (wait > MAX_WAIT_MS) return { ok: false, retryAfterMs: wait, reason: 'Discord rate limit (held back by the portal)' };
    if (wait > 0) await sleep(wait);
    const r = await postToWebhook(checked.url.toString(), content, this.config.CHANNEL_HTTP_TIMEOUT_MS);
    switch (r.kind) {
      case 'ok':
        if (r.remaining === 0 && r.resetAfterMs !== undefined) this.buckets.emptyFor(key, r.resetAfterMs);
        return { ok: true };
      case 'rateLimited':
        this.buckets.emptyFor(key, r.retryAfterMs);
        return { ok: false, retryAfterMs: r.retryAfterMs, reason: 'Discord asked to wait' };
      case 'gone':
        return { ok: false, permanent: true, reason: `Discord refused the webhook (${r.status}): it was deleted or its token changed` };
      case 'refused':
        return r.status >= 500
          ? { ok: false, retryAfterMs: 10_000, reason: `Discord answered ${r.status}` }
          : { ok: false, permanent: true, reason: `Discord refused the message (${r.status})` };
      case 'unreachable':
        return { ok: false, retryAfterMs: 10_000, reason: `Discord could not be reached (${r.reason})` };
    }
  }
}
