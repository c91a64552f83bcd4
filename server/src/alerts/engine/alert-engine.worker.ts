import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { ownEntry } from '../../../../shared/common/own-entry';
import { AppConfig } from '../../config/config';
import { SharedSignals, SIGNAL_TOPICS } from '../../database/shared-signals';
import { ControllerOnlineStateService, type OnlineTransition } from '../../telemetry/controller-online-state.service';
import { type Clock, TELEMETRY_CLOCK } from '../../telemetry/telemetry.config';
import { type CommittedFlush, pgCode, TelemetryWriter } from '../../telemetry/telemetry-writer.service';
import { OutboxSignal } from '../outbox-signal';
import { type AlertEngineRepository, SqlAlertEngineRepository } from './alert-engine.repository';
import { AlertEngineService } from './alert-engine.service';
import { ALERT_ENGINE_JOB as JOB } from './job-identity';
import { type CachedStatus, scalar } from './locked-judgement';
import { sortBatch } from './quiet-batch';
import type { Sample } from './rule-step';
import { type IndexedTrigger, TriggerIndex } from './trigger-index';

/** Stored values one trigger re-reads at most per catch-up round (start-up, queue overflow). */
const CATCH_UP_ROWS = 10_000;
/** Triggers read back per statement. */
const CATCH_UP_CHUNK = 500;

/**
 * The trigger engine's worker (docs/alerts.md, "The trigger engine"): when active
 * NotificationTriggers are judged. What a judgement is and writes is AlertEngineService's.
 * - on data: after each ingest flush commits, TelemetryWriter hands the flush's rows to `onFlush`,
 *   which keeps the rows some trigger watches in a bounded queue; a drain loop judges them in
 *   device-time order per trigger, first against a cached copy of the status, and only when a
 *   value could change something under the status row's lock;
 * - on a timer: due rows of notification_trigger_status (`next_execution <= now`) are claimed with
 *   `FOR UPDATE SKIP LOCKED`, so several instances share them, and judged in the claiming transaction;
 * - on state: DeviceState rows (state rules) and ControllerOnlineState transitions (offline rules).
 * It keeps the trigger index fresh (a reload after writes, on the `triggers` signal and on a
 * fingerprint poll), and OutboxSignal.kick() follows every commit that wrote events.
 */
@Injectable()
export class AlertEngine implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AlertEngine');
  private index = new TriggerIndex();
  private readonly cache = new Map<string, CachedStatus>();
  /** Samples waiting per trigger, and how many in all. */
  private pending = new Map<string, Sample[]>();
  private queued = 0;
  /** Triggers whose samples were dropped (queue full): they re-read the stored values. */
  private catchUp = new Set<string>();
  private draining?: Promise<void>;
  private loading?: Promise<void>;
  private nextLoad?: Promise<void>;
  private fingerprint = '';
  private timer?: NodeJS.Timeout;
  private checker?: NodeJS.Timeout;
  private ticking?: Promise<number>;
  private closed = false;
  private started = false;
  private readonly transitions = new Set<Promise<void>>();
  /** The reload a `triggers` signal started (reloadEverywhere waits for it). */
  private signalledLoad?: Promise<void>;
  /**
   * Several instances may judge the same trigger (shared subscriptions alternate one controller's
   * messages between them), so a cached status may be stale. On PostgreSQL a batch the cache calls
   * quiet is therefore always confirmed by a conditional write (the row must still be in the cached
   * state, else it is judged under lock); alone (embedded database) quiet progress is written once a minute.
   */
  private readonly confirmQuiet: boolean;

  constructor(
    private readonly config: AppConfig,
    @Inject(TELEMETRY_CLOCK) private readonly clock: Clock,
    private readonly writer: TelemetryWriter,
    private readonly online: ControllerOnlineStateService,
    private readonly outbox: OutboxSignal,
    private readonly engine: AlertEngineService,
    @Inject(SqlAlertEngineRepository) private readonly claims: AlertEngineRepository,
    @Optional() private readonly signals?: SharedSignals,
  ) {
    this.confirmQuiet = signals?.shared ?? false;
    // Triggers written on any instance: the index is read again now (the fingerprint poll stays as a safety net).
    signals?.on(SIGNAL_TOPICS.triggers, () => {
      if (this.closed || !this.started) return;
      const load = this.reload();
      this.signalledLoad = load;
      load.catch((e) => {
        this.logger.warn(`trigger index not reloaded: ${(e as Error).message}`);
        this.markStale();
      });
    });
    // A status row moved by another instance: its cached copy goes (the next value is judged under lock).
    signals?.on(SIGNAL_TOPICS.triggerStatus, (trigger_cuid) => {
      if (trigger_cuid === null) this.cache.clear();
      else this.cache.delete(trigger_cuid);
    });
  }

  /**
   * After a trigger write on this instance: reloads here and signals the other instances, which
   * reload at once too. Resolves after this instance's reload.
   */
  async reloadEverywhere(): Promise<void> {
    if (!this.signals || !this.started) return this.reload();
    this.signalledLoad = undefined;
    await this.signals.publish(SIGNAL_TOPICS.triggers);
    await (this.signalledLoad ?? this.reload());
  }

  async onApplicationBootstrap(): Promise<void> {
    this.writer.onCommit((flush) => this.onFlush(flush));
    this.online.onTransition((t) => {
      const work = this.onTransition(t).finally(() => this.transitions.delete(work));
      this.transitions.add(work);
    });
    await this.reload();
    this.started = true;
    // Values committed while no engine ran (a crash between commit and evaluation, a restart) are read back.
    void this.catchUpAll().catch((e) => this.logger.warn(`start-up catch-up failed: ${(e as Error).message}`));
    const every = this.config.ALERTS_TIMER_INTERVAL_MS;
    if (every > 0) {
      const loop = () => {
        if (this.closed) return;
        void this.tick()
          .catch((e) => this.logger.warn(`timer failed: ${(e as Error).message}`))
          .finally(() => {
            if (!this.closed) this.timer = setTimeout(loop, every);
          });
      };
      this.timer = setTimeout(loop, every);
    }
    const check = this.config.ALERTS_INDEX_CHECK_SECONDS;
    if (check > 0) {
      this.checker = setInterval(
        () => void this.checkForChanges().catch((e) => this.logger.warn(`trigger check failed: ${(e as Error).message}`)),
        check * 1000,
      );
      this.checker.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.checker) clearInterval(this.checker);
    await Promise.allSettled([this.ticking, this.loading]);
    // Judge what is queued (the ingest drained before: its flushes are in the queue).
    await this.settle().catch(() => undefined);
  }

  // ---- the index ------------------------------------------------------------------------------

  /**
   * Reloads the active triggers and their statuses (after a write on this instance, or a change
   * seen on another). Resolves after a load that started after the call.
   */
  reload(): Promise<void> {
    if (!this.loading) {
      this.loading = this.loadRetrying().finally(() => (this.loading = undefined));
      return this.loading;
    }
    this.nextLoad ??= this.loading
      .catch(() => undefined)
      .then(() => {
        this.nextLoad = undefined;
        return this.reload();
      });
    return this.nextLoad;
  }

  /** A trigger deleted while the statuses of new ones are inserted (foreign key): read the list again. */
  private async loadRetrying(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.load();
      } catch (e) {
        if (attempt >= 3 || pgCode(e) !== '23503') throw e;
      }
    }
  }

  private async load(): Promise<void> {
    const { index, statuses } = await this.engine.load();
    this.cache.clear();
    for (const [k, v] of statuses) this.cache.set(k, v);
    this.index = index;
    this.fingerprint = await this.engine.fingerprint();
  }

  /** Forces the next periodic check to reload. */
  markStale(): void {
    this.fingerprint = '';
  }

  /** Another instance changed triggers: reload. */
  async checkForChanges(): Promise<boolean> {
    if (this.closed) return false;
    const now = await this.engine.fingerprint();
    if (now === this.fingerprint) return false;
    await this.reload();
    return true;
  }

  /** Active triggers indexed (diagnosis, tests). */
  get size(): number {
    return this.index.triggers.size;
  }

  // ---- data -------------------------------------------------------------------------------------

  /** The ingest listener: an enqueue per watched row, nothing else (runs before the senders are answered). */
  onFlush(flush: CommittedFlush): void {
    // Before the first load nothing is indexed; the start-up catch-up reads those rows back.
    if (!this.started) return;
    const index = this.index;
    let added = false;
    if (index.byParameter.size) {
      for (const r of flush.rows) {
        const list = index.watching(r.entity_cuid, r.parameter_id);
        if (!list) continue;
        const sample: Sample = { ts: r.ts, value: r.value };
        for (let i = 0; i < list.length; i++) this.enqueue(list[i].trigger_cuid, sample);
        added = true;
      }
    }
    if (index.byStateEntity.size) {
      for (const s of flush.states) {
        const list = index.byStateEntity.get(s.entity_cuid);
        if (!list) continue;
        let bundle: Record<string, unknown>;
        try {
          bundle = JSON.parse(s.bundle) as Record<string, unknown>;
        } catch {
          continue;
        }
        for (const t of list) if (t.rule.kind === 'state') this.enqueue(t.trigger_cuid, { ts: s.ts, value: scalar(ownEntry(bundle, t.rule.key)) });
        added = true;
      }
    }
    if (added) this.schedule();
  }

  private enqueue(trigger_cuid: string, sample: Sample): void {
    if (this.queued >= this.config.ALERTS_QUEUE_MAX_ROWS) {
      this.catchUp.add(trigger_cuid);
      return;
    }
    const list = this.pending.get(trigger_cuid);
    if (list) list.push(sample);
    else this.pending.set(trigger_cuid, [sample]);
    this.queued++;
  }

  private schedule(): void {
    if (this.draining) return;
    this.draining = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .catch((e) => this.logger.error(`evaluation failed: ${(e as Error).message}`))
      .finally(() => {
        this.draining = undefined;
        if (this.pending.size || this.catchUp.size) this.schedule();
      });
  }

  /** Samples waiting in the queue to be judged (portal_engine_queue_samples). */
  get queuedSamples(): number {
    return this.queued;
  }

  /** Waits until every queued value has been judged (tests, shutdown). */
  async settle(): Promise<void> {
    await this.online.settle();
    await Promise.allSettled([...this.transitions]);
    while (this.draining || this.pending.size || this.catchUp.size) {
      if (!this.draining) this.schedule();
      await this.draining;
    }
  }

  private async drain(): Promise<void> {
    while (this.pending.size || this.catchUp.size) {
      if (this.catchUp.size) {
        const ids = [...this.catchUp];
        this.catchUp = new Set();
        await this.readBack(ids);
      }
      const batch = this.pending;
      this.pending = new Map();
      this.queued = 0;
      await this.judgeBatch(batch);
    }
  }

  /** Judges queued samples; only triggers a value could move go to the database under lock. */
  private async judgeBatch(batch: Map<string, Sample[]>): Promise<void> {
    const now = this.clock.now().getTime();
    const { locked, progress } = sortBatch(batch, this.index, this.cache, now, this.confirmQuiet);
    const refused = await this.engine.writeProgress(progress, now);
    for (const t of refused) locked.push([t, batch.get(t.trigger_cuid) ?? []]);
    let events = 0;
    for (const [t, samples] of locked) events += await this.engine.evaluate(this.cache, t, { via: 'DATA', samples });
    if (events) this.outbox.kick();
  }

  /** Values stored but not judged (start-up after a crash or restart, queue overflow): read back per trigger, in order. */
  private async readBack(ids: string[]): Promise<void> {
    const triggers = ids
      .map((id) => this.index.triggers.get(id))
      .filter((t): t is IndexedTrigger => !!t && (t.rule.kind === 'threshold' || t.rule.kind === 'no_data'));
    for (let i = 0; i < triggers.length; i += CATCH_UP_CHUNK) {
      await this.judgeBatch(await this.engine.storedSamples(triggers.slice(i, i + CATCH_UP_CHUNK), CATCH_UP_ROWS));
    }
  }

  private async catchUpAll(): Promise<void> {
    for (const t of this.index.triggers.values()) if (t.rule.kind === 'threshold' || t.rule.kind === 'no_data') this.catchUp.add(t.trigger_cuid);
    if (this.catchUp.size) this.schedule();
  }

  // ---- state ------------------------------------------------------------------------------------

  /** A controller went OFFLINE or came back: its system's offline rules are judged now. */
  private async onTransition(t: OnlineTransition): Promise<void> {
    try {
      const rules = await this.engine.offlineRulesFor(this.index, t.controller_id);
      let events = 0;
      for (const r of rules) events += await this.engine.evaluate(this.cache, r, { via: 'STATE' });
      if (events) this.outbox.kick();
    } catch (e) {
      this.logger.warn(`offline rules for ${t.controller_id} not judged: ${(e as Error).message}`);
    }
  }

  // ---- timer ------------------------------------------------------------------------------------

  /**
   * Claims due triggers (next_execution <= now, FOR UPDATE SKIP LOCKED LIMIT n) and judges them in
   * the claiming transaction. Answers how many were claimed. Called by the loop; tests call it.
   */
  tick(): Promise<number> {
    this.ticking ??= this.runTick().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async runTick(): Promise<number> {
    const now = this.clock.now();
    let events = 0;
    const claimed = await this.claims.transaction(JOB, async (c) => {
      const rows = await this.claims.claimDue(JOB, c, now, this.config.ALERTS_TIMER_BATCH);
      for (const row of rows) {
        const t = this.index.triggers.get(row.trigger_cuid);
        if (!t) {
          // Inactive, deleted meanwhile, or args that no longer parse: nothing to wait for.
          await this.claims.clearNextExecution(JOB, c, row.trigger_cuid);
          continue;
        }
        events += await this.engine.judgeLocked(this.cache, c, t, row, { via: 'TIMER' }, now);
      }
      return rows.length;
    });
    if (events) this.outbox.kick();
    return claimed;
  }
}
