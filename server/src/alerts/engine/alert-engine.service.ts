import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { newCuid } from '../../common/ids';
import { SharedSignals, SIGNAL_TOPICS } from '../../database/shared-signals';
import { type Clock, TELEMETRY_CLOCK } from '../../telemetry/telemetry.config';
import { type AlertEngineRepository, SqlAlertEngineRepository, type StatusRow } from './alert-engine.repository';
import { ALERT_ENGINE_JOB as JOB } from './job-identity';
import {
  type CachedStatus,
  eventNames,
  eventValue,
  initialSchedule,
  type Judgement,
  judgeOfflineWake,
  judgeSamples,
  judgeTimerWake,
  logStatusOf,
  namedKeys,
  nextVia,
  offlineControllers,
  toStatus,
  type Wake,
} from './locked-judgement';
import { quietProgress } from './quiet-batch';
import { movesStatus, type Sample } from './rule-step';
import { SqlTriggerEvaluationRepository, type TriggerEvaluationRepository } from './trigger-evaluation.repository';
import { type IndexedTrigger, TriggerIndex } from './trigger-index';

/** The engine's cached statuses, owned by the worker (AlertEngine) and lent to each call. */
export type StatusCache = Map<string, CachedStatus>;

/**
 * The trigger engine's work on the database (docs/alerts.md, "The trigger engine"): loading the
 * index, one evaluation under the status row's lock, the quiet triggers' conditional progress,
 * stored values read back, and which offline rules a controller's transition wakes. The rules are
 * pure (rule-step.ts, locked-judgement.ts, quiet-batch.ts), the SQL in the repositories, the loops
 * and timers in the worker (alert-engine.worker.ts). Each evaluation that moves anything writes, in
 * one transaction, its NotificationTriggerLog row, the status row and, on a state change, a PENDING
 * NotificationTriggerEvent; the worker kicks the outbox after the commit.
 */
@Injectable()
export class AlertEngineService {
  private readonly logger = new Logger('AlertEngine');

  constructor(
    @Inject(SqlAlertEngineRepository) private readonly rows: AlertEngineRepository,
    @Inject(SqlTriggerEvaluationRepository) private readonly evaluations: TriggerEvaluationRepository,
    @Inject(TELEMETRY_CLOCK) private readonly clock: Clock,
    @Optional() private readonly signals?: SharedSignals,
  ) {}

  /** The active triggers indexed, with their statuses (new triggers get theirs now). */
  async load(): Promise<{ index: TriggerIndex; statuses: StatusCache }> {
    const index = new TriggerIndex(await this.rows.activeTriggers(JOB));
    if (index.invalid.length)
      this.logger.warn(`${index.invalid.length} trigger(s) with args that do not parse are not evaluated: ${index.invalid.slice(0, 5).join(', ')}`);
    const statuses = await this.rows.activeStatuses(JOB);
    const known = new Set(statuses.map((s) => s.trigger_cuid));
    const missing = [...index.triggers.values()].filter((t) => !known.has(t.trigger_cuid));
    if (missing.length) {
      const now = this.clock.now();
      statuses.push(
        ...(await this.rows.insertStatuses(
          JOB,
          missing.map((t) => ({ trigger_cuid: t.trigger_cuid, ...initialSchedule(t.rule, now) })),
        )),
      );
    }
    const fresh: StatusCache = new Map();
    const loadedAt = this.clock.now().getTime();
    for (const s of statuses) fresh.set(s.trigger_cuid, toStatus(s, loadedAt));
    return { index, statuses: fresh };
  }

  /** What changes when any trigger is written (a reload is due when it differs). */
  fingerprint(): Promise<string> {
    return this.rows.fingerprint(JOB);
  }

  /** Locks the trigger's status row, judges on the true state, writes. Answers the events written. */
  async evaluate(cache: StatusCache, t: IndexedTrigger, wake: Wake): Promise<number> {
    try {
      return await this.rows.transaction(JOB, async (c) => {
        // The trigger row first (as a delete does): a delete waits for this evaluation and then cascades over what it wrote.
        if (!(await this.evaluations.lockActiveTrigger(JOB, c, t.trigger_cuid))) return 0;
        const row = await this.evaluations.lockStatus(JOB, c, t.trigger_cuid);
        return this.judgeLocked(cache, c, t, row, wake, this.clock.now());
      });
    } catch (e) {
      this.logger.error(`trigger ${t.trigger_cuid} not evaluated: ${(e as Error).message}`);
      await this.writeFailure(t, e).catch(() => undefined);
      return 0;
    }
  }

  /** Judges a status row locked by the caller's transaction `c` (an evaluation, or the timer's claim). Answers the events written. */
  async judgeLocked(cache: StatusCache, c: PoolClient, t: IndexedTrigger, row: StatusRow, wake: Wake, now: Date): Promise<number> {
    const before = toStatus(row);
    const rule = t.rule;
    let judged: Judgement;
    if (rule.kind === 'offline') {
      const controllers = offlineControllers(await this.evaluations.controllersOf(JOB, c, t.system_cuid, rule.controller_id ?? null), now);
      judged = judgeOfflineWake(rule, before, controllers, now);
    } else if (wake.via === 'TIMER') {
      const lastStored = rule.kind === 'no_data' ? await this.evaluations.lastStoredAt(JOB, c, rule.entity_cuid, rule.parameter_id) : null;
      judged = judgeTimerWake(rule, before, row, t.created_at, now, lastStored, rule.kind === 'no_data' ? cache.get(t.trigger_cuid)?.evaluated_until : null);
    } else {
      judged = judgeSamples(rule, before, wake.samples ?? [], t.created_at);
    }
    const { r, next, query } = judged;
    const moved = movesStatus(before, r) || (next?.getTime() ?? null) !== (row.next_execution?.getTime() ?? null);
    const progressed = (r.next.evaluated_until?.getTime() ?? 0) !== (before.evaluated_until?.getTime() ?? 0);
    if (!moved && !progressed) {
      cache.set(t.trigger_cuid, { ...before });
      return 0;
    }
    const via = nextVia(rule, next);
    const status = logStatusOf(rule, wake);
    const logRow = (l: { log_cuid: string; ts: Date }, state: 'RELEASED' | 'TRIGGERED', q: Record<string, unknown>) =>
      ({ ...l, trigger_cuid: t.trigger_cuid, processing_status: status, trigger_state: state, query: q, next_execution: next, via }) as const;
    let log: { log_cuid: string; ts: Date } | null = null;
    let muted = false;
    if (movesStatus(before, r)) {
      const keys = namedKeys(rule);
      const names = r.changes.length ? eventNames(rule, await this.evaluations.namesOf(JOB, c, t.system_cuid, keys.entity_cuid, keys.parameter_id)) : null;
      // A muted device (device_mute, docs/control.md "Mutes"): its state rule still logs and moves
      // its status (the alarm list tells the truth) but makes no event, so no toast and no mail.
      // Read only when a state rule changes state: nothing on the hot path.
      muted = rule.kind === 'state' && r.changes.length ? await this.evaluations.deviceMuted(JOB, c, rule.entity_cuid) : false;
      for (const change of r.changes) {
        log = { log_cuid: newCuid(), ts: change.at };
        await this.evaluations.insertLog(
          JOB,
          c,
          logRow(log, change.state, {
            ...query,
            change: { state: change.state, at: change.at.toISOString(), value: change.value },
            ...(muted ? { muted: true } : {}),
          }),
        );
        if (muted) continue;
        const value = eventValue(rule, change, before, names!, t.system_cuid);
        await this.evaluations.insertEvent(JOB, c, { event_cuid: newCuid(), ts: change.at, log_cuid: log.log_cuid, trigger_cuid: t.trigger_cuid, value });
      }
      if (!r.changes.length) {
        log = { log_cuid: newCuid(), ts: r.next.evaluated_until ?? now };
        await this.evaluations.insertLog(
          JOB,
          c,
          logRow(log, r.next.state, { ...query, pending: r.next.pending_state, pending_since: r.next.pending_since?.toISOString() ?? null }),
        );
      }
    }
    await this.evaluations.writeStatus(JOB, c, {
      trigger_cuid: t.trigger_cuid,
      state: r.next.state,
      state_since: r.next.state_since,
      processing_status: log ? status : null,
      log_cuid: log?.log_cuid ?? null,
      log_timestamp: log?.ts ?? null,
      evaluated_at: log ? now : row.evaluated_at,
      evaluated_until: r.next.evaluated_until,
      pending_state: r.next.pending_state,
      pending_since: r.next.pending_since,
      last_value: r.next.last_value,
      next_execution: next,
      via,
    });
    // The other instances drop their copy when this commits (this one's handler runs now, before the set below).
    if (movesStatus(before, r)) await this.signals?.publishIn(c, SIGNAL_TOPICS.triggerStatus, t.trigger_cuid);
    cache.set(t.trigger_cuid, { ...r.next, evaluated_at: log ? now : row.evaluated_at, persisted_at: now.getTime() });
    return muted ? 0 : r.changes.length;
  }

  /** An evaluation that failed: a PROCESSING_ERROR log row (state unchanged), so the trigger's page says so. */
  private async writeFailure(t: IndexedTrigger, error: unknown): Promise<void> {
    await this.rows.transaction(JOB, async (c) => {
      const state = await this.evaluations.stateOf(JOB, c, t.trigger_cuid);
      const log = { log_cuid: newCuid(), ts: this.clock.now() };
      await this.evaluations.insertLog(JOB, c, {
        ...log,
        trigger_cuid: t.trigger_cuid,
        processing_status: 'PROCESSING_ERROR',
        trigger_state: state ?? 'RELEASED',
        query: { rule: t.rule, error: String((error as Error)?.message ?? error).slice(0, 500) },
        next_execution: null,
        via: 'DATA',
      });
      await this.evaluations.markFailed(JOB, c, t.trigger_cuid, log.log_cuid, log.ts);
    });
  }

  /**
   * Quiet triggers: one statement for all, moving evaluated_until (and a no_data rule's
   * next_execution) forward only if the row is still as the cache says (same state since the same
   * time, nothing pending, not judged further; no_data: RELEASED). The others (another instance
   * moved them meanwhile) are answered back and judged under lock. The UPDATE waits for a
   * concurrent evaluation's row lock and then checks the committed row, so a stale cache can never
   * skip a transition.
   */
  async writeProgress(items: { t: IndexedTrigger; st: CachedStatus }[], now: number): Promise<IndexedTrigger[]> {
    if (!items.length) return [];
    items.sort((a, b) => (a.t.trigger_cuid < b.t.trigger_cuid ? -1 : 1));
    const done = new Set(await this.rows.writeQuietProgress(JOB, items.map(quietProgress), new Date(now)));
    const refused: IndexedTrigger[] = [];
    for (const i of items) {
      if (done.has(i.t.trigger_cuid)) {
        i.st.persisted_at = now;
        i.st.evaluated_at = new Date(now);
      } else refused.push(i.t);
    }
    return refused;
  }

  /** Values stored but not judged, per trigger in device-time order (threshold and no_data triggers; at most `limit` each). */
  async storedSamples(triggers: readonly IndexedTrigger[], limit: number): Promise<Map<string, Sample[]>> {
    const series = triggers.flatMap((t) =>
      t.rule.kind === 'threshold' || t.rule.kind === 'no_data'
        ? [{ trigger_cuid: t.trigger_cuid, entity_cuid: t.rule.entity_cuid, parameter_id: t.rule.parameter_id }]
        : [],
    );
    const byTrigger = new Map<string, Sample[]>();
    for (const r of await this.rows.storedAfter(JOB, series, limit)) {
      const list = byTrigger.get(r.trigger_cuid) ?? [];
      list.push({ ts: r.ts, value: r.value });
      byTrigger.set(r.trigger_cuid, list);
    }
    return byTrigger;
  }

  /** The offline rules a controller's transition wakes: its system's, for every controller or for this one. */
  async offlineRulesFor(index: TriggerIndex, controller_id: string): Promise<IndexedTrigger[]> {
    const system_cuid = await this.rows.systemOfController(JOB, controller_id);
    if (!system_cuid) return [];
    return (index.offlineBySystem.get(system_cuid) ?? []).filter(
      (r) => r.rule.kind === 'offline' && (!r.rule.controller_id || r.rule.controller_id === controller_id),
    );
  }
}
