import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NotificationChannelSourceValue } from '../../../../shared/common/enums';
import { newCuid } from '../../common/ids';
import { AppConfig } from '../../config/config';
import type { TToast } from '../portal/portal.schema';
import { renderMessage } from '../render';
import { alarmToast } from './alarm-toasts';
import type { OutgoingAlert } from './channel-sender';
import type { ClaimedDelivery } from './delivery-claims.repository';
import { OutboxDeliveriesRepository } from './outbox-deliveries.repository';
import { type AlarmChannel, type EventKey, OutboxEventsRepository } from './outbox-events.repository';
import type { OutboxJob } from './outbox-job';
import {
  answerFor,
  type ClaimedEvent,
  errorText,
  eventClosure,
  eventValue,
  type FinishOutcome,
  templateOf,
  toastTime,
  type TriggerRow,
  truncateReason,
} from './outbox-rules';

/** A claimed delivery ready to send: its alert rendered, its channel as it is now. */
export interface DeliveryWork extends ClaimedDelivery {
  /** The claim (delivery round) holding it: its answers are recorded only while this still holds it. */
  claim_token: string;
  source: NotificationChannelSourceValue;
  channel_active: boolean;
  alert: OutgoingAlert;
}

/** An alarm toast to publish after the commit. */
export interface PendingToast {
  users: string[];
  toast: TToast;
}

/**
 * The steps the outbox worker (outbox.worker.ts) applies to one event or one delivery, with the
 * rules of outbox-rules.ts and the SQL of the outbox repositories: what an event becomes (its
 * Notification row, its deliveries, its toast), what a claimed delivery sends, what a send's answer
 * writes, and when an event is closed. No loops, no claims: the worker holds those.
 */
@Injectable()
export class OutboxWorkerService {
  private readonly logger = new Logger('OutboxWorker');

  constructor(
    private readonly config: AppConfig,
    private readonly events: OutboxEventsRepository,
    private readonly deliveries: OutboxDeliveriesRepository,
  ) {}

  private publicUrl(): string {
    const configured = (this.config as unknown as { PUBLIC_URL?: string }).PUBLIC_URL ?? this.config.env?.PUBLIC_URL ?? '';
    return configured.replace(/\/+$/, '');
  }

  // ---------------------------------------------------------------- events

  /** Notification row, deliveries, event SENDING (or SENT without channels); the toast to publish after the commit. */
  async materialise(
    job: OutboxJob,
    tx: EntityManager,
    event: ClaimedEvent,
    trigger: TriggerRow,
    channels: AlarmChannel[],
  ): Promise<{ deliveries: number; toast?: PendingToast }> {
    const value = eventValue(event, trigger);
    const text = renderMessage(templateOf(trigger, value.state), value, 'text');
    const notification_cuid = newCuid();
    await this.events.insertNotification(job, tx, {
      notification_cuid,
      message: text,
      severity_level: trigger.severity_level,
      trigger_cuid: trigger.trigger_cuid,
    });
    await this.events.insertDeliveries(job, tx, event, notification_cuid, channels, this.config.ALERTS_GROUP_WINDOW_MS);
    await this.events.markMaterialised(job, tx, event, notification_cuid, channels.length ? 'SENDING' : 'SENT', this.config.ALERTS_DELIVERY_LEASE_SECONDS);
    const { when, live } = toastTime(value.time, event.timestamp, this.config.ALERTS_LIVE_WINDOW_SECONDS, Date.now());
    if (!live) return { deliveries: channels.length };
    const users = await this.events.toastRecipients(job, tx, trigger.system_cuid, trigger.trigger_cuid);
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

  async archiveEvent(job: OutboxJob, tx: EntityManager, event: EventKey, reason: string): Promise<void> {
    await this.events.archive(job, tx, event, truncateReason(reason));
    this.logger.warn(`Alert event ${event.event_cuid} ARCHIVED: ${reason}`);
  }

  /**
   * Closes the event when every delivery of it is done (eventClosure), else keeps it SENDING
   * (checked again when its lease runs out). `locked`: the caller already holds the event row.
   */
  async closeEventIfDone(job: OutboxJob, tx: EntityManager, event: EventKey, locked: boolean): Promise<void> {
    if (!locked && (await this.events.lockStatus(job, tx, event)) !== 'SENDING') return;
    const closure = eventClosure(await this.events.deliverySummary(job, tx, event.event_cuid));
    if (closure.open) {
      await this.events.keepOpen(job, tx, event, this.config.ALERTS_DELIVERY_LEASE_SECONDS, closure.attempts);
      return;
    }
    await this.events.close(job, tx, event, closure.status, closure.attempts, closure.last_error);
  }

  /** Each event in its own short transaction (its row lock orders the instances closing it). */
  async closeEvents(job: OutboxJob, done: readonly { event_cuid: string; event_timestamp: Date }[]): Promise<void> {
    const events = new Map(done.map((w) => [w.event_cuid, w.event_timestamp]));
    for (const [event_cuid, timestamp] of events) {
      await this.events.transaction(job, (tx) => this.closeEventIfDone(job, tx, { event_cuid, timestamp }, false));
    }
  }

  // ---------------------------------------------------------------- deliveries

  /** What each claimed delivery sends: the event's alert rendered in every format, and its channel now. */
  async loadWork(job: OutboxJob, claimed: ClaimedDelivery[], claim_token: string): Promise<DeliveryWork[]> {
    for (const c of claimed) {
      if (c.reclaimed) {
        this.logger.warn(`Delivery of ${c.event_cuid} to ${c.channel_cuid} claimed again after its lease ran out: it may go out twice (counted)`);
      }
    }
    const rows = await this.deliveries.work(job, claimed);
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
        const value = eventValue(r, r);
        const template = templateOf(r, value.state);
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
      await this.deliveries.archiveMany(
        job,
        archived.map((a) => ({ event_cuid: a.c.event_cuid, channel_cuid: a.c.channel_cuid, reason: truncateReason(a.reason) })),
      );
      for (const { c, reason } of archived) this.logger.warn(`Delivery of ${c.event_cuid} to ${c.channel_cuid} ARCHIVED: ${reason}`);
      await this.closeEvents(
        job,
        archived.map((a) => a.c),
      );
    }
    out.sort((a, b) => new Date(a.event_timestamp).getTime() - new Date(b.event_timestamp).getTime());
    return out;
  }

  /**
   * Records one delivery's answer; true when it is finished (SENT or ARCHIVED). A send that went out
   * is SENT whoever holds the delivery now; any other answer (answerFor) is written only while this
   * claim still holds it.
   */
  async record(job: OutboxJob, tx: EntityManager, w: DeliveryWork, outcome: FinishOutcome): Promise<boolean> {
    if (outcome.kind === 'sent') {
      await this.deliveries.markSent(job, tx, w);
      return true;
    }
    const answer = answerFor(outcome, w, this.config);
    const written = await this.deliveries.answerIfHeld(job, tx, w, answer);
    return answer.status === 'ARCHIVED' && written;
  }

  /** A delivery whose answer the database refused: ARCHIVED with the reason while this claim holds it. */
  async archiveRefused(job: OutboxJob, w: DeliveryWork, reason: string): Promise<void> {
    await this.deliveries.archiveHeld(job, w, truncateReason(reason));
  }
}
