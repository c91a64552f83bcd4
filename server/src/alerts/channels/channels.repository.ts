import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../../../shared/access/policy';
import type { NotificationChannelSourceValue, NotificationChannelStatusValue } from '../../../../shared/common/enums';
import { DATA_SOURCE } from '../../database/database.module';
import { companySeesSystemSql } from '../../tenancy/visibility';
import { triggerVisibleTo } from '../../tenancy/visible-records.repository';
import type { ChannelTarget } from '../delivery/channel-sender';

export interface ChannelRow {
  channel_cuid: string;
  source: NotificationChannelSourceValue;
  status: NotificationChannelStatusValue;
  company_cuid: string;
  company_name: string;
}

/** One channel ↔ trigger pair: the channel, the trigger and its system, and whether the channel serves it. */
export interface LinkRow {
  channel_cuid: string;
  company_cuid: string;
  source: string;
  status: string;
  label: string | null;
  trigger_cuid: string;
  trigger_name: string;
  severity_level: string;
  is_active: boolean;
  system_cuid: string;
  system_name: string;
  enabled: boolean;
}

/** Who opens an e-mail verification link: nobody signed in, the holder of the link's secret. */
export interface LinkHolder {
  readonly link: 'email-verification';
}
export const LINK_HOLDER: LinkHolder = { link: 'email-verification' };

/** What a sender reads of its channel right before a send: its status and its destination. */
export interface SenderChannel {
  status: string;
  /** EMAIL: the address (and whether it is verified); TELEGRAM: the chat; DISCORD: the webhook. */
  email?: string;
  verified_at?: Date | null;
  group_chat_id?: string | null;
  webhook?: string;
}

/** The destination columns each sender reads. */
const SENDER_COLUMNS = {
  EMAIL: 'e.email, e.verified_at',
  TELEGRAM: 'e.group_chat_id',
  DISCORD: 'e.webhook',
} as const;

/** Where a channel's details live, by source. */
const DETAIL_TABLE = {
  EMAIL: { table: 'email_notification_channel', key: 'email_channel_cuid' },
  TELEGRAM: { table: 'telegram_notification_channel', key: 'telegram_channel_cuid' },
  DISCORD: { table: 'discord_notification_channel', key: 'discord_channel_cuid' },
} as const;

/** Triggers of systems the channel's company sees (owned or shared), with the link of the channel to each. */
const LINK_SELECT = `SELECT c.channel_cuid, c.company_cuid, c.source::text AS source, c.status::text AS status,
    COALESCE(e.email, tg.group_chat_name, d.name) AS label,
    t.trigger_cuid, t.name AS trigger_name, t.severity_level::text AS severity_level, t.is_active,
    s.system_cuid, s.name AS system_name, COALESCE(l.enabled, FALSE) AS enabled
  FROM notification_channel c
  LEFT JOIN email_notification_channel e ON e.channel_cuid = c.channel_cuid
  LEFT JOIN telegram_notification_channel tg ON tg.channel_cuid = c.channel_cuid
  LEFT JOIN discord_notification_channel d ON d.channel_cuid = c.channel_cuid
  JOIN system s ON ${companySeesSystemSql('c.company_cuid')}
  JOIN notification_trigger t ON t.system_cuid = s.system_cuid
  LEFT JOIN notification_channel_to_trigger l ON l.channel_cuid = c.channel_cuid AND l.trigger_cuid = t.trigger_cuid`;

/**
 * The SQL of the channel procedures (channels.service.ts). The caller comes first. Reads by id are
 * unscoped on purpose where the service asks the policy about the row's company right after (a
 * foreign row then answers NOT_FOUND like a missing one); lists are limited in the query to what
 * the channel's company sees.
 */
@Injectable()
export class ChannelsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(_caller: Actor | LinkHolder, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /**
   * For a sender (the outbox's send, or a test message the caller may send): the target channel
   * as it is now; the target (its company first) is the scope: undefined when that company has no such channel.
   */
  async senderChannel(target: ChannelTarget): Promise<SenderChannel | undefined> {
    const { table } = DETAIL_TABLE[target.source];
    const [row] = await this.ds.query<SenderChannel[]>(
      `SELECT c.status::text AS status, ${SENDER_COLUMNS[target.source]} FROM notification_channel c JOIN ${table} e ON e.channel_cuid = c.channel_cuid
        WHERE c.channel_cuid = $1 AND c.company_cuid = $2`,
      [target.channel_cuid, target.company_cuid],
    );
    return row;
  }

  /** Unscoped (the policy is asked next): a company's name. */
  async company(_actor: Actor, company_cuid: string): Promise<{ company_cuid: string; name: string } | undefined> {
    const [row] = await this.ds.query<{ company_cuid: string; name: string }[]>(`SELECT company_cuid, name FROM company WHERE company_cuid = $1`, [
      company_cuid,
    ]);
    return row;
  }

  /** Unscoped (the policy is asked next): a channel with its company. */
  async channel(_actor: Actor, channel_cuid: string, tx: EntityManager | DataSource = this.ds): Promise<ChannelRow | undefined> {
    const [row] = await tx.query<ChannelRow[]>(
      `SELECT c.channel_cuid, c.company_cuid, c.source::text AS source, c.status::text AS status, c.company_cuid, co.name AS company_name
         FROM notification_channel c JOIN company co ON co.company_cuid = c.company_cuid WHERE c.channel_cuid = $1`,
      [channel_cuid],
    );
    return row;
  }

  /** A channel the caller reached: its address. */
  async email(_actor: Actor, channel_cuid: string): Promise<{ email: string; verified_at: Date | null } | undefined> {
    const [e] = await this.ds.query<{ email: string; verified_at: Date | null }[]>(
      `SELECT email, verified_at FROM email_notification_channel WHERE channel_cuid = $1`,
      [channel_cuid],
    );
    return e;
  }

  /** A channel the caller reached: its chat (or its link code while it waits for one). */
  async telegram(_actor: Actor, channel_cuid: string): Promise<{ token: string | null; group_chat_name: string | null; linked_at: Date | null } | undefined> {
    const [t] = await this.ds.query<{ token: string | null; group_chat_name: string | null; linked_at: Date | null }[]>(
      `SELECT token, group_chat_name, linked_at FROM telegram_notification_channel WHERE channel_cuid = $1`,
      [channel_cuid],
    );
    return t;
  }

  /** A channel the caller reached: its webhook. */
  async discord(_actor: Actor, channel_cuid: string): Promise<{ name: string; webhook: string; created_at: Date } | undefined> {
    const [d] = await this.ds.query<{ name: string; webhook: string; created_at: Date }[]>(
      `SELECT name, webhook, created_at FROM discord_notification_channel WHERE channel_cuid = $1`,
      [channel_cuid],
    );
    return d;
  }

  /**
   * A new channel of a company the caller may change, with its details (`detail`: the columns of
   * its source's table besides the keys), in the caller's transaction.
   */
  async insert(
    _actor: Actor,
    tx: EntityManager,
    c: { channel_cuid: string; detail_cuid: string; source: NotificationChannelSourceValue; status: NotificationChannelStatusValue; company_cuid: string },
    detail: Record<string, unknown>,
  ): Promise<void> {
    await tx.query(`INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) VALUES ($1, $2, $3, $4)`, [
      c.channel_cuid,
      c.source,
      c.status,
      c.company_cuid,
    ]);
    const { table, key } = DETAIL_TABLE[c.source];
    const columns = Object.keys(detail);
    await tx.query(
      `INSERT INTO ${table} (${[key, 'channel_cuid', ...columns].join(', ')}) VALUES (${[key, 'channel_cuid', ...columns].map((_, i) => `$${i + 1}`).join(', ')})`,
      [c.detail_cuid, c.channel_cuid, ...columns.map((k) => detail[k])],
    );
  }

  /** A new single-use verification link for a channel the caller reached (earlier ones of the channel stop working). */
  async replaceVerification(
    _actor: Actor,
    v: { token_cuid: string; data: Record<string, unknown> & { kind: string; channel_cuid: string }; ttlSeconds: number },
  ): Promise<void> {
    await this.ds.transaction(async (tx) => {
      await tx.query(`DELETE FROM url_request WHERE data->>'kind' = $1 AND data->>'channel_cuid' = $2`, [v.data.kind, v.data.channel_cuid]);
      await tx.query(`INSERT INTO url_request (token_cuid, data, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
        v.token_cuid,
        JSON.stringify(v.data),
        v.ttlSeconds,
      ]);
    });
  }

  /** The link's request, locked; `expired` when its time is over. */
  async lockLink(_holder: LinkHolder, tx: EntityManager, token_cuid: string): Promise<{ data: Record<string, unknown>; expired: boolean } | undefined> {
    const [row] = await tx.query<{ data: Record<string, unknown>; expired: boolean }[]>(
      `SELECT data, expires_at < now() AS expired FROM url_request WHERE token_cuid = $1 FOR UPDATE`,
      [token_cuid],
    );
    return row;
  }

  async deleteLink(_holder: LinkHolder, tx: EntityManager, token_cuid: string): Promise<void> {
    await tx.query(`DELETE FROM url_request WHERE token_cuid = $1`, [token_cuid]);
  }

  /**
   * Marks the channel's address verified and a PENDING channel ACTIVE, when the channel still has
   * the address the link was sent to; false (nothing written) when it does not.
   */
  async verifyAddress(_holder: LinkHolder, tx: EntityManager, channel_cuid: string, email: string): Promise<boolean> {
    const same = await tx.query<unknown[]>(`SELECT 1 FROM email_notification_channel WHERE channel_cuid = $1 AND email = $2`, [channel_cuid, email]);
    if (same.length === 0) return false;
    await tx.query(`UPDATE email_notification_channel SET verified_at = now() WHERE channel_cuid = $1`, [channel_cuid]);
    await tx.query(`UPDATE notification_channel SET status = 'ACTIVE' WHERE channel_cuid = $1 AND status = 'PENDING'`, [channel_cuid]);
    return true;
  }

  /** For a channel the caller reached: the triggers of every system its company sees, at most `limit`. */
  async linksOfChannel(_actor: Actor, channel_cuid: string, limit: number): Promise<LinkRow[]> {
    return await this.ds.query<LinkRow[]>(`${LINK_SELECT} WHERE c.channel_cuid = $1 ORDER BY s.name, t.name, t.trigger_cuid LIMIT ${Math.floor(limit)}`, [
      channel_cuid,
    ]);
  }

  /** Unscoped (the service keeps the caller's channels): every channel of a company that sees the trigger's system. */
  async linksOfTrigger(_actor: Actor, trigger_cuid: string): Promise<LinkRow[]> {
    return await this.ds.query<LinkRow[]>(`${LINK_SELECT} WHERE t.trigger_cuid = $1 ORDER BY c.source, label, c.channel_cuid`, [trigger_cuid]);
  }

  /** One pair, after a change of its link. */
  async link(_actor: Actor, channel_cuid: string, trigger_cuid: string): Promise<LinkRow | undefined> {
    const [row] = await this.ds.query<LinkRow[]>(`${LINK_SELECT} WHERE c.channel_cuid = $1 AND t.trigger_cuid = $2`, [channel_cuid, trigger_cuid]);
    return row;
  }

  /** Whether the trigger's system is visible to the caller. */
  triggerVisible(actor: Actor, trigger_cuid: string): Promise<boolean> {
    return triggerVisibleTo(actor, this.ds, trigger_cuid);
  }

  /** Whether `company_cuid` (a channel's company the caller may change) sees the trigger's system. */
  async triggerSeenBy(_actor: Actor, trigger_cuid: string, company_cuid: string): Promise<boolean> {
    const rows = await this.ds.query<unknown[]>(
      `SELECT t.trigger_cuid FROM notification_trigger t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.trigger_cuid = $1 AND ${companySeesSystemSql('$2')}`,
      [trigger_cuid, company_cuid],
    );
    return rows.length > 0;
  }

  /** Whether the channel serves the trigger (both already checked by the caller). */
  async setLink(_actor: Actor, channel_cuid: string, trigger_cuid: string, enabled: boolean): Promise<void> {
    await this.ds.query(
      `INSERT INTO notification_channel_to_trigger (channel_cuid, trigger_cuid, enabled) VALUES ($1, $2, $3)
       ON CONFLICT (channel_cuid, trigger_cuid) DO UPDATE SET enabled = EXCLUDED.enabled`,
      [channel_cuid, trigger_cuid, enabled],
    );
  }
}
