import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { NextExecutionTriggerValue, TriggerLogProcessingStatusValue } from '../../common/enums';
import { newCuid } from '../../common/ids';
import { AppConfig } from '../../config/config';
import { DATA_SOURCE } from '../../database/database.module';
import { SharedSignals, SIGNAL_TOPICS } from '../../database/shared-signals';
import { withPgTransaction } from '../../database/pg-transaction';
import { ControllerOnlineStateService, type OnlineTransition } from '../../telemetry/controller-online-state.service';
import { type Clock, TELEMETRY_CLOCK } from '../../telemetry/telemetry.config';
import { type CommittedFlush, pgCode, TelemetryWriter } from '../../telemetry/telemetry-writer.service';
import { OutboxSignal } from '../outbox-signal';
import type { TTriggerEventValue, TTriggerRule } from '../rules';
import {
  durationFor,
  type FoldResult,
  foldSamples,
  judgeOffline,
  movesStatus,
  nextExecution,
  type OfflineController,
  type RuleStatus,
  type Sample,
  type SampleValue,
  timerStep,
} from './rule-step';
import { type IndexedTrigger, TriggerIndex, type TriggerRow } from './trigger-index';
import { runningMuteSql } from '../../controllers/device-mute.entity';
import { ownEntry } from '../../common/own-entry';

/** The cached copy of a status row, plus what the engine needs to decide without the database. */
interface CachedStatus extends RuleStatus {
  /** Wall time of the last locked evaluation. */
  evaluated_at: Date | null;
  /** Wall time (clock ms) the progress was last written: quiet triggers write it now and then. */
  persisted_at: number;

}

interface StatusRow {
  trigger_cuid: string;
  trigger_state: 'RELEASED' | 'TRIGGERED';
  state_since: Date | null;
  pending_state: 'RELEASED' | 'TRIGGERED' | null;
  pending_since: Date | null;
  evaluated_until: Date | null;
  evaluated_at: Date | null;
  last_value: SampleValue | object;
  next_execution: Date | null;
}

/** What woke an evaluation: samples (data or DeviceState), the timer, or a controller transition. */
type Wake = { via: 'DATA'; samples: Sample[] } | { via: 'TIMER' } | { via: 'STATE'; samples?: Sample[] };

/** Quiet triggers (nothing changes) write their progress at most this often, in wall time (bounds the replay after a restart). */
const PERSIST_PROGRESS_MS = 60_000;
/** Stored values one trigger re-reads at most per catch-up round (start-up, queue overflow). */
const CATCH_UP_ROWS = 10_000;

const toStatus = (r: StatusRow, now = 0): CachedStatus => ({
  state: r.trigger_state,
  state_since: r.state_since,
  pending_state: r.pending_state,
  pending_since: r.pending_since,
  evaluated_until: r.evaluated_until,
  evaluated_at: r.evaluated_at,
  last_value: scalar(r.last_value),
  persisted_at: now,
});

/** A bundle value as a sample: JSON scalars as they are, anything else as its JSON text. */
export function scalar(v: unknown): SampleValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

/**
 * The trigger engine (docs/alerts.md, "The trigger engine"). Judges active NotificationTriggers
 * - on data: after each ingest flush commits, TelemetryWriter hands the flush's rows to `onFlush`,
 *   which keeps the rows some trigger watches in a bounded queue; a drain loop judges them in
 *   device-time order per trigger, first against a cached copy of the status, and only when a
 *   value could change something under the status row's lock (`SELECT … FOR UPDATE`);
 * - on a timer: due rows of notification_trigger_status (`next_execution <= now`) are claimed with
 *   `FOR UPDATE SKIP LOCKED`, so several instances share them;
 * - on state: DeviceState rows (state rules) and ControllerOnlineState transitions (offline rules).
 * Each evaluation that moves anything writes, in one transaction, its NotificationTriggerLog row,
 * the status row and, on a state change, a PENDING NotificationTriggerEvent; OutboxSignal.kick()
 * follows the commit.
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
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    @Inject(TELEMETRY_CLOCK) private readonly clock: Clock,
    private readonly writer: TelemetryWriter,
    private readonly online: ControllerOnlineStateService,
    private readonly outbox: OutboxSignal,
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
      this.checker = setInterval(() => void this.checkForChanges().catch((e) => this.logger.warn(`trigger check failed: ${(e as Error).message}`)), check * 1000);
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
    const rows = (await this.ds.query(
      `SELECT trigger_cuid, system_cuid, created_at, args FROM notification_trigger WHERE is_active ORDER BY trigger_cuid`,
    )) as TriggerRow[];
    const index = new TriggerIndex(rows);
    if (index.invalid.length) this.logger.warn(`${index.invalid.length} trigger(s) with args that do not parse are not evaluated: ${index.invalid.slice(0, 5).join(', ')}`);
    const statuses = (await this.ds.query(
      `SELECT s.* FROM notification_trigger_status s JOIN notification_trigger t ON t.trigger_cuid = s.trigger_cuid WHERE t.is_active`,
    )) as StatusRow[];
    const known = new Set(statuses.map((s) => s.trigger_cuid));
    const missing = [...index.triggers.values()].filter((t) => !known.has(t.trigger_cuid));
    if (missing.length) {
      // A new trigger: timer rules are looked at by the timer (no_data counts from its creation, offline judges now).
      const now = this.clock.now();
      const next = missing.map((t) => (t.rule.kind === 'no_data' ? new Date(now.getTime() + t.rule.after_seconds * 1000) : t.rule.kind === 'offline' ? now : null));
      const inserted = (await this.ds.query(
        `INSERT INTO notification_trigger_status (trigger_cuid, next_execution, next_execution_trigger)
         SELECT u.id, u.next, u.via::next_execution_trigger FROM unnest($1::varchar[], $2::timestamptz[], $3::text[]) AS u(id, next, via)
         ON CONFLICT (trigger_cuid) DO NOTHING RETURNING *`,
        [missing.map((t) => t.trigger_cuid), next, missing.map((t) => (t.rule.kind === 'no_data' || t.rule.kind === 'offline' ? 'TIMER' : t.rule.kind === 'state' ? 'STATE' : 'DATA'))],
      )) as StatusRow[];
      statuses.push(...inserted);
    }
    const fresh = new Map<string, CachedStatus>();
    const loadedAt = this.clock.now().getTime();
    for (const s of statuses) fresh.set(s.trigger_cuid, toStatus(s, loadedAt));
    this.cache.clear();
    for (const [k, v] of fresh) this.cache.set(k, v);
    this.index = index;
    this.fingerprint = await this.readFingerprint();
  }

  private async readFingerprint(): Promise<string> {
    const [r] = (await this.ds.query(
      `SELECT count(*)::text AS n, COALESCE(sum(hashtext(trigger_cuid || is_active::text || args::text)::bigint), 0)::text AS h FROM notification_trigger`,
    )) as { n: string; h: string }[];
    return `${r.n}:${r.h}`;
  }

  /** Forces the next periodic check to reload. */
  markStale(): void {
    this.fingerprint = '';
  }

  /** Another instance changed triggers: reload. */
  async checkForChanges(): Promise<boolean> {
    if (this.closed) return false;
    const now = await this.readFingerprint();
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
    const locked: [IndexedTrigger, Sample[]][] = [];
    const progress: { t: IndexedTrigger; st: CachedStatus }[] = [];
    const now = this.clock.now().getTime();
    for (const [id, samples] of batch) {
      const t = this.index.triggers.get(id);
      if (!t) continue;
      const cached = this.cache.get(id);
      if (!cached) {
        // Not known here (dropped by another instance's change, or new): judged on the stored row.
        locked.push([t, samples]);
        continue;
      }
      const r = foldSamples(t.rule, cached, samples);
      if (!r.judged) continue;
      if (movesStatus(cached, r)) {
        locked.push([t, samples]);
        continue;
      }
      const st: CachedStatus = { ...cached, ...r.next };
      this.cache.set(id, st);
      if (this.progressDue(t, st, now)) progress.push({ t, st });
    }
    const refused = await this.writeProgress(progress, now);
    for (const t of refused) locked.push([t, batch.get(t.trigger_cuid) ?? []]);
    let events = 0;
    for (const [t, samples] of locked) events += await this.evaluate(t, { via: 'DATA', samples });
    if (events) this.outbox.kick();
  }

  /**
   * Whether a quiet trigger writes its progress now: once a minute of wall time (a no_data rule's
   * stored deadline may lag meanwhile: the timer checks the latest stored value before firing).
   */
  private progressDue(_t: IndexedTrigger, st: CachedStatus, now: number): boolean {
    return this.confirmQuiet || now - st.persisted_at >= PERSIST_PROGRESS_MS;
  }

  /**
   * Quiet triggers: one statement for all, moving evaluated_until (and a no_data rule's
   * next_execution) forward only if the row is still as the cache says (same state since the same
   * time, nothing pending, not judged further; no_data: RELEASED). The others (another instance
   * moved them meanwhile) are answered back and judged under lock. The UPDATE waits for a
   * concurrent evaluation's row lock and then checks the committed row, so a stale cache can never
   * skip a transition.
   */
  private async writeProgress(items: { t: IndexedTrigger; st: CachedStatus }[], now: number): Promise<IndexedTrigger[]> {
    if (!items.length) return [];
    items.sort((a, b) => (a.t.trigger_cuid < b.t.trigger_cuid ? -1 : 1));
    const rows = (await this.ds.query(
      `UPDATE notification_trigger_status s
          SET evaluated_until = u.until, last_value = u.v::jsonb, evaluated_at = $6,
              next_execution = CASE WHEN u.no_data THEN u.next ELSE s.next_execution END,
              next_execution_trigger = CASE WHEN u.no_data THEN 'TIMER'::next_execution_trigger ELSE s.next_execution_trigger END
         FROM unnest($1::varchar[], $2::timestamptz[], $3::text[], $4::timestamptz[], $5::bool[], $7::text[], $8::timestamptz[]) AS u(id, until, v, next, no_data, state, since)
        WHERE s.trigger_cuid = u.id
          AND (s.evaluated_until IS NULL OR s.evaluated_until < u.until)
          AND s.trigger_state::text = u.state AND s.state_since IS NOT DISTINCT FROM u.since
          AND s.pending_state IS NULL AND (NOT u.no_data OR s.trigger_state = 'RELEASED')
        RETURNING s.trigger_cuid`,
      [
        items.map((i) => i.t.trigger_cuid),
        items.map((i) => i.st.evaluated_until),
        items.map((i) => JSON.stringify(i.st.last_value)),
        items.map((i) => nextExecution(i.t.rule, i.st, i.t.created_at)),
        items.map((i) => i.t.rule.kind === 'no_data'),
        new Date(now),
        items.map((i) => i.st.state),
        items.map((i) => i.st.state_since),
      ],
    )) as { trigger_cuid: string }[];
    const done = new Set(rows.map((r) => r.trigger_cuid));
    const refused: IndexedTrigger[] = [];
    for (const i of items) {
      if (done.has(i.t.trigger_cuid)) {
        i.st.persisted_at = now;
        i.st.evaluated_at = new Date(now);
      }
      else refused.push(i.t);
    }
    return refused;
  }

  /** Values stored but not judged (start-up after a crash or restart, queue overflow): read back per trigger, in order. */
  private async readBack(ids: string[]): Promise<void> {
    const triggers = ids.map((id) => this.index.triggers.get(id)).filter((t): t is IndexedTrigger => !!t && (t.rule.kind === 'threshold' || t.rule.kind === 'no_data'));
    for (let i = 0; i < triggers.length; i += 500) {
      const chunk = triggers.slice(i, i + 500);
      const rows = (await this.ds.query(
        `SELECT w.id, p."timestamp" AS ts, p.value
           FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) AS w(id, e, p_id)
           JOIN notification_trigger t ON t.trigger_cuid = w.id
           LEFT JOIN notification_trigger_status s ON s.trigger_cuid = w.id
           CROSS JOIN LATERAL (
             SELECT "timestamp", value FROM parameter_log
              WHERE entity_cuid = w.e AND parameter_id = w.p_id AND "timestamp" > COALESCE(s.evaluated_until, t.created_at)
              ORDER BY "timestamp" LIMIT ${CATCH_UP_ROWS}) p
          ORDER BY w.id, p."timestamp"`,
        [
          chunk.map((t) => t.trigger_cuid),
          chunk.map((t) => (t.rule as { entity_cuid: string }).entity_cuid),
          chunk.map((t) => (t.rule as { parameter_id: string }).parameter_id),
        ],
      )) as { id: string; ts: Date; value: number }[];
      const byTrigger = new Map<string, Sample[]>();
      for (const r of rows) {
        const list = byTrigger.get(r.id) ?? [];
        list.push({ ts: new Date(r.ts), value: Number(r.value) });
        byTrigger.set(r.id, list);
      }
      await this.judgeBatch(byTrigger);
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
      const [c] = (await this.ds.query(`SELECT system_cuid FROM controller WHERE controller_id = $1`, [t.controller_id])) as { system_cuid: string | null }[];
      if (!c?.system_cuid) return;
      const rules = (this.index.offlineBySystem.get(c.system_cuid) ?? []).filter((r) => r.rule.kind === 'offline' && (!r.rule.controller_id || r.rule.controller_id === t.controller_id));
      let events = 0;
      for (const r of rules) events += await this.evaluate(r, { via: 'STATE' });
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
    const claimed = await withPgTransaction(this.ds, async (c) => {
      const { rows } = await c.query<StatusRow>(
        `SELECT st.* FROM notification_trigger_status st JOIN notification_trigger t ON t.trigger_cuid = st.trigger_cuid
          WHERE st.next_execution <= $1 ORDER BY st.next_execution LIMIT $2
          FOR UPDATE OF st SKIP LOCKED FOR KEY SHARE OF t SKIP LOCKED`,
        [now, this.config.ALERTS_TIMER_BATCH],
      );
      for (const row of rows) {
        const t = this.index.triggers.get(row.trigger_cuid);
        if (!t) {
          // Inactive, deleted meanwhile, or args that no longer parse: nothing to wait for.
          await c.query(`UPDATE notification_trigger_status SET next_execution = NULL WHERE trigger_cuid = $1`, [row.trigger_cuid]);
          continue;
        }
        events += await this.judgeLocked(c, t, row, { via: 'TIMER' }, now);
      }
      return rows.length;
    });
    if (events) this.outbox.kick();
    return claimed;
  }

  // ---- one evaluation under lock ----------------------------------------------------------------

  /** Locks the trigger's status row, judges on the true state, writes. Answers the events written. */
  private async evaluate(t: IndexedTrigger, wake: Wake): Promise<number> {
    try {
      return await withPgTransaction(this.ds, async (c) => {
        // The trigger row first (as a delete does): a delete waits for this evaluation and then cascades over what it wrote.
        const { rows: alive } = await c.query(`SELECT 1 FROM notification_trigger WHERE trigger_cuid = $1 AND is_active FOR KEY SHARE`, [t.trigger_cuid]);
        if (!alive.length) return 0;
        await c.query(`INSERT INTO notification_trigger_status (trigger_cuid) VALUES ($1) ON CONFLICT DO NOTHING`, [t.trigger_cuid]);
        const { rows } = await c.query<StatusRow>(`SELECT * FROM notification_trigger_status WHERE trigger_cuid = $1 FOR UPDATE`, [t.trigger_cuid]);
        return this.judgeLocked(c, t, rows[0], wake, this.clock.now());
      });
    } catch (e) {
      this.logger.error(`trigger ${t.trigger_cuid} not evaluated: ${(e as Error).message}`);
      await this.writeFailure(t, e).catch(() => undefined);
      return 0;
    }
  }

  private async judgeLocked(c: PoolClient, t: IndexedTrigger, row: StatusRow, wake: Wake, now: Date): Promise<number> {
    const before = toStatus(row);
    const rule = t.rule;
    let r: FoldResult;
    let next: Date | null;
    let query: Record<string, unknown>;
    if (rule.kind === 'offline') {
      const controllers = await this.controllersOf(c, t, now);
      const judged = judgeOffline(rule, before, controllers, now);
      r = judged;
      next = judged.next_execution;
      query = { rule, controllers: controllers.map((x) => ({ controller_id: x.controller_id, offline_since: x.offline_since?.toISOString() ?? null })), at: now.toISOString() };
    } else if (wake.via === 'TIMER') {
      // A no_data rule that never saw a value counts from when its status was made (its first deadline − after_seconds).
      const since = rule.kind === 'no_data' && row.next_execution && !before.evaluated_until ? new Date(row.next_execution.getTime() - rule.after_seconds * 1000) : t.created_at;
      let judged: RuleStatus = before;
      if (rule.kind === 'no_data') {
        // Quiet progress is written once a minute: the stored values say when the last one came (any instance's).
        const { rows: last } = await c.query<{ ts: Date | null }>(`SELECT max("timestamp") AS ts FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = $2`, [rule.entity_cuid, rule.parameter_id]);
        const cached = this.cache.get(t.trigger_cuid)?.evaluated_until?.getTime() ?? 0;
        const latest = Math.max(last[0]?.ts ? new Date(last[0].ts).getTime() : 0, cached, before.evaluated_until?.getTime() ?? 0);
        if (latest) judged = { ...before, evaluated_until: new Date(latest) };
      }
      r = timerStep(rule, judged, now, since);
      next = nextExecution(rule, r.next, since);
      // A pending duration whose data may only be late (a backfill in several batches): the
      // timer waits until no data has been judged for the duration itself.
      // The same for a no_data rule whose values are a backfill of the past (their deadline is long gone).
      const waited = rule.kind === 'no_data' ? rule.after_seconds : before.pending_state ? durationFor(rule, before.pending_state) : 0;
      if (r.changes.length && before.evaluated_at && waited > 0) {
        const quietUntil = before.evaluated_at.getTime() + waited * 1000;
        if (now.getTime() < quietUntil) {
          r = { next: before, changes: [], judged: 0 };
          next = new Date(quietUntil);
        }
      }
      query = { rule, timer: now.toISOString(), pending_since: before.pending_since?.toISOString() ?? null, last_value_at: before.evaluated_until?.toISOString() ?? null };
    } else {
      const samples = wake.samples ?? [];
      r = foldSamples(rule, before, samples);
      next = nextExecution(rule, r.next, t.created_at);
      query = {
        rule,
        samples: r.judged,
        from: samples.length ? new Date(Math.min(...samples.map((s) => s.ts.getTime()))).toISOString() : null,
        until: r.next.evaluated_until?.toISOString() ?? null,
        last_value: r.next.last_value,
      };
    }
    const moved = movesStatus(before, r) || (next?.getTime() ?? null) !== (row.next_execution?.getTime() ?? null);
    const progressed = (r.next.evaluated_until?.getTime() ?? 0) !== (before.evaluated_until?.getTime() ?? 0);
    if (!moved && !progressed) {
      this.cache.set(t.trigger_cuid, { ...before });
      return 0;
    }
    const via: NextExecutionTriggerValue = next ? 'TIMER' : rule.kind === 'offline' || rule.kind === 'state' ? 'STATE' : 'DATA';
    const status: TriggerLogProcessingStatusValue = wake.via === 'TIMER' || rule.kind === 'offline' ? 'SUCCESS_NO_DATA' : 'SUCCESS';
    let log: { log_cuid: string; ts: Date } | null = null;
    let muted = false;
    if (movesStatus(before, r)) {
      const meta = r.changes.length ? await this.metaOf(c, t) : null;
      // A muted device (device_mute, docs/control.md "Mutes"): its state rule still logs and moves
      // its status (the alarm list tells the truth) but makes no event, so no toast and no mail.
      // Read only when a state rule changes state: nothing on the hot path.
      muted = rule.kind === 'state' && r.changes.length ? await this.isMuted(c, rule.entity_cuid) : false;
      for (const change of r.changes) {
        log = { log_cuid: newCuid(), ts: change.at };
        await this.insertLog(c, log, t, status, change.state, { ...query, change: { state: change.state, at: change.at.toISOString(), value: change.value }, ...(muted ? { muted: true } : {}) }, next, via);
        if (muted) continue;
        const value: TTriggerEventValue = {
          state: change.state,
          value: change.value,
          threshold: change.threshold,
          parameter: meta!.parameter,
          unit: meta!.unit,
          // Offline rules: the controller(s) that went (or had gone) offline.
          device: rule.kind === 'offline' ? (typeof change.value === 'string' ? change.value : typeof before.last_value === 'string' ? before.last_value : null) : meta!.device,
          system: meta!.system,
          system_cuid: t.system_cuid,
          timezone: meta!.timezone,
          time: change.at.toISOString(),
        };
        await c.query(
          `INSERT INTO notification_trigger_event (event_cuid, "timestamp", log_cuid, value, trigger_cuid, status) VALUES ($1, $2, $3, $4::jsonb, $5, 'PENDING')`,
          [newCuid(), change.at, log.log_cuid, JSON.stringify(value), t.trigger_cuid],
        );
      }
      if (!r.changes.length) {
        log = { log_cuid: newCuid(), ts: r.next.evaluated_until ?? now };
        await this.insertLog(c, log, t, status, r.next.state, { ...query, pending: r.next.pending_state, pending_since: r.next.pending_since?.toISOString() ?? null }, next, via);
      }
    }
    await c.query(
      `UPDATE notification_trigger_status SET trigger_state = $2, state_since = $3, processing_status = COALESCE($4, processing_status),
              log_cuid = COALESCE($5, log_cuid), log_timestamp = COALESCE($6, log_timestamp), evaluated_at = $7, evaluated_until = $8,
              pending_state = $9, pending_since = $10, last_value = $11::jsonb, next_execution = $12, next_execution_trigger = $13
        WHERE trigger_cuid = $1`,
      [
        t.trigger_cuid,
        r.next.state,
        r.next.state_since,
        log ? status : null,
        log?.log_cuid ?? null,
        log?.ts ?? null,
        log ? now : row.evaluated_at,
        r.next.evaluated_until,
        r.next.pending_state,
        r.next.pending_since,
        JSON.stringify(r.next.last_value),
        next,
        via,
      ],
    );
    // The other instances drop their copy when this commits (this one's handler runs now, before the set below).
    if (movesStatus(before, r)) await this.signals?.publishIn(c, SIGNAL_TOPICS.triggerStatus, t.trigger_cuid);
    this.cache.set(t.trigger_cuid, { ...r.next, evaluated_at: log ? now : row.evaluated_at, persisted_at: now.getTime() });
    return muted ? 0 : r.changes.length;
  }

  private async insertLog(
    c: PoolClient,
    log: { log_cuid: string; ts: Date },
    t: IndexedTrigger,
    status: TriggerLogProcessingStatusValue,
    state: 'RELEASED' | 'TRIGGERED',
    query: Record<string, unknown>,
    next: Date | null,
    via: NextExecutionTriggerValue,
  ): Promise<void> {
    await c.query(
      `INSERT INTO notification_trigger_log (log_cuid, "timestamp", trigger_cuid, processing_status, trigger_state, query, next_execution, next_execution_trigger)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
      [log.log_cuid, log.ts, t.trigger_cuid, status, state, JSON.stringify(query), next, via],
    );
  }

  /** An evaluation that failed: a PROCESSING_ERROR log row (state unchanged), so the trigger's page says so. */
  private async writeFailure(t: IndexedTrigger, error: unknown): Promise<void> {
    await withPgTransaction(this.ds, async (c) => {
      const { rows } = await c.query<{ trigger_state: 'RELEASED' | 'TRIGGERED' }>(`SELECT trigger_state FROM notification_trigger_status WHERE trigger_cuid = $1`, [t.trigger_cuid]);
      const log = { log_cuid: newCuid(), ts: this.clock.now() };
      await this.insertLog(c, log, t, 'PROCESSING_ERROR', rows[0]?.trigger_state ?? 'RELEASED', { rule: t.rule, error: String((error as Error)?.message ?? error).slice(0, 500) }, null, 'DATA');
      await c.query(`UPDATE notification_trigger_status SET processing_status = 'PROCESSING_ERROR', log_cuid = $2, log_timestamp = $3 WHERE trigger_cuid = $1`, [t.trigger_cuid, log.log_cuid, log.ts]);
    });
  }

  /** A running mute of the device (started, not ended, not past its end) at the database's time. */
  private async isMuted(c: PoolClient, entity_cuid: string): Promise<boolean> {
    const { rows } = await c.query(
      `SELECT 1 FROM device_mute m WHERE m.entity_cuid = $1 AND ${runningMuteSql('m')} LIMIT 1`,
      [entity_cuid],
    );
    return rows.length > 0;
  }

  /** Names an event shows: device, parameter description and unit, system name and timezone. */
  private async metaOf(c: PoolClient, t: IndexedTrigger): Promise<{ device: string | null; parameter: string | null; unit: string | null; system: string; timezone: string }> {
    const rule: TTriggerRule = t.rule;
    const entity = 'entity_cuid' in rule ? rule.entity_cuid : null;
    const parameter = 'parameter_id' in rule ? rule.parameter_id : null;
    const { rows } = await c.query<{ system: string; timezone: string; device: string | null; description: string | null; unit: string | null }>(
      `SELECT s.name AS system, s.timezone, e.name AS device, lp.description, u.unit
         FROM system s
         LEFT JOIN entity e ON e.entity_cuid = $2
         LEFT JOIN log_parameter lp ON lp.parameter_id = $3
         LEFT JOIN unit u ON u.unit_cuid = lp.unit_cuid
        WHERE s.system_cuid = $1`,
      [t.system_cuid, entity, parameter],
    );
    const m = rows[0];
    return {
      system: m?.system ?? '',
      timezone: m?.timezone ?? 'UTC',
      device: m?.device ?? null,
      parameter: rule.kind === 'state' ? rule.key : parameter ? (m?.description ?? parameter) : null,
      unit: parameter ? (m?.unit ?? null) : null,
    };
  }

  /** The controllers an offline rule looks at, with the time each went OFFLINE (null when it is not). */
  private async controllersOf(c: PoolClient, t: IndexedTrigger, now: Date): Promise<OfflineController[]> {
    const rule = t.rule as Extract<TTriggerRule, { kind: 'offline' }>;
    const { rows } = await c.query<{ controller_id: string; name: string; online_state: string | null; offline_since: Date | null }>(
      `SELECT c.controller_id, c.name, s.online_state::text AS online_state,
              (SELECT max(h."timestamp") FROM controller_online_state_history h WHERE h.controller_id = c.controller_id AND h.online_state = 'OFFLINE') AS offline_since
         FROM controller c
         LEFT JOIN controller_online_state s ON s.controller_id = c.controller_id
        WHERE c.system_cuid = $1 AND ($2::varchar IS NULL OR c.controller_id = $2)`,
      [t.system_cuid, rule.controller_id ?? null],
    );
    return rows.map((r) => ({ controller_id: r.controller_id, name: r.name, offline_since: r.online_state === 'OFFLINE' ? (r.offline_since ?? now) : null }));
  }
}
