import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { NotificationChannelSourceValue, NotificationSeverityValue } from '../../common/enums';
import { newCuid } from '../../common/ids';
import { AppConfig } from '../../config/config';
import { DATA_SOURCE } from '../../database/database.module';
import { LiveEventsService } from '../../notifications/live-events.service';
import type { TToast } from '../../notifications/notifications.schema';
import { OutboxSignal } from '../outbox-signal';
import { renderMessage } from '../render';
import { ZTriggerEventValue, type TTriggerEventValue } from '../rules';
import { alarmToast, alarmToastRecipients } from './alarm-toasts';
import type { ChannelTarget, OutgoingAlert, SendResult } from './channel-sender';
import { type ClaimedDelivery, DeliveryClaimsRepository, deliveryKey } from './delivery-claims.repository';
import { type Heartbeat, heartbeatEveryMs, startHeartbeat } from './lease-heartbeat';
import { ChannelSenderRegistry } from './sender-registry';
import { companySeesSystemSql } from '../../tenancy/visibility';
import { toStorableText } from '../../common/storable';
import { isTransientDatabaseError, splitOnFailure, sqlState } from '../../database/split-on-failure';
import { knownDatabaseError } from '../../trpc/errors';

/** PostgreSQL channel the insert trigger on notification_trigger_event NOTIFYs (migration 1764120000000). */
export const OUTBOX_NOTIFY_CHANNEL = 'alert_outbox';

/** Longest "retry after" honoured as asked; longer ones wait this long (and are asked again). */
const MAX_RETRY_AFTER_MS = 3_600_000;
/** How long a stopping instance waits for its sends in flight. */
const SHUTDOWN_WAIT_MS = 10_000;
/** Longest reason kept in last_error. */
const MAX_REASON = 2000;

/** The outbox's depth and lag, for /api/health/outbox and the benches. */
export interface OutboxStats {
  /** Events not yet delivered everywhere (PENDING + SENDING). */
  events_pending: number;
  events_sending: number;
  /** Age in seconds of the oldest PENDING event (0 when none): how far the worker is behind. */
  lag_seconds: number;
  deliveries_pending: number;
  deliveries_sending: number;
  deliveries_archived: number;
  /** Sends that may have gone out twice (claimed again after a lease ran out mid-send). */
  duplicates: number;
  /**
   * Since this instance started. `claims_lost`: deliveries this instance claimed but did not send
   * because another instance had claimed them after this one's lease ran out (it could not renew it).
   */
  counters: { events_claimed: number; messages_sent: number; grouped_messages: number; toasts: number; failures: number; deferrals: number; claims_lost: number };
}

interface ClaimedEvent {
  event_cuid: string;
  timestamp: Date;
  value: unknown;
  trigger_cuid: string;
  notification_cuid: string | null;
  status: 'PENDING' | 'SENDING';
}

interface TriggerRow {
  trigger_cuid: string;
  name: string;
  message: string;
  release_message: string | null;
  severity_level: NotificationSeverityValue;
  system_cuid: string;
  system_name: string;
  timezone: string;
}

interface DeliveryWork extends ClaimedDelivery {
  /** The claim (delivery round) holding it: its answers are recorded only while this still holds it. */
  claim_token: string;
  source: NotificationChannelSourceValue;
  channel_active: boolean;
  alert: OutgoingAlert;
}

/** What a send's answer does to its deliveries. */
type FinishOutcome =
  | { kind: 'sent' }
  | { kind: 'archive'; reason: string }
  | { kind: 'fail'; reason: string }
  | { kind: 'defer'; reason: string; waitMs: number }
  | { kind: 'release'; waitMs: number };

/** UPDATE … RETURNING answers [rows, count] through TypeORM's query(); SELECT and INSERT answer the rows. */
function updatedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? result[0] : result) as T[];
}

const truncate = (s: string): string => toStorableText(s.length > MAX_REASON ? `${s.slice(0, MAX_REASON - 1)}…` : s);
const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The alert outbox worker (docs/alerts.md, "The outbox"). Two loops share nothing but the database:
 * - the **event loop** claims due NotificationTriggerEvent rows (`FOR UPDATE SKIP LOCKED`), writes
 *   each one's Notification row and its per-channel notification_delivery rows in one
 *   transaction, marks it SENDING (or SENT when no channel takes it), and right after the commit
 *   publishes the alarm toasts: toasts never wait for a channel;
 * - the **delivery loop** claims due deliveries (`SKIP LOCKED`, SENDING with a lease), groups them
 *   per channel, sends through the channel's sender outside any transaction, records the answer
 *   (SENT + NotificationChannelToNotification, retry with back-off, 429 deferral, ARCHIVED) and
 *   closes the event once every delivery of it is SENT or ARCHIVED.
 * Woken by OutboxSignal (the engine, after its commit), by LISTEN on PostgreSQL (other
 * instances' events), by its own timers (a group window, a back-off) and by a poll.
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxWorker.name);
  private listener?: Client;
  private stopped = true;
  private readonly loops = {
    events: { running: undefined as Promise<void> | undefined, again: false, timer: undefined as NodeJS.Timeout | undefined },
    deliveries: { running: undefined as Promise<void> | undefined, again: false, timer: undefined as NodeJS.Timeout | undefined },
  };
  private readonly counters: OutboxStats['counters'] = { events_claimed: 0, messages_sent: 0, grouped_messages: 0, toasts: 0, failures: 0, deferrals: 0, claims_lost: 0 };
  /** The heartbeats of the delivery rounds in progress (stopped at shutdown before the database closes). */
  private readonly heartbeats = new Set<Heartbeat>();

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly live: LiveEventsService,
    private readonly senders: ChannelSenderRegistry,
    private readonly signal: OutboxSignal,
    private readonly claims: DeliveryClaimsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.ALERTS_DELIVERY_ENABLED) return;
    this.stopped = false;
    this.signal.onKick(() => this.wake('events'));
    if (this.config.DATABASE_URL) {
      try {
        const client = new Client({ connectionString: this.config.DATABASE_URL });
        client.on('notification', (msg) => {
          if (msg.channel === OUTBOX_NOTIFY_CHANNEL) this.wake('events');
        });
        client.on('error', (e) => this.logger.error(`Outbox LISTEN connection failed: ${e.message} (polling goes on)`));
        await client.connect();
        await client.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
        this.listener = client;
      } catch (e) {
        this.logger.error(`Outbox LISTEN unavailable, polling only: ${errorText(e)}`);
      }
    }
    // Work left over from before a restart (and leases of a dead instance) is picked up at once.
    this.wake('events');
    this.wake('deliveries');
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const loop of Object.values(this.loops)) clearTimeout(loop.timer);
    // Sends in flight finish (and are recorded) before the database closes; a send that hangs
    // longer is left to its lease (claimed again, counted as a possible duplicate).
    await Promise.race([
      Promise.allSettled(Object.values(this.loops).map((l) => l.running)),
      new Promise((r) => setTimeout(r, SHUTDOWN_WAIT_MS).unref()),
    ]);
    await Promise.allSettled([...this.heartbeats].map((h) => h.stop()));
    await this.listener?.end().catch(() => undefined);
  }

  /** Runs a loop now (or once more right after the current run). */
  wake(which: 'events' | 'deliveries'): void {
    if (this.stopped) return;
    const loop = this.loops[which];
    if (loop.running) {
      loop.again = true;
      return;
    }
    clearTimeout(loop.timer);
    loop.running = (async () => {
      let nextMs = this.config.ALERTS_DELIVERY_POLL_MS;
      try {
        do {
          loop.again = false;
          const more = which === 'events' ? await this.eventRound() : await this.deliveryRound();
          if (more) loop.again = true;
        } while (loop.again && !this.stopped);
        if (which === 'deliveries') nextMs = await this.msUntilNextDelivery();
      } catch (e) {
        this.logger.error(`Outbox ${which} round failed: ${errorText(e)}`);
      } finally {
        loop.running = undefined;
        if (!this.stopped) {
          loop.timer = setTimeout(() => this.wake(which), nextMs);
          loop.timer.unref();
        }
      }
    })();
  }

  private schedule(which: 'events' | 'deliveries', ms: number): void {
    if (this.stopped) return;
    const t = setTimeout(() => this.wake(which), Math.max(0, ms));
    t.unref();
  }

  private async msUntilNextDelivery(): Promise<number> {
    // Null when nothing is pending (GREATEST would turn that null into 0: a wake-up every 5 ms).
    const [row] = (await this.ds.query(
      `SELECT (EXTRACT(EPOCH FROM (min(next_attempt_at) - now())) * 1000)::float8 AS ms
         FROM notification_delivery WHERE status = 'PENDING'`,
    )) as { ms: number | string | null }[];
    const poll = this.config.ALERTS_DELIVERY_POLL_MS;
    return row?.ms === null || row?.ms === undefined ? poll : Math.min(poll, Math.max(0, Math.ceil(Number(row.ms))) + 5);
  }

  // ---------------------------------------------------------------- events

  /**
   * One batch of due events; true when the batch was full (more may be waiting). If the batch's
   * transaction fails, the due events are taken one at a time, and one that fails alone is
   * ARCHIVED with the error, so a single bad row never blocks the queue.
   */
  private async eventRound(): Promise<boolean> {
    try {
      return await this.eventBatch(this.config.ALERTS_DELIVERY_BATCH);
    } catch (e) {
      this.logger.error(`Outbox event batch failed, going one by one: ${errorText(e)}`);
    }
    for (let i = 0; i < this.config.ALERTS_DELIVERY_BATCH && !this.stopped; i++) {
      const [next] = (await this.ds.query(
        `SELECT event_cuid, "timestamp" FROM notification_trigger_event
          WHERE status IN ('PENDING', 'SENDING') AND COALESCE(next_attempt_at, '-infinity'::timestamptz) <= now()
          ORDER BY created_at, "timestamp", event_cuid LIMIT 1`,
      )) as { event_cuid: string; timestamp: Date }[];
      if (!next) return false;
      try {
        await this.eventBatch(1, next.event_cuid);
      } catch (e) {
        await this.ds.transaction((tx) => this.archiveEvent(tx, next, `Could not be processed: ${errorText(e)}`));
      }
    }
    return true;
  }

  private async eventBatch(limit: number, only?: string): Promise<boolean> {
    const toasts: { users: string[]; toast: TToast }[] = [];
    let deliveriesDueIn: number | undefined;
    const claimed = await this.ds.transaction(async (tx) => {
      const events = (await tx.query(
        `SELECT e.event_cuid, e."timestamp", e.value, e.trigger_cuid, e.notification_cuid, e.status::text AS status
           FROM notification_trigger_event e
          WHERE e.status IN ('PENDING', 'SENDING') AND COALESCE(e.next_attempt_at, '-infinity'::timestamptz) <= now()
            AND ($2::varchar IS NULL OR e.event_cuid = $2)
          ORDER BY e.created_at, e."timestamp", e.event_cuid
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [limit, only ?? null],
      )) as ClaimedEvent[];
      if (!events.length) return 0;
      const fresh = events.filter((e) => !e.notification_cuid);
      const triggers = await this.loadTriggers(tx, [...new Set(fresh.map((e) => e.trigger_cuid))]);
      const channels = await this.loadChannels(tx, [...new Set(fresh.map((e) => e.trigger_cuid))]);
      for (const event of events) {
        if (event.notification_cuid) {
          // SENDING whose lease ran out: its deliveries may all be done (the instance died before closing it).
          await this.closeEventIfDone(tx, event.event_cuid, event.timestamp, true);
          continue;
        }
        const trigger = triggers.get(event.trigger_cuid);
        if (!trigger) {
          await this.archiveEvent(tx, event, 'Trigger not found');
          continue;
        }
        const made = await this.materialise(tx, event, trigger, channels.get(event.trigger_cuid) ?? []);
        if (made.toast) toasts.push(made.toast);
        if (made.deliveries > 0) deliveriesDueIn = Math.min(deliveriesDueIn ?? Infinity, this.config.ALERTS_GROUP_WINDOW_MS);
      }
      return events.length;
    });
    this.counters.events_claimed += claimed;
    // After the commit: the Notification row exists before anybody can acknowledge or open it.
    for (const { users, toast } of toasts) {
      try {
        await this.live.publish(users, { kind: 'toast', toast });
        this.counters.toasts += 1;
      } catch (e) {
        this.logger.error(`Alarm toast ${toast.id} not published: ${errorText(e)}`);
      }
    }
    if (deliveriesDueIn !== undefined) this.schedule('deliveries', deliveriesDueIn + 5);
    return claimed >= limit;
  }

  private async loadTriggers(tx: EntityManager, ids: string[]): Promise<Map<string, TriggerRow>> {
    if (!ids.length) return new Map();
    const rows = (await tx.query(
      `SELECT t.trigger_cuid, t.name, t.message, t.release_message, t.severity_level::text AS severity_level,
              s.system_cuid, s.name AS system_name, s.timezone
         FROM notification_trigger t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.trigger_cuid = ANY($1::varchar[])`,
      [ids],
    )) as TriggerRow[];
    return new Map(rows.map((r) => [r.trigger_cuid, r]));
  }

  /**
   * The channels an alarm of each trigger goes to: enabled links to ACTIVE channels of a company
   * that sees the trigger's system (its owner, or a company it is shared with: the rule of
   * tenancy/visibility.ts). A link left behind after a share ended sends nothing.
   */
  private async loadChannels(tx: EntityManager, triggerIds: string[]): Promise<Map<string, { channel_cuid: string; company_cuid: string }[]>> {
    const out = new Map<string, { channel_cuid: string; company_cuid: string }[]>();
    if (!triggerIds.length) return out;
    const rows = (await tx.query(
      `SELECT ct.trigger_cuid, c.channel_cuid, c.company_cuid
         FROM notification_channel_to_trigger ct
         JOIN notification_channel c ON c.channel_cuid = ct.channel_cuid
         JOIN notification_trigger t ON t.trigger_cuid = ct.trigger_cuid
         JOIN system s ON s.system_cuid = t.system_cuid
        WHERE ct.trigger_cuid = ANY($1::varchar[]) AND ct.enabled AND c.status = 'ACTIVE'
          AND ${companySeesSystemSql('c.company_cuid')}
        ORDER BY c.channel_cuid`,
      [triggerIds],
    )) as { trigger_cuid: string; channel_cuid: string; company_cuid: string }[];
    for (const r of rows) {
      const list = out.get(r.trigger_cuid) ?? [];
      list.push({ channel_cuid: r.channel_cuid, company_cuid: r.company_cuid });
      out.set(r.trigger_cuid, list);
    }
    return out;
  }

  /** The event's value as the engine wrote it; what is missing is filled from the trigger and the event row. */
  private eventValue(event: ClaimedEvent, trigger: TriggerRow): TTriggerEventValue {
    const parsed = ZTriggerEventValue.safeParse(event.value);
    if (parsed.success) return parsed.data;
    const raw = (event.value && typeof event.value === 'object' ? event.value : {}) as Partial<TTriggerEventValue>;
    return {
      state: raw.state === 'RELEASED' ? 'RELEASED' : 'TRIGGERED',
      value: raw.value ?? null,
      threshold: raw.threshold ?? null,
      parameter: typeof raw.parameter === 'string' ? raw.parameter : null,
      unit: typeof raw.unit === 'string' ? raw.unit : null,
      device: typeof raw.device === 'string' ? raw.device : null,
      system: trigger.system_name,
      system_cuid: trigger.system_cuid,
      timezone: trigger.timezone,
      time: new Date(event.timestamp).toISOString(),
    };
  }

  private templateOf(trigger: TriggerRow, state: 'TRIGGERED' | 'RELEASED'): string {
    return state === 'RELEASED' && trigger.release_message ? trigger.release_message : trigger.message;
  }

  /** Notification row, deliveries, event SENDING (or SENT without channels); the toast to publish after the commit. */
  private async materialise(
    tx: EntityManager,
    event: ClaimedEvent,
    trigger: TriggerRow,
    channels: { channel_cuid: string; company_cuid: string }[],
  ): Promise<{ deliveries: number; toast?: { users: string[]; toast: TToast } }> {
    const value = this.eventValue(event, trigger);
    const text = renderMessage(this.templateOf(trigger, value.state), value, 'text');
    const notification_cuid = newCuid();
    await tx.query(`INSERT INTO notification (notification_cuid, message, severity_level, trigger_cuid) VALUES ($1, $2, $3, $4)`, [
      notification_cuid,
      text,
      trigger.severity_level,
      trigger.trigger_cuid,
    ]);
    if (channels.length) {
      // A burst for one channel shares the due time of the first alert still waiting for it (the
      // group window), so the whole burst goes out as one message.
      await tx.query(
        `INSERT INTO notification_delivery (event_cuid, channel_cuid, event_timestamp, notification_cuid, company_cuid, next_attempt_at)
         SELECT $1, c.channel_cuid, $2, $3, c.company_cuid,
                COALESCE((SELECT min(d.next_attempt_at) FROM notification_delivery d
                           WHERE d.channel_cuid = c.channel_cuid AND d.status = 'PENDING' AND d.attempts = 0 AND d.deferrals = 0
                             AND d.next_attempt_at > now()),
                         now() + make_interval(secs => $6::float8 / 1000))
           FROM unnest($4::varchar[], $5::varchar[]) AS c(channel_cuid, company_cuid)
         ON CONFLICT (event_cuid, channel_cuid) DO NOTHING`,
        [event.event_cuid, event.timestamp, notification_cuid, channels.map((c) => c.channel_cuid), channels.map((c) => c.company_cuid), this.config.ALERTS_GROUP_WINDOW_MS],
      );
    }
    await tx.query(
      `UPDATE notification_trigger_event
          SET notification_cuid = $3, status = $4::trigger_event_status,
              next_attempt_at = CASE WHEN $4::text = 'SENDING' THEN now() + make_interval(secs => $5::float8) END
        WHERE event_cuid = $1 AND "timestamp" = $2`,
      [event.event_cuid, event.timestamp, notification_cuid, channels.length ? 'SENDING' : 'SENT', this.config.ALERTS_DELIVERY_LEASE_SECONDS],
    );
    const deviceTime = new Date(value.time);
    const when = Number.isNaN(deviceTime.getTime()) ? new Date(event.timestamp) : deviceTime;
    if (Date.now() - when.getTime() > this.config.ALERTS_LIVE_WINDOW_SECONDS * 1000) return { deliveries: channels.length };
    const users = await alarmToastRecipients(tx, trigger.system_cuid, trigger.trigger_cuid);
    const toast = alarmToast({
      notification_cuid,
      trigger_cuid: trigger.trigger_cuid,
      trigger_name: trigger.name,
      system_cuid: trigger.system_cuid,
      system_name: trigger.system_name,
      timezone: trigger.timezone,
      severity: trigger.severity_level,
      state: value.state,
      message: text,
      deviceTime: when,
    });
    return { deliveries: channels.length, toast: users.length ? { users, toast } : undefined };
  }

  private async archiveEvent(tx: EntityManager, event: { event_cuid: string; timestamp: Date }, reason: string): Promise<void> {
    await tx.query(
      `UPDATE notification_trigger_event SET status = 'ARCHIVED', next_attempt_at = NULL, last_error = $3 WHERE event_cuid = $1 AND "timestamp" = $2`,
      [event.event_cuid, event.timestamp, truncate(reason)],
    );
    this.logger.warn(`Alert event ${event.event_cuid} ARCHIVED: ${reason}`);
  }

  /**
   * An event is SENT once every delivery of it is SENT, ARCHIVED (with the channels' reasons) once
   * every delivery is done and one was ARCHIVED; otherwise it stays SENDING (checked again when its
   * lease runs out). `locked`: the caller already holds the event row.
   */
  private async closeEventIfDone(tx: EntityManager, event_cuid: string, timestamp: Date, locked: boolean): Promise<void> {
    if (!locked) {
      const held = (await tx.query(
        `SELECT status::text AS status FROM notification_trigger_event WHERE event_cuid = $1 AND "timestamp" = $2 FOR UPDATE`,
        [event_cuid, timestamp],
      )) as { status: string }[];
      if (!held.length || held[0].status !== 'SENDING') return;
    }
    const [s] = (await tx.query(
      `SELECT count(*) FILTER (WHERE status IN ('PENDING', 'SENDING'))::int AS open,
              count(*) FILTER (WHERE status = 'ARCHIVED')::int AS archived,
              COALESCE(max(attempts + CASE WHEN status = 'SENT' THEN 1 ELSE 0 END), 0)::int AS attempts,
              string_agg(CASE WHEN status = 'ARCHIVED' THEN channel_cuid || ': ' || COALESCE(last_error, '?') END, '; ' ORDER BY channel_cuid) AS reasons
         FROM notification_delivery WHERE event_cuid = $1`,
      [event_cuid],
    )) as { open: number; archived: number; attempts: number; reasons: string | null }[];
    if (s.open > 0) {
      await tx.query(
        `UPDATE notification_trigger_event SET next_attempt_at = now() + make_interval(secs => $3), attempts = $4
          WHERE event_cuid = $1 AND "timestamp" = $2`,
        [event_cuid, timestamp, this.config.ALERTS_DELIVERY_LEASE_SECONDS, s.attempts],
      );
      return;
    }
    await tx.query(
      `UPDATE notification_trigger_event SET status = $3, next_attempt_at = NULL, attempts = $4, last_error = $5
        WHERE event_cuid = $1 AND "timestamp" = $2`,
      [event_cuid, timestamp, s.archived ? 'ARCHIVED' : 'SENT', s.attempts, s.archived ? truncate(s.reasons ?? 'archived') : null],
    );
  }

  // ---------------------------------------------------------------- deliveries

  private lastSweep = 0;

  /** Finished deliveries older than ALERTS_DELIVERY_KEEP_DAYS are removed (hourly); NotificationChannelToNotification stays. */
  private async sweep(): Promise<void> {
    const days = this.config.ALERTS_DELIVERY_KEEP_DAYS;
    if (!days || Date.now() - this.lastSweep < 3_600_000) return;
    this.lastSweep = Date.now();
    await this.ds.query(
      `DELETE FROM notification_delivery WHERE status IN ('SENT', 'ARCHIVED') AND created_at < now() - make_interval(days => $1)`,
      [days],
    );
  }

  /**
   * One batch of due deliveries; true when the batch was full. The round holds its claim with a
   * heartbeat until it ends: a live instance's deliveries are never claimed by another one, however
   * long its sends take (docs/alerts.md, "Duplicates").
   */
  private async deliveryRound(): Promise<boolean> {
    await this.sweep().catch((e: unknown) => this.logger.warn(`Could not sweep old deliveries: ${errorText(e)}`));
    const token = newCuid();
    const lease = this.config.ALERTS_DELIVERY_LEASE_SECONDS;
    const claimed = await this.claims.claimDue(token, this.config.ALERTS_DELIVERY_BATCH, lease);
    if (!claimed.length) return false;
    const heartbeat = startHeartbeat(() => this.claims.renew(token, lease), heartbeatEveryMs(lease), (e) =>
      this.logger.warn(`Could not renew the lease of ${claimed.length} claimed alert deliveries: ${errorText(e)}`),
    );
    this.heartbeats.add(heartbeat);
    try {
      const work = await this.loadWork(claimed, token);
      const byChannel = new Map<string, DeliveryWork[]>();
      for (const w of work) {
        const list = byChannel.get(w.channel_cuid) ?? [];
        list.push(w);
        byChannel.set(w.channel_cuid, list);
      }
      const queue = [...byChannel.values()];
      const runners = Array.from({ length: Math.min(this.config.ALERTS_DELIVERY_CONCURRENCY, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          try {
            await this.sendToChannel(next);
          } catch (e) {
            // Recording failed (the database went away): the leases bring these back.
            this.logger.error(`Delivery to channel ${next[0].channel_cuid} not recorded: ${errorText(e)}`);
          }
        }
      });
      await Promise.all(runners);
    } finally {
      this.heartbeats.delete(heartbeat);
      await heartbeat.stop();
    }
    return claimed.length >= this.config.ALERTS_DELIVERY_BATCH;
  }

  private publicUrl(): string {
    const configured = (this.config as unknown as { PUBLIC_URL?: string }).PUBLIC_URL ?? this.config.env?.PUBLIC_URL ?? '';
    return configured.replace(/\/+$/, '');
  }

  /** What each claimed delivery sends: the event's alert rendered in every format, and its channel now. */
  private async loadWork(claimed: ClaimedDelivery[], claim_token: string): Promise<DeliveryWork[]> {
    for (const c of claimed) {
      if (c.reclaimed) {
        this.logger.warn(`Delivery of ${c.event_cuid} to ${c.channel_cuid} claimed again after its lease ran out: it may go out twice (counted)`);
      }
    }
    const rows = (await this.ds.query(
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
      [claimed.map((c) => c.event_cuid), claimed.map((c) => c.channel_cuid)],
    )) as (TriggerRow & { event_cuid: string; channel_cuid: string; source: NotificationChannelSourceValue; channel_active: boolean; value: unknown; timestamp: Date; text: string })[];
    const byKey = new Map(rows.map((r) => [`${r.event_cuid}/${r.channel_cuid}`, r]));
    const base = this.publicUrl();
    const out: DeliveryWork[] = [];
    const archived: { c: ClaimedDelivery; reason: string }[] = [];
    for (const c of claimed) {
      const r = byKey.get(`${c.event_cuid}/${c.channel_cuid}`);
      if (!r) {
        archived.push({ c, reason: 'The alert event no longer exists' }); // deleted with its partition: nothing left to send
        continue;
      }
      // One delivery that cannot be rendered fails alone (ARCHIVED with the reason), never the round.
      try {
        const value = this.eventValue({ event_cuid: r.event_cuid, timestamp: r.timestamp, value: r.value, trigger_cuid: r.trigger_cuid, notification_cuid: c.notification_cuid, status: 'SENDING' }, r);
        const template = this.templateOf(r, value.state);
        out.push({
          ...c,
          claim_token,
          source: r.source,
          channel_active: r.channel_active,
          alert: {
            event_cuid: c.event_cuid,
            trigger_cuid: r.trigger_cuid,
            system_cuid: r.system_cuid,
            system_name: r.system_name,
            severity: r.severity_level,
            state: value.state,
            text: r.text,
            html: renderMessage(template, value, 'html'),
            markdown: renderMessage(template, value, 'markdown'),
            time: value.time,
            link: `${base}/systems/${r.system_cuid}/alarms`,
          },
        });
      } catch (e) {
        archived.push({ c, reason: `Could not be rendered: ${errorText(e)}` });
      }
    }
    if (archived.length) {
      await this.ds.query(
        `UPDATE notification_delivery d SET status = 'ARCHIVED', lease_until = NULL, last_error = a.reason
           FROM unnest($1::varchar[], $2::varchar[], $3::text[]) AS a(event_cuid, channel_cuid, reason)
          WHERE d.event_cuid = a.event_cuid AND d.channel_cuid = a.channel_cuid`,
        [archived.map((a) => a.c.event_cuid), archived.map((a) => a.c.channel_cuid), archived.map((a) => truncate(a.reason))],
      );
      for (const { c, reason } of archived) this.logger.warn(`Delivery of ${c.event_cuid} to ${c.channel_cuid} ARCHIVED: ${reason}`);
      await this.closeEvents(archived.map((a) => a.c));
    }
    out.sort((a, b) => new Date(a.event_timestamp).getTime() - new Date(b.event_timestamp).getTime());
    return out;
  }

  /** A channel's claimed deliveries: one grouped message from ALERTS_GROUP_MIN of them, else one each. */
  private async sendToChannel(list: DeliveryWork[]): Promise<void> {
    const first = list[0];
    if (!first.channel_active) {
      await this.finish(list, { kind: 'archive', reason: 'The channel is no longer active or no longer linked to the trigger' });
      return;
    }
    const sender = this.senders.get(first.source);
    if (!sender) {
      await this.finish(list, { kind: 'archive', reason: `No sender for ${first.source} channels on this server` });
      return;
    }
    const chunks: DeliveryWork[][] = [];
    if (list.length >= this.config.ALERTS_GROUP_MIN) {
      for (let i = 0; i < list.length; i += this.config.ALERTS_GROUP_MAX) chunks.push(list.slice(i, i + this.config.ALERTS_GROUP_MAX));
    } else {
      for (const w of list) chunks.push([w]);
    }
    const target: ChannelTarget = { channel_cuid: first.channel_cuid, company_cuid: first.company_cuid, source: first.source };
    for (let i = 0; i < chunks.length; i++) {
      // Still this claim's? (Its lease is renewed here too.) A delivery another instance claimed
      // after this one's lease ran out (it could not renew for a whole lease) is that one's to send.
      const held = await this.claims.hold(first.claim_token, chunks[i], this.config.ALERTS_DELIVERY_LEASE_SECONDS);
      const chunk = chunks[i].filter((w) => held.has(deliveryKey(w)));
      if (chunk.length < chunks[i].length) {
        this.counters.claims_lost += chunks[i].length - chunk.length;
        this.logger.warn(`${chunks[i].length - chunk.length} alert deliveries to ${first.channel_cuid} are no longer held by this instance (its lease ran out): not sent here`);
      }
      if (!chunk.length) continue;
      let result: SendResult;
      try {
        result = await sender.send(target, chunk.map((w) => w.alert));
      } catch (e) {
        result = { ok: false, reason: `Sender failed: ${errorText(e)}` };
      }
      if (result.ok) {
        this.counters.messages_sent += 1;
        if (chunk.length > 1) this.counters.grouped_messages += 1;
        await this.finish(chunk, { kind: 'sent' });
      } else if ('permanent' in result && result.permanent) {
        await this.finish(chunk, { kind: 'archive', reason: result.reason });
      } else if ('retryAfterMs' in result && result.retryAfterMs !== undefined) {
        this.counters.deferrals += 1;
        // The service asked this channel to wait: this chunk is deferred, the rest of the channel's
        // claimed deliveries go back untouched, and its other waiting ones wait at least as long.
        const wait = Math.min(Math.max(0, result.retryAfterMs), MAX_RETRY_AFTER_MS);
        await this.finish(chunk, { kind: 'defer', reason: result.reason, waitMs: wait });
        await this.finish(chunks.slice(i + 1).flat(), { kind: 'release', waitMs: wait });
        await this.ds.query(
          `UPDATE notification_delivery SET next_attempt_at = GREATEST(next_attempt_at, now() + make_interval(secs => $2::float8 / 1000))
            WHERE channel_cuid = $1 AND status = 'PENDING'`,
          [first.channel_cuid, wait],
        );
        return;
      } else {
        this.counters.failures += 1;
        await this.finish(chunk, { kind: 'fail', reason: result.reason });
      }
    }
  }

  private backoffMs(attempts: number): number {
    return Math.min(this.config.ALERTS_DELIVERY_BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), this.config.ALERTS_DELIVERY_BACKOFF_MAX_MS);
  }

  /** Records the answer for some claimed deliveries (one transaction) and closes the events that are done. */
  private async finish(list: DeliveryWork[], outcome: FinishOutcome): Promise<void> {
    if (!list.length) return;
    // Written together; a write the database refuses for one delivery is written again in halves,
    // so only that delivery fails (ARCHIVED below with the reason) and nothing stays SENDING.
    const results = await splitOnFailure(list, (part) =>
      this.ds.transaction(async (tx) => {
        const finished: boolean[] = [];
        for (const w of part) finished.push(await this.record(tx, w, outcome));
        return finished;
      }),
    );
    const done = list.filter((_, i) => results[i].ok && (results[i] as { value: boolean }).value);
    const refused = list.flatMap((w, i) => {
      const r = results[i];
      return !r.ok && !isTransientDatabaseError(r.error) ? [{ w, error: r.error }] : [];
    });
    for (const { w, error } of refused) {
      const reason = `Could not be recorded (${outcome.kind}): ${knownDatabaseError(sqlState(error))?.message ?? errorText(error)}`;
      try {
        await this.ds.query(
          `UPDATE notification_delivery SET status = 'ARCHIVED', lease_until = NULL, last_error = $3
            WHERE event_cuid = $1 AND channel_cuid = $2 AND status = 'SENDING' AND claim_token = $4`,
          [w.event_cuid, w.channel_cuid, truncate(reason), w.claim_token],
        );
        this.logger.warn(`Delivery of ${w.event_cuid} to ${w.channel_cuid} ARCHIVED: ${reason} (${errorText(error)})`);
        done.push(w);
      } catch (e) {
        // Left SENDING: its lease brings it back.
        this.logger.error(`Delivery of ${w.event_cuid} to ${w.channel_cuid} not recorded: ${errorText(e)}`);
      }
    }
    if (outcome.kind === 'archive') this.logger.warn(`${list.length} alert deliveries to ${list[0].channel_cuid} ARCHIVED: ${outcome.reason}`);
    await this.closeEvents(done);
  }

  /** Each event in its own short transaction (its row lock orders the instances closing it). */
  private async closeEvents(done: { event_cuid: string; event_timestamp: Date }[]): Promise<void> {
    const events = new Map(done.map((w) => [w.event_cuid, w.event_timestamp]));
    for (const [event_cuid, timestamp] of events) {
      await this.ds.transaction((tx) => this.closeEventIfDone(tx, event_cuid, timestamp, false));
    }
  }

  /**
   * Records one delivery's answer; true when it is finished (SENT or ARCHIVED). A send that went out
   * is SENT whoever holds the delivery now (another holder then finds it no longer SENDING and does
   * not send it); any other answer is written only while this claim still holds it.
   */
  private async record(tx: EntityManager, w: DeliveryWork, outcome: FinishOutcome): Promise<boolean> {
    if (outcome.kind === 'sent') {
      await tx.query(
        `UPDATE notification_delivery SET status = 'SENT', sent_at = now(), lease_until = NULL, last_error = NULL
          WHERE event_cuid = $1 AND channel_cuid = $2 AND status IN ('PENDING', 'SENDING')`,
        [w.event_cuid, w.channel_cuid],
      );
      await tx.query(
        `INSERT INTO notification_channel_to_notification (channel_cuid, notification_cuid) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [w.channel_cuid, w.notification_cuid],
      );
      return true;
    }
    // `$1`–`$3`: the delivery and this claim's token; `set` writes the answer when it still holds it.
    const mine = async (set: string, params: unknown[]): Promise<boolean> =>
      updatedRows(
        await tx.query(
          `UPDATE notification_delivery SET ${set}, lease_until = NULL
            WHERE event_cuid = $1 AND channel_cuid = $2 AND status = 'SENDING' AND claim_token = $3 RETURNING 1`,
          [w.event_cuid, w.channel_cuid, w.claim_token, ...params],
        ),
      ).length > 0;
    switch (outcome.kind) {
      case 'archive':
        return mine(`status = 'ARCHIVED', last_error = $4`, [truncate(outcome.reason)]);
      case 'fail': {
        const attempts = w.attempts + 1;
        if (attempts >= this.config.ALERTS_DELIVERY_MAX_ATTEMPTS) {
          return mine(`status = 'ARCHIVED', attempts = $4, last_error = $5`, [attempts, truncate(`Gave up after ${attempts} attempts: ${outcome.reason}`)]);
        }
        await mine(`status = 'PENDING', attempts = $4, last_error = $5, next_attempt_at = now() + make_interval(secs => $6::float8 / 1000)`, [
          attempts,
          truncate(outcome.reason),
          this.backoffMs(attempts),
        ]);
        return false;
      }
      case 'defer': {
        const deferrals = w.deferrals + 1;
        if (deferrals > this.config.ALERTS_DELIVERY_MAX_DEFERRALS) {
          return mine(`status = 'ARCHIVED', deferrals = $4, last_error = $5`, [deferrals, truncate(`Still rate limited after ${deferrals - 1} waits: ${outcome.reason}`)]);
        }
        await mine(`status = 'PENDING', deferrals = $4, last_error = $5, next_attempt_at = now() + make_interval(secs => $6::float8 / 1000)`, [
          deferrals,
          truncate(outcome.reason),
          outcome.waitMs,
        ]);
        return false;
      }
      case 'release':
        await mine(`status = 'PENDING', next_attempt_at = now() + make_interval(secs => $4::float8 / 1000)`, [outcome.waitMs]);
        return false;
    }
  }

  // ---------------------------------------------------------------- metrics

  /** Depth and lag of the outbox (one query per table), and this instance's counters. */
  async stats(): Promise<OutboxStats> {
    const [e] = (await this.ds.query(
      `SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
              count(*) FILTER (WHERE status = 'SENDING')::int AS sending,
              COALESCE(EXTRACT(EPOCH FROM (now() - min(created_at) FILTER (WHERE status = 'PENDING'))), 0)::float8 AS lag
         FROM notification_trigger_event WHERE status IN ('PENDING', 'SENDING')`,
    )) as { pending: number; sending: number; lag: number }[];
    const [d] = (await this.ds.query(
      `SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
              count(*) FILTER (WHERE status = 'SENDING')::int AS sending,
              count(*) FILTER (WHERE status = 'ARCHIVED')::int AS archived,
              COALESCE(sum(duplicates), 0)::int AS duplicates
         FROM notification_delivery`,
    )) as { pending: number; sending: number; archived: number; duplicates: number }[];
    return {
      events_pending: e.pending,
      events_sending: e.sending,
      lag_seconds: Math.max(0, Number(e.lag)),
      deliveries_pending: d.pending,
      deliveries_sending: d.sending,
      deliveries_archived: d.archived,
      duplicates: d.duplicates,
      counters: { ...this.counters },
    };
  }
}
