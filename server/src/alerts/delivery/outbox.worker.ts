import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { newCuid } from '../../common/ids';
import { AppConfig } from '../../config/config';
import { isTransientDatabaseError, splitOnFailure, sqlState } from '../../database/split-on-failure';
import { LiveEventsService } from '../portal/live-events.service';
import { knownDatabaseError } from '../../trpc/errors';
import { OutboxSignal } from '../outbox-signal';
import type { ChannelTarget, SendResult } from './channel-sender';
import { DeliveryClaimsRepository, deliveryKey } from './delivery-claims.repository';
import { type Heartbeat, heartbeatEveryMs, startHeartbeat } from './lease-heartbeat';
import { OUTBOX_NOTIFY_CHANNEL, OutboxDeliveriesRepository } from './outbox-deliveries.repository';
import { OutboxEventsRepository } from './outbox-events.repository';
import { outboxJob, type OutboxJob } from './outbox-job';
import { chunksOf, deliveryWakeMs, errorText, type FinishOutcome, outcomeOf } from './outbox-rules';
import { type DeliveryWork, type PendingToast, OutboxWorkerService } from './outbox-worker.service';
import { ChannelSenderRegistry } from './sender-registry';

/** How long a stopping instance waits for its sends in flight. */
const SHUTDOWN_WAIT_MS = 10_000;

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
  counters: {
    events_claimed: number;
    messages_sent: number;
    grouped_messages: number;
    toasts: number;
    failures: number;
    deferrals: number;
    claims_lost: number;
  };
}

/**
 * The alert outbox worker (docs/alerts.md, "The outbox"): claiming, looping, retrying and shutdown.
 * Two loops share nothing but the database:
 * - the **event loop** claims due NotificationTriggerEvent rows (`FOR UPDATE SKIP LOCKED`), makes
 *   each one's Notification row and per-channel deliveries in one transaction (OutboxWorkerService),
 *   and right after the commit publishes the alarm toasts: toasts never wait for a channel;
 * - the **delivery loop** claims due deliveries (`SKIP LOCKED`, SENDING with a lease), groups them
 *   per channel, sends through the channel's sender outside any transaction, records the answer
 *   (SENT, retry with back-off, 429 deferral, ARCHIVED: outbox-rules.ts) and closes the event once
 *   every delivery of it is SENT or ARCHIVED.
 * Woken by OutboxSignal (the engine, after its commit), by LISTEN on PostgreSQL (other
 * instances' events), by its own timers (a group window, a back-off) and by a poll.
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxWorker.name);
  private readonly job: OutboxJob = outboxJob();
  private listener?: Client;
  private stopped = true;
  private lastSweep = 0;
  private readonly loops = {
    events: { running: undefined as Promise<void> | undefined, again: false, timer: undefined as NodeJS.Timeout | undefined },
    deliveries: { running: undefined as Promise<void> | undefined, again: false, timer: undefined as NodeJS.Timeout | undefined },
  };
  private readonly counters: OutboxStats['counters'] = {
    events_claimed: 0,
    messages_sent: 0,
    grouped_messages: 0,
    toasts: 0,
    failures: 0,
    deferrals: 0,
    claims_lost: 0,
  };
  /** The heartbeats of the delivery rounds in progress (stopped at shutdown before the database closes). */
  private readonly heartbeats = new Set<Heartbeat>();

  constructor(
    private readonly config: AppConfig,
    private readonly live: LiveEventsService,
    private readonly senders: ChannelSenderRegistry,
    private readonly signal: OutboxSignal,
    private readonly claims: DeliveryClaimsRepository,
    private readonly events: OutboxEventsRepository,
    private readonly deliveries: OutboxDeliveriesRepository,
    private readonly outbox: OutboxWorkerService,
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
        await this.deliveries.listen(this.job, client);
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
      Promise.allSettled(Object.values(this.loops).map((l) => l.running ?? Promise.resolve())),
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
        if (which === 'deliveries') nextMs = deliveryWakeMs(await this.deliveries.msUntilNextDue(this.job), this.config.ALERTS_DELIVERY_POLL_MS);
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
      const next = await this.events.nextDue(this.job);
      if (!next) return false;
      try {
        await this.eventBatch(1, next.event_cuid);
      } catch (e) {
        await this.events.transaction(this.job, (tx) => this.outbox.archiveEvent(this.job, tx, next, `Could not be processed: ${errorText(e)}`));
      }
    }
    return true;
  }

  private async eventBatch(limit: number, only?: string): Promise<boolean> {
    const job = this.job;
    const toasts: PendingToast[] = [];
    let deliveriesDueIn: number | undefined;
    const claimed = await this.events.transaction(job, async (tx) => {
      const events = await this.events.claimDue(job, tx, limit, only);
      if (!events.length) return 0;
      const fresh = [...new Set(events.filter((e) => !e.notification_cuid).map((e) => e.trigger_cuid))];
      const triggers = await this.events.triggers(job, tx, fresh);
      const channels = await this.events.channelsOf(job, tx, fresh);
      for (const event of events) {
        if (event.notification_cuid) {
          // SENDING whose lease ran out: its deliveries may all be done (the instance died before closing it).
          await this.outbox.closeEventIfDone(job, tx, event, true);
          continue;
        }
        const trigger = triggers.get(event.trigger_cuid);
        if (!trigger) {
          await this.outbox.archiveEvent(job, tx, event, 'Trigger not found');
          continue;
        }
        const made = await this.outbox.materialise(job, tx, event, trigger, channels.get(event.trigger_cuid) ?? []);
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

  // ---------------------------------------------------------------- deliveries

  /** Finished deliveries older than ALERTS_DELIVERY_KEEP_DAYS are removed (hourly); NotificationChannelToNotification stays. */
  private async sweep(): Promise<void> {
    const days = this.config.ALERTS_DELIVERY_KEEP_DAYS;
    if (!days || Date.now() - this.lastSweep < 3_600_000) return;
    this.lastSweep = Date.now();
    await this.deliveries.sweepFinished(this.job, days);
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
    const claimed = await this.claims.claimDue(this.job, token, this.config.ALERTS_DELIVERY_BATCH, lease);
    if (!claimed.length) return false;
    const heartbeat = startHeartbeat(
      () => this.claims.renew(this.job, token, lease),
      heartbeatEveryMs(lease),
      (e) => this.logger.warn(`Could not renew the lease of ${claimed.length} claimed alert deliveries: ${errorText(e)}`),
    );
    this.heartbeats.add(heartbeat);
    try {
      const work = await this.outbox.loadWork(this.job, claimed, token);
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
    const chunks = chunksOf(list, this.config.ALERTS_GROUP_MIN, this.config.ALERTS_GROUP_MAX);
    const target: ChannelTarget = { channel_cuid: first.channel_cuid, company_cuid: first.company_cuid, source: first.source };
    for (let i = 0; i < chunks.length; i++) {
      // Still this claim's? (Its lease is renewed here too.) A delivery another instance claimed
      // after this one's lease ran out (it could not renew for a whole lease) is that one's to send.
      const held = await this.claims.hold(this.job, first.claim_token, chunks[i], this.config.ALERTS_DELIVERY_LEASE_SECONDS);
      const chunk = chunks[i].filter((w) => held.has(deliveryKey(w)));
      if (chunk.length < chunks[i].length) {
        this.counters.claims_lost += chunks[i].length - chunk.length;
        this.logger.warn(
          `${chunks[i].length - chunk.length} alert deliveries to ${first.channel_cuid} are no longer held by this instance (its lease ran out): not sent here`,
        );
      }
      if (!chunk.length) continue;
      let result: SendResult;
      try {
        result = await sender.send(
          target,
          chunk.map((w) => w.alert),
        );
      } catch (e) {
        result = { ok: false, reason: `Sender failed: ${errorText(e)}` };
      }
      const outcome = outcomeOf(result);
      if (outcome.kind === 'sent') {
        this.counters.messages_sent += 1;
        if (chunk.length > 1) this.counters.grouped_messages += 1;
      } else if (outcome.kind === 'defer') {
        this.counters.deferrals += 1;
      } else if (outcome.kind === 'fail') {
        this.counters.failures += 1;
      }
      await this.finish(chunk, outcome);
      if (outcome.kind === 'defer') {
        // The service asked this channel to wait: this chunk is deferred, the rest of the channel's
        // claimed deliveries go back untouched, and its other waiting ones wait at least as long.
        await this.finish(chunks.slice(i + 1).flat(), { kind: 'release', waitMs: outcome.waitMs });
        await this.deliveries.holdChannel(this.job, first.channel_cuid, outcome.waitMs);
        return;
      }
    }
  }

  /** Records the answer for some claimed deliveries (one transaction) and closes the events that are done. */
  private async finish(list: DeliveryWork[], outcome: FinishOutcome): Promise<void> {
    if (!list.length) return;
    const job = this.job;
    // Written together; a write the database refuses for one delivery is written again in halves,
    // so only that delivery fails (ARCHIVED below with the reason) and nothing stays SENDING.
    const results = await splitOnFailure(list, (part) =>
      this.deliveries.transaction(job, async (tx) => {
        const finished: boolean[] = [];
        for (const w of part) finished.push(await this.outbox.record(job, tx, w, outcome));
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
        await this.outbox.archiveRefused(job, w, reason);
        this.logger.warn(`Delivery of ${w.event_cuid} to ${w.channel_cuid} ARCHIVED: ${reason} (${errorText(error)})`);
        done.push(w);
      } catch (e) {
        // Left SENDING: its lease brings it back.
        this.logger.error(`Delivery of ${w.event_cuid} to ${w.channel_cuid} not recorded: ${errorText(e)}`);
      }
    }
    if (outcome.kind === 'archive') this.logger.warn(`${list.length} alert deliveries to ${list[0].channel_cuid} ARCHIVED: ${outcome.reason}`);
    await this.outbox.closeEvents(job, done);
  }

  // ---------------------------------------------------------------- metrics

  /** Depth and lag of the outbox (one query per table), and this instance's counters. */
  async stats(): Promise<OutboxStats> {
    const e = await this.events.stats(this.job);
    const d = await this.deliveries.stats(this.job);
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
