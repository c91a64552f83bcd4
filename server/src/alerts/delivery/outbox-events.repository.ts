import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DATA_SOURCE } from '../../database/database.module';
import { companySeesSystemSql } from '../../tenancy/visibility';
import type { OutboxJob } from './outbox-job';
import type { ClaimedEvent, DeliverySummary, TriggerRow } from './outbox-rules';

/** A channel an alarm of a trigger goes to, with the company that linked it. */
export interface AlarmChannel {
  channel_cuid: string;
  company_cuid: string;
}

/** An event's key (notification_trigger_event is partitioned by "timestamp"). */
export interface EventKey {
  event_cuid: string;
  timestamp: Date;
}

/** Due: PENDING or SENDING whose next attempt (the lease of a SENDING one) has come. */
const DUE = `e.status IN ('PENDING', 'SENDING') AND COALESCE(e.next_attempt_at, '-infinity'::timestamptz) <= now()`;

/**
 * The SQL of the outbox's event loop (docs/alerts.md, "The outbox"): claiming due
 * NotificationTriggerEvent rows, what an event becomes (its Notification row, its deliveries), and
 * closing it. The job (OutboxJob) comes first; a method that runs in the caller's transaction takes it next.
 */
@Injectable()
export class OutboxEventsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(_job: OutboxJob, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /** The oldest due event, unlocked (for going one by one after a batch failed). */
  async nextDue(_job: OutboxJob): Promise<EventKey | undefined> {
    const [next] = await this.ds.query<EventKey[]>(
      `SELECT e.event_cuid, e."timestamp" FROM notification_trigger_event e WHERE ${DUE}
        ORDER BY e.created_at, e."timestamp", e.event_cuid LIMIT 1`,
    );
    return next;
  }

  /** Claims up to `limit` due events (or only `only`), oldest first, `FOR UPDATE SKIP LOCKED`. */
  async claimDue(_job: OutboxJob, tx: EntityManager, limit: number, only?: string): Promise<ClaimedEvent[]> {
    return await tx.query<ClaimedEvent[]>(
      `SELECT e.event_cuid, e."timestamp", e.value, e.trigger_cuid, e.notification_cuid, e.status::text AS status
         FROM notification_trigger_event e
        WHERE ${DUE} AND ($2::varchar IS NULL OR e.event_cuid = $2)
        ORDER BY e.created_at, e."timestamp", e.event_cuid
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      [limit, only ?? null],
    );
  }

  /** The triggers (with their systems) by id. */
  async triggers(_job: OutboxJob, tx: EntityManager, ids: string[]): Promise<Map<string, TriggerRow>> {
    if (!ids.length) return new Map();
    const rows = await tx.query<TriggerRow[]>(
      `SELECT t.trigger_cuid, t.name, t.message, t.release_message, t.severity_level::text AS severity_level,
              s.system_cuid, s.name AS system_name, s.timezone
         FROM notification_trigger t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.trigger_cuid = ANY($1::varchar[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.trigger_cuid, r]));
  }

  /**
   * The channels an alarm of each trigger goes to: enabled links to ACTIVE channels of a company
   * that sees the trigger's system (its owner, or a company it is shared with: the rule of
   * tenancy/visibility.ts). A link left behind after a share ended sends nothing.
   */
  async channelsOf(_job: OutboxJob, tx: EntityManager, triggerIds: string[]): Promise<Map<string, AlarmChannel[]>> {
    const out = new Map<string, AlarmChannel[]>();
    if (!triggerIds.length) return out;
    const rows = await tx.query<(AlarmChannel & { trigger_cuid: string })[]>(
      `SELECT ct.trigger_cuid, c.channel_cuid, c.company_cuid
         FROM notification_channel_to_trigger ct
         JOIN notification_channel c ON c.channel_cuid = ct.channel_cuid
         JOIN notification_trigger t ON t.trigger_cuid = ct.trigger_cuid
         JOIN system s ON s.system_cuid = t.system_cuid
        WHERE ct.trigger_cuid = ANY($1::varchar[]) AND ct.enabled AND c.status = 'ACTIVE'
          AND ${companySeesSystemSql('c.company_cuid')}
        ORDER BY c.channel_cuid`,
      [triggerIds],
    );
    for (const r of rows) {
      const list = out.get(r.trigger_cuid) ?? [];
      list.push({ channel_cuid: r.channel_cuid, company_cuid: r.company_cuid });
      out.set(r.trigger_cuid, list);
    }
    return out;
  }

  async insertNotification(
    _job: OutboxJob,
    tx: EntityManager,
    n: { notification_cuid: string; message: string; severity_level: string; trigger_cuid: string },
  ): Promise<void> {
    await tx.query(`INSERT INTO notification (notification_cuid, message, severity_level, trigger_cuid) VALUES ($1, $2, $3, $4)`, [
      n.notification_cuid,
      n.message,
      n.severity_level,
      n.trigger_cuid,
    ]);
  }

  /**
   * One PENDING delivery per channel. A burst for one channel shares the due time of the first
   * alert still waiting for it (the group window), so the whole burst goes out as one message.
   */
  async insertDeliveries(
    _job: OutboxJob,
    tx: EntityManager,
    event: EventKey,
    notification_cuid: string,
    channels: AlarmChannel[],
    groupWindowMs: number,
  ): Promise<void> {
    if (!channels.length) return;
    await tx.query(
      `INSERT INTO notification_delivery (event_cuid, channel_cuid, event_timestamp, notification_cuid, company_cuid, next_attempt_at)
       SELECT $1, c.channel_cuid, $2, $3, c.company_cuid,
              COALESCE((SELECT min(d.next_attempt_at) FROM notification_delivery d
                         WHERE d.channel_cuid = c.channel_cuid AND d.status = 'PENDING' AND d.attempts = 0 AND d.deferrals = 0
                           AND d.next_attempt_at > now()),
                       now() + make_interval(secs => $6::float8 / 1000))
         FROM unnest($4::varchar[], $5::varchar[]) AS c(channel_cuid, company_cuid)
       ON CONFLICT (event_cuid, channel_cuid) DO NOTHING`,
      [event.event_cuid, event.timestamp, notification_cuid, channels.map((c) => c.channel_cuid), channels.map((c) => c.company_cuid), groupWindowMs],
    );
  }

  /** The event has its Notification: SENDING under a lease of `leaseSeconds` (its deliveries wait), or SENT (none). */
  async markMaterialised(
    _job: OutboxJob,
    tx: EntityManager,
    event: EventKey,
    notification_cuid: string,
    status: 'SENDING' | 'SENT',
    leaseSeconds: number,
  ): Promise<void> {
    await tx.query(
      `UPDATE notification_trigger_event
          SET notification_cuid = $3, status = $4::trigger_event_status,
              next_attempt_at = CASE WHEN $4::text = 'SENDING' THEN now() + make_interval(secs => $5::float8) END
        WHERE event_cuid = $1 AND "timestamp" = $2`,
      [event.event_cuid, event.timestamp, notification_cuid, status, leaseSeconds],
    );
  }

  async archive(_job: OutboxJob, tx: EntityManager, event: EventKey, reason: string): Promise<void> {
    await tx.query(
      `UPDATE notification_trigger_event SET status = 'ARCHIVED', next_attempt_at = NULL, last_error = $3 WHERE event_cuid = $1 AND "timestamp" = $2`,
      [event.event_cuid, event.timestamp, reason],
    );
  }

  /** Locks the event row (FOR UPDATE) and answers its status, undefined when it is gone. */
  async lockStatus(_job: OutboxJob, tx: EntityManager, event: EventKey): Promise<string | undefined> {
    const held = await tx.query<{ status: string }[]>(
      `SELECT status::text AS status FROM notification_trigger_event WHERE event_cuid = $1 AND "timestamp" = $2 FOR UPDATE`,
      [event.event_cuid, event.timestamp],
    );
    return held[0]?.status;
  }

  /** How an event's deliveries stand: open ones, archived ones (and their reasons), most attempts. */
  async deliverySummary(_job: OutboxJob, tx: EntityManager, event_cuid: string): Promise<DeliverySummary> {
    const [s] = await tx.query<DeliverySummary[]>(
      `SELECT count(*) FILTER (WHERE status IN ('PENDING', 'SENDING'))::int AS open,
              count(*) FILTER (WHERE status = 'ARCHIVED')::int AS archived,
              COALESCE(max(attempts + CASE WHEN status = 'SENT' THEN 1 ELSE 0 END), 0)::int AS attempts,
              string_agg(CASE WHEN status = 'ARCHIVED' THEN channel_cuid || ': ' || COALESCE(last_error, '?') END, '; ' ORDER BY channel_cuid) AS reasons
         FROM notification_delivery WHERE event_cuid = $1`,
      [event_cuid],
    );
    return s;
  }

  /** Still SENDING: checked again after `leaseSeconds`. */
  async keepOpen(_job: OutboxJob, tx: EntityManager, event: EventKey, leaseSeconds: number, attempts: number): Promise<void> {
    await tx.query(
      `UPDATE notification_trigger_event SET next_attempt_at = now() + make_interval(secs => $3), attempts = $4
        WHERE event_cuid = $1 AND "timestamp" = $2`,
      [event.event_cuid, event.timestamp, leaseSeconds, attempts],
    );
  }

  async close(_job: OutboxJob, tx: EntityManager, event: EventKey, status: 'SENT' | 'ARCHIVED', attempts: number, last_error: string | null): Promise<void> {
    await tx.query(
      `UPDATE notification_trigger_event SET status = $3, next_attempt_at = NULL, attempts = $4, last_error = $5
        WHERE event_cuid = $1 AND "timestamp" = $2`,
      [event.event_cuid, event.timestamp, status, attempts, last_error],
    );
  }

  /**
   * Who gets an alarm's toast: the active members of the companies that see the system (its owner
   * and the companies it is shared with, the rule of tenancy/visibility.ts), minus those who muted
   * the trigger (a NotificationUserBlacklist row without `until` or with `until` still ahead) and
   * those who turned toasts off (user.meta.preferences.toast_notifications.toast_notifications_disabled).
   */
  async toastRecipients(_job: OutboxJob, tx: EntityManager, system_cuid: string, trigger_cuid: string): Promise<string[]> {
    const rows = await tx.query<{ user_cuid: string }[]>(
      `SELECT DISTINCT u.user_cuid
         FROM system s
         JOIN company_membership m ON ${companySeesSystemSql('m.company_cuid')}
         JOIN "user" u ON u.user_cuid = m.user_cuid
        WHERE s.system_cuid = $1
          AND u.inactive = false
          AND (u.meta -> 'preferences' -> 'toast_notifications' -> 'toast_notifications_disabled') IS DISTINCT FROM 'true'::jsonb
          AND NOT EXISTS (SELECT 1 FROM notification_user_blacklist b
                           WHERE b.user_cuid = u.user_cuid AND b.trigger_cuid = $2 AND (b.until IS NULL OR b.until > now()))`,
      [system_cuid, trigger_cuid],
    );
    return rows.map((r) => r.user_cuid);
  }

  /** Events not yet delivered everywhere, and the age in seconds of the oldest PENDING one (0 when none). */
  async stats(_job: OutboxJob): Promise<{ pending: number; sending: number; lag: number }> {
    const [e] = await this.ds.query<{ pending: number; sending: number; lag: number }[]>(
      `SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
              count(*) FILTER (WHERE status = 'SENDING')::int AS sending,
              COALESCE(EXTRACT(EPOCH FROM (now() - min(created_at) FILTER (WHERE status = 'PENDING'))), 0)::float8 AS lag
         FROM notification_trigger_event WHERE status IN ('PENDING', 'SENDING')`,
    );
    return e;
  }
}
