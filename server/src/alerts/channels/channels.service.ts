import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { can, type Actor, type Permission } from '../../../../shared/access/policy';
import { notFound } from '../../common/errors';
import { newCuid } from '../../common/ids';
import { Budgets } from '../../budgets/budgets.service';
import { AppConfig } from '../../config/config';
import { fieldError } from '../../common/field-error';
import { DATA_SOURCE } from '../../database/database.module';
import { SharedSignals, SIGNAL_TOPICS } from '../../database/shared-signals';
import type { ChannelSender, OutgoingAlert } from '../delivery/channel-sender';
import { escapeHtml, escapeMarkdown } from '../render';
import type { TChannelDetails } from './channels.schema';
import { allowedHosts, checkWebhookUrl, webhookHost } from './discord-webhook';
import { Mailer } from './mailer';
import { DiscordSender, EmailSender, TelegramSender } from './senders';
import { TelegramBot } from './telegram-bot';
import { type ChannelRow, ChannelsRepository, LINK_HOLDER, type LinkRow } from './channels.repository';

/** url_request.data of an address verification (only a hash of the link's secret is kept). */
const VERIFY_KIND = 'alertEmailVerification';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** Seconds between two test messages of one channel. */
const TEST_COOLDOWN_MS = 5000;
/** At most this many rows in a channel↔trigger list. */
const LINK_LIST_MAX = 500;

export type VerifyOutcome = { kind: 'verified'; email: string } | { kind: 'expired' } | { kind: 'invalid' };

/** The channel procedures (spec §6 "Channels and notifications: open to all" members of the channel's company). */
@Injectable()
export class ChannelsService {
  private readonly logger = new Logger('Channels');
  /** When each channel last got a test message (any instance: the `channel-test` signal), for the cool-down. */
  private readonly lastTest = new Map<string, number>();

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly mailer: Mailer,
    private readonly bot: TelegramBot,
    private readonly email: EmailSender,
    private readonly telegram: TelegramSender,
    private readonly discord: DiscordSender,
    private readonly budgets: Budgets,
    private readonly rows: ChannelsRepository,
    @Optional() private readonly signals?: SharedSignals,
  ) {
    signals?.on(SIGNAL_TOPICS.channelTest, (channel_cuid) => {
      if (channel_cuid === null) return; // a lost notice: at worst one more test message
      this.lastTest.set(channel_cuid, Date.now());
      if (this.lastTest.size > 10_000) this.lastTest.clear();
    });
  }

  get publicUrl(): string {
    return (this.config.PUBLIC_URL || `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
  }

  // ---- lookups under the policy --------------------------------------------------------------

  /** The company, when the caller may act on its channels; else NOT_FOUND (foreign = missing). */
  private async company(actor: Actor, company_cuid: string, perm: Permission): Promise<{ company_cuid: string; name: string }> {
    const row = await this.rows.company(actor, company_cuid);
    if (!row || !can(actor, perm, { company_cuid })) throw notFound('Company');
    return row;
  }

  async channel(actor: Actor, channel_cuid: string, perm: Permission, tx: EntityManager | DataSource = this.ds): Promise<ChannelRow> {
    const row = await this.rows.channel(actor, channel_cuid, tx);
    if (!row || !can(actor, perm, { company_cuid: row.company_cuid })) throw notFound('Channel');
    return row;
  }

  // ---- details -----------------------------------------------------------------------------

  async details(actor: Actor, channel_cuid: string): Promise<TChannelDetails> {
    return this.detailsOf(actor, await this.channel(actor, channel_cuid, 'channels.view'));
  }

  private async detailsOf(actor: Actor, c: ChannelRow): Promise<TChannelDetails> {
    const channel = { channel_cuid: c.channel_cuid, source: c.source, status: c.status, company_cuid: c.company_cuid, company_name: c.company_name };
    if (c.source === 'EMAIL') {
      const e = await this.rows.email(actor, c.channel_cuid);
      return { channel, email: e ? { email: String(e.email), verified_at: e.verified_at ?? null } : { email: '', verified_at: null } };
    }
    if (c.source === 'TELEGRAM') {
      const t = await this.rows.telegram(actor, c.channel_cuid);
      const code = t && !t.linked_at && t.token ? String(t.token) : null;
      return {
        channel,
        telegram: {
          configured: this.bot.configured,
          group_chat_name: t?.group_chat_name ?? null,
          linked_at: t?.linked_at ?? null,
          ...(await this.linkOf(code)),
        },
      };
    }
    const d = await this.rows.discord(actor, c.channel_cuid);
    return {
      channel,
      discord: d ? { name: String(d.name), host: webhookHost(String(d.webhook)), created_at: d.created_at } : { name: '', host: '', created_at: new Date(0) },
    };
  }

  private async linkOf(code: string | null): Promise<{ code: string | null; command: string | null; deepLink: string | null }> {
    if (!code) return { code: null, command: null, deepLink: null };
    const me = await this.bot.me();
    return { code, command: `/start ${code}`, deepLink: me?.username ? `https://t.me/${me.username}?startgroup=${code}` : null };
  }

  sources() {
    const hosts = allowedHosts(this.config.DISCORD_WEBHOOK_HOSTS);
    return this.bot.me().then((me) => ({
      email: { configured: true as const, files: this.mailer.folder !== null },
      telegram: { configured: this.bot.configured, bot_username: me?.username ?? null },
      discord: { configured: hosts.length > 0, hosts },
    }));
  }

  // ---- EMAIL -------------------------------------------------------------------------------

  async createEmail(actor: Actor, input: { company_cuid: string; email: string }) {
    await this.company(actor, input.company_cuid, 'channels.change');
    // Budgets: room for one more channel (checked again under its lock below), then one mail of the user, the address and the company.
    await this.budgets.assertRoom(this.ds, 'channels', input.company_cuid);
    await this.budgets.spendMail({ user_cuid: actor.user_cuid, address: input.email, company_cuids: [input.company_cuid] });
    const channel_cuid = newCuid();
    await this.rows.transaction(actor, async (tx) => {
      await this.budgets.assertRoom(tx, 'channels', input.company_cuid);
      await this.rows.insert(
        actor,
        tx,
        { channel_cuid, detail_cuid: newCuid(), source: 'EMAIL', status: 'PENDING', company_cuid: input.company_cuid },
        { email: input.email, verified_at: null },
      );
    });
    const sent = await this.sendVerification(actor, channel_cuid, input.email);
    return { ...(await this.details(actor, channel_cuid)), message: sent };
  }

  async resendVerification(actor: Actor, channel_cuid: string) {
    const c = await this.channel(actor, channel_cuid, 'channels.change');
    if (c.source !== 'EMAIL') throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only an e-mail channel is verified' });
    const e = await this.rows.email(actor, channel_cuid);
    if (!e) throw notFound('Channel');
    if (e.verified_at) throw new TRPCError({ code: 'BAD_REQUEST', message: 'This address is already verified' });
    await this.budgets.spendMail({ user_cuid: actor.user_cuid, address: String(e.email), company_cuids: [c.company_cuid] });
    const sent = await this.sendVerification(actor, channel_cuid, String(e.email));
    return { ...(await this.detailsOf(actor, c)), message: sent };
  }

  /** A new single-use link (earlier ones of the channel stop working) and its mail. */
  private async sendVerification(actor: Actor, channel_cuid: string, email: string): Promise<string> {
    const token_cuid = newCuid();
    const secret = randomBytes(24).toString('base64url');
    await this.rows.replaceVerification(actor, {
      token_cuid,
      data: { kind: VERIFY_KIND, channel_cuid, email, secret_sha256: sha256(secret) },
      ttlSeconds: this.config.EMAIL_VERIFY_TTL_SECONDS,
    });
    const link = `${this.publicUrl}/api/alerts/email/verify?token=${token_cuid}.${secret}`;
    const hours = Math.round(this.config.EMAIL_VERIFY_TTL_SECONDS / 3600);
    const r = await this.mailer.send({
      to: email,
      subject: 'Confirm this address for alerts',
      text: `Someone asked to send the alerts of the energy portal to this address.\n\nConfirm it by opening this link (valid ${hours} h, once):\n${link}\n\nIf it was not you, ignore this mail.\n`,
      html: `<!doctype html><html><body style="font-family:sans-serif"><p>Someone asked to send the alerts of the energy portal to this address.</p><p><a href="${escapeHtml(link)}">Confirm this address</a> (valid ${hours} h, once).</p><p>If it was not you, ignore this mail.</p></body></html>`,
    });
    if (r.ok)
      return this.mailer.folder ? `Verification mail written to the portal's mail folder (no SMTP server is configured)` : `Verification mail sent to ${email}`;
    this.logger.warn(`Verification mail for channel ${channel_cuid} not sent: ${r.reason}`);
    return `The verification mail could not be sent: ${r.reason}. Try "Resend" later.`;
  }

  /** Opens a verification link: once, before it expires, for the address it was sent to. */
  async verify(token: string): Promise<VerifyOutcome> {
    const m = /^([a-z0-9]{1,32})\.([A-Za-z0-9_-]{16,128})$/.exec(token);
    if (!m) return { kind: 'invalid' };
    const [, token_cuid, secret] = m;
    return this.rows.transaction(LINK_HOLDER, async (tx): Promise<VerifyOutcome> => {
      const row = await this.rows.lockLink(LINK_HOLDER, tx, token_cuid);
      if (!row || row.data.kind !== VERIFY_KIND || typeof row.data.secret_sha256 !== 'string') return { kind: 'invalid' };
      const a = Buffer.from(sha256(secret), 'hex');
      const b = Buffer.from(row.data.secret_sha256, 'hex');
      if (a.length !== b.length || !timingSafeEqual(a, b)) return { kind: 'invalid' };
      await this.rows.deleteLink(LINK_HOLDER, tx, token_cuid);
      if (row.expired) return { kind: 'expired' };
      const channel_cuid = String(row.data.channel_cuid);
      const email = String(row.data.email);
      if (!(await this.rows.verifyAddress(LINK_HOLDER, tx, channel_cuid, email))) return { kind: 'invalid' };
      return { kind: 'verified', email };
    });
  }

  // ---- TELEGRAM ----------------------------------------------------------------------------

  async createTelegram(actor: Actor, input: { company_cuid: string }) {
    await this.company(actor, input.company_cuid, 'channels.change');
    if (!this.bot.configured) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Telegram is not set up on this portal yet: ask the portal’s operator to connect its Telegram bot' });
    }
    const channel_cuid = newCuid();
    const code = randomBytes(12).toString('base64url');
    await this.rows.transaction(actor, async (tx) => {
      await this.budgets.assertRoom(tx, 'channels', input.company_cuid);
      await this.rows.insert(
        actor,
        tx,
        { channel_cuid, detail_cuid: newCuid(), source: 'TELEGRAM', status: 'PENDING', company_cuid: input.company_cuid },
        { token: code },
      );
    });
    const details = await this.details(actor, channel_cuid);
    const link = await this.linkOf(code);
    return { ...details, link: { code, command: link.command!, deepLink: link.deepLink } };
  }

  // ---- DISCORD -----------------------------------------------------------------------------

  async createDiscord(actor: Actor, input: { company_cuid: string; name: string; webhook: string }) {
    const company = await this.company(actor, input.company_cuid, 'channels.change');
    const checked = checkWebhookUrl(input.webhook, allowedHosts(this.config.DISCORD_WEBHOOK_HOSTS));
    if (!checked.ok) throw fieldError(['webhook'], checked.reason);
    const webhook = checked.url.toString();
    await this.budgets.assertRoom(this.ds, 'channels', input.company_cuid); // before the test message (again under its lock below)
    const channel_cuid = newCuid();
    const r = await this.discord.post(
      `new:${channel_cuid}`,
      webhook,
      `✅ This channel will receive the alerts of **${company.name.replace(/([\\*_~`|>#\-[\]()!:@])/g, '\\$1')}** from the energy portal.`,
    );
    if (!r.ok) throw fieldError(['webhook'], `The webhook did not take a test message: ${r.reason}`);
    await this.rows.transaction(actor, async (tx) => {
      await this.budgets.assertRoom(tx, 'channels', input.company_cuid);
      await this.rows.insert(
        actor,
        tx,
        { channel_cuid, detail_cuid: newCuid(), source: 'DISCORD', status: 'ACTIVE', company_cuid: input.company_cuid },
        { name: input.name, webhook },
      );
    });
    return { ...(await this.details(actor, channel_cuid)), message: 'The webhook took a test message; the channel is active' };
  }

  // ---- test message ------------------------------------------------------------------------

  async sendTest(actor: Actor, channel_cuid: string): Promise<{ ok: boolean; message: string }> {
    const c = await this.channel(actor, channel_cuid, 'channels.change');
    if (c.status !== 'ACTIVE') {
      const why =
        c.status === 'DISABLED'
          ? 'it is disabled'
          : c.source === 'EMAIL'
            ? 'its address is not verified yet'
            : c.source === 'TELEGRAM'
              ? 'it is not linked to a chat yet'
              : 'it is not active';
      return { ok: false, message: `No test message: ${why}` };
    }
    const last = this.lastTest.get(channel_cuid) ?? 0;
    if (Date.now() - last < TEST_COOLDOWN_MS) return { ok: false, message: 'A test message was just sent; wait a few seconds' };
    await this.signals?.publish(SIGNAL_TOPICS.channelTest, channel_cuid);
    this.lastTest.set(channel_cuid, Date.now());
    const text = `Test message: alerts of ${c.company_name} will arrive here.`;
    const alert: OutgoingAlert = {
      event_cuid: `test-${newCuid()}`,
      trigger_cuid: '',
      system_cuid: '',
      system_name: c.company_name,
      severity: 'INFO',
      state: 'TRIGGERED',
      text,
      html: escapeHtml(text),
      markdown: escapeMarkdown(text),
      time: new Date().toISOString(),
      link: `${this.publicUrl}/notificationChannel/${channel_cuid}/show`,
    };
    const sender: ChannelSender = c.source === 'EMAIL' ? this.email : c.source === 'TELEGRAM' ? this.telegram : this.discord;
    const r = await sender.send({ channel_cuid, company_cuid: c.company_cuid, source: c.source }, [alert]);
    if (r.ok) return { ok: true, message: 'Test message sent' };
    if ('permanent' in r && r.permanent) return { ok: false, message: `Not sent: ${r.reason}` };
    const wait = 'retryAfterMs' in r && r.retryAfterMs !== undefined ? `in ${Math.ceil(r.retryAfterMs / 1000)} s` : 'later';
    return { ok: false, message: `Not sent now: ${r.reason}; try again ${wait}` };
  }

  // ---- channel ↔ trigger links ---------------------------------------------------------------

  /**
   * For a channel: the triggers of every system its company sees (owned or shared), each with
   * whether the channel serves it. For a trigger: the caller's channels of companies that see the
   * trigger's system.
   */
  async links(actor: Actor, input: { channel_cuid: string } | { trigger_cuid: string }) {
    let rows: LinkRow[];
    if ('channel_cuid' in input) {
      await this.channel(actor, input.channel_cuid, 'channels.view');
      rows = await this.rows.linksOfChannel(actor, input.channel_cuid, LINK_LIST_MAX + 1);
    } else {
      const all = await this.rows.linksOfTrigger(actor, input.trigger_cuid);
      // A trigger no company of the caller's sees is unknown to the caller (foreign = missing).
      if (!(await this.rows.triggerVisible(actor, input.trigger_cuid))) throw notFound('Trigger');
      rows = all.filter((r) => can(actor, 'channels.view', { company_cuid: String(r.company_cuid) })).slice(0, LINK_LIST_MAX + 1);
    }
    return {
      items: rows
        .slice(0, LINK_LIST_MAX)
        .map(({ company_cuid: _company, ...r }) => ({ ...r, is_active: Boolean(r.is_active), enabled: Boolean(r.enabled) })) as never[],
      truncated: rows.length > LINK_LIST_MAX,
    };
  }

  async setLink(actor: Actor, input: { channel_cuid: string; trigger_cuid: string; enabled: boolean }) {
    const c = await this.channel(actor, input.channel_cuid, 'channels.change');
    if (!(await this.rows.triggerSeenBy(actor, input.trigger_cuid, c.company_cuid))) throw notFound('Trigger');
    await this.rows.setLink(actor, input.channel_cuid, input.trigger_cuid, input.enabled);
    const { company_cuid: _company, ...row } = (await this.rows.link(actor, input.channel_cuid, input.trigger_cuid))!;
    return { ...row, is_active: Boolean(row.is_active), enabled: Boolean(row.enabled) } as never;
  }
}
