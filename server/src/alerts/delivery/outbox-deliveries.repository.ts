import { Inject, Injectable } from '@nestjs/common';
import type { Client } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { NotificationChannelSourceValue } from '../../../../shared/common/enums';
import { DATA_SOURCE } from '../../database/database.module';
import type { OutboxJob } from './outbox-job';
import { updatedRows } from '../../database/returned-rows';
import type { DeliveryAnswer, TriggerRow } from './outbox-rules';

/** PostgreSQL channel the insert trigger on notification_trigger_event NOTIFYs (migration 1764120000000). */
export const OUTBOX_NOTIFY_CHANNEL = 'alert_outbox';

/** One claimed delivery's key, as the claim holds it. */
export interface HeldDelivery {
  event_cuid: string;
  channel_cuid: string;
  claim_token: string;
}

/** What a claimed delivery sends: its event and trigger, and its channel as it is now. */
export interface DeliveryWorkRow extends TriggerRow {
  event_cuid: string;
  channel_cuid: string;
  source: NotificationChannelSourceValue;
  /** ACTIVE and still linked (enabled) to the trigger. */
  channel_active: boolean;
  value: unknown;
  timestamp: Date;
  /** The Notification row's rendered text. */
  text: string;
}

/** notification_delivery's columns a DeliveryAnswer may set, in parameter order after the key and token ($1–$3). */
const ANSWER_COLUMNS = ['attempts', 'deferrals', 'last_error'] as const;

/**
 * The SQL of the outbox's delivery loop (docs/alerts.md, "The outbox") besides its claims
 * (delivery-claims.repository.ts): what claimed deliveries send, the answers of their sends,
 * waits, the hourly sweep and the counts. The job (OutboxJob) comes first; a method that runs in
 * the caller's transaction takes it next.
 */
@Injectable()
export class OutboxDeliveriesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(_job: OutboxJob, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /** Starts listening on a dedicated connection for other instances' new events. */
  async listen(_job: OutboxJob, client: Client): Promise<void> {
    await client.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
  }

  /** Milliseconds until the next PENDING delivery is due (negative when overdue), null when none waits. */
  async msUntilNextDue(_job: OutboxJob): Promise<number | null> {
    // Null when nothing is pending (GREATEST would turn that null into 0: a wake-up every 5 ms).
    const [row] = await this.ds.query<{ ms: number | string | null }[]>(
      `SELECT (EXTRACT(EPOCH FROM (min(next_attempt_at) - now())) * 1000)::float8 AS ms
         FROM notification_delivery WHERE status = 'PENDING'`,
    );
    return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
  }

  /** Removes finished deliveries older than `days` (NotificationChannelToNotification stays). */
  async sweepFinished(_job: OutboxJob, days: number): Promise<void> {
    await this.ds.query(`DELETE FROM notification_delivery WHERE status IN ('SENT', 'ARCHIVED') AND created_at < now() - make_interval(days => $1)`, [days]);
  }

  /** The rows behind claimed deliveries (a delivery whose event is gone has none). */
  async work(_job: OutboxJob, keys: readonly { event_cuid: string; channel_cuid: string }[]): Promise<DeliveryWorkRow[]> {
    return await this.ds.query<DeliveryWorkRow[]>(
      `SELECT d.event_cuid, d.channel_cuid, c.source::text AS source,
              (c.status = 'ACTIVE' AND COALESCE(ct.enabled, false)) AS channel_active,
              e.value, e."timestamp", n.message AS text, t.trigger_cuid, t.name, t.message, t.release_message,
              t.severity_level::text AS severity_level, s.system_cuid, s.name AS system_name, s.timezone
         FROM unnest($1::varchar[], $2::varchar[]) AS k(event_cuid, channel_cuid)
         JOIN notification_delivery d ON d.event_cuid = k.event_cuid AND d.channel_cuid = k.channel_cuid
         JOIN notification_channel c ON c.channel_cuid = d.channel_cuid
         JOIN notification_trigger_event e ON e.event_cuid = d.event_cuid AND e."timestamp" = d.event_timestamp
         JOIN notification n ON n.notification_cuid = d.notification_cuid
         JOIN notification_trigger t ON t.trigger_cuid = e.trigger_cuid
         JOIN system s ON s.system_cuid = t.system_cuid
         LEFT JOIN notification_channel_to_trigger ct ON ct.channel_cuid = d.channel_cuid AND ct.trigger_cuid = t.trigger_cuid`,
      [keys.map((c) => c.event_cuid), keys.map((c) => c.channel_cuid)],
    );
  }

  /** ARCHIVED with a reason each, whoever holds them (nothing left to send). */
  async archiveMany(_job: OutboxJob, list: readonly { event_cuid: string; channel_cuid: string; reason: string }[]): Promise<void> {
    if (!list.length) return;
    await this.ds.query(
      `UPDATE notification_delivery d SET status = 'ARCHIVED', lease_until = NULL, last_error = a.reason
         FROM unnest($1::varchar[], $2::varchar[], $3::text[]) AS a(event_cuid, channel_cuid, reason)
        WHERE d.event_cuid = a.event_cuid AND d.channel_cuid = a.channel_cuid`,
      [list.map((a) => a.event_cuid), list.map((a) => a.channel_cuid), list.map((a) => a.reason)],
    );
  }

  /** A rate-limited channel: its waiting deliveries wait at least `waitMs` from now. */
  async holdChannel(_job: OutboxJob, channel_cuid: string, waitMs: number): Promise<void> {
    await this.ds.query(
      `UPDATE notification_delivery SET next_attempt_at = GREATEST(next_attempt_at, now() + make_interval(secs => $2::float8 / 1000))
        WHERE channel_cuid = $1 AND status = 'PENDING'`,
      [channel_cuid, waitMs],
    );
  }

  /**
   * A send went out: SENT whoever holds the delivery now (another holder then finds it no longer
   * SENDING and does not send it), and the channel ↔ notification link.
   */
  async markSent(_job: OutboxJob, tx: EntityManager, d: { event_cuid: string; channel_cuid: string; notification_cuid: string }): Promise<void> {
    await tx.query(
      `UPDATE notification_delivery SET status = 'SENT', sent_at = now(), lease_until = NULL, last_error = NULL
        WHERE event_cuid = $1 AND channel_cuid = $2 AND status IN ('PENDING', 'SENDING')`,
      [d.event_cuid, d.channel_cuid],
    );
    await tx.query(`INSERT INTO notification_channel_to_notification (channel_cuid, notification_cuid) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      d.channel_cuid,
      d.notification_cuid,
    ]);
  }

  /** Writes `answer` while the claim `d.claim_token` still holds the delivery; true when it did. */
  async answerIfHeld(_job: OutboxJob, tx: EntityManager, d: HeldDelivery, answer: DeliveryAnswer): Promise<boolean> {
    const params: unknown[] = [d.event_cuid, d.channel_cuid, d.claim_token];
    const set = [`status = '${answer.status === 'ARCHIVED' ? 'ARCHIVED' : 'PENDING'}'`];
    for (const column of ANSWER_COLUMNS) {
      if (answer[column] === undefined) continue;
      params.push(answer[column]);
      set.push(`${column} = $${params.length}`);
    }
    if (answer.status === 'PENDING') {
      params.push(answer.waitMs);
      set.push(`next_attempt_at = now() + make_interval(secs => $${params.length}::float8 / 1000)`);
    }
    return (
      updatedRows(
        await tx.query(
          `UPDATE notification_delivery SET ${set.join(', ')}, lease_until = NULL
            WHERE event_cuid = $1 AND channel_cuid = $2 AND status = 'SENDING' AND claim_token = $3 RETURNING 1`,
          params,
        ),
      ).length > 0
    );
  }

  /** A delivery whose answer could not be written: ARCHIVED with the reason, while the claim still holds it. */
  async archiveHeld(_job: OutboxJob, d: HeldDelivery, reason: string): Promise<void> {
    await this.ds.query(
      `UPDATE notification_delivery SET status = 'ARCHIVED', lease_until = NULL, last_error = $3
        WHERE event_cuid = $1 AND channel_cuid = $2 AND status = 'SENDING' AND claim_token = $4`,
      [d.event_cuid, d.channel_cuid, reason, d.claim_token],
    );
  }

  async stats(_job: OutboxJob): Promise<{ pending: number; sending: number; archived: number; duplicates: number }> {
    const [d] = await this.ds.query<{ pending: number; sending: number; archived: number; duplicates: number }[]>(
      `SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
              count(*) FILTER (WHERE status = 'SENDING')::int AS sending,
              count(*) FILTER (WHERE status = 'ARCHIVED')::int AS archived,
              COALESCE(sum(duplicates), 0)::int AS duplicates
         FROM notification_delivery`,
    );
    return d;
  }
}
