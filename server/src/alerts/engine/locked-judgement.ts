import type { NextExecutionTriggerValue, TriggerLogProcessingStatusValue } from '../../../../shared/common/enums';
import type { TTriggerEventValue, TTriggerRule } from '../../../../shared/alerts/rules';
import type { StatusRow } from './alert-engine.repository';
import {
  durationFor,
  type FoldResult,
  foldSamples,
  judgeOffline,
  nextExecution,
  type OfflineController,
  type RuleChange,
  type RuleStatus,
  type Sample,
  type SampleValue,
  timerStep,
} from './rule-step';
import type { ControllerStateRow, TriggerNamesRow } from './trigger-evaluation.repository';

/**
 * The rules of one evaluation under lock, pure (no database, no clock): what the status becomes,
 * when the timer looks again, what the log row says and what an event carries. The service
 * (alert-engine.service.ts) reads what they need and writes what they answer.
 */

/** The cached copy of a status row, plus what the engine needs to decide without the database. */
export interface CachedStatus extends RuleStatus {
  /** Wall time of the last locked evaluation. */
  evaluated_at: Date | null;
  /** Wall time (clock ms) the progress was last written: quiet triggers write it now and then. */
  persisted_at: number;
}

/** What woke an evaluation: samples (data or DeviceState), the timer, or a controller transition. */
export type Wake = { via: 'DATA'; samples: Sample[] } | { via: 'TIMER' } | { via: 'STATE'; samples?: Sample[] };

/** The outcome of one evaluation before it is written: the fold, the next timer, and the log's `query`. */
export interface Judgement {
  r: FoldResult;
  next: Date | null;
  query: Record<string, unknown>;
}

/** Names an event shows. */
export interface EventNames {
  device: string | null;
  parameter: string | null;
  unit: string | null;
  system: string;
  timezone: string;
}

/** A bundle value as a sample: JSON scalars as they are, anything else as its JSON text. */
export function scalar(v: unknown): SampleValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

export const toStatus = (r: StatusRow, now = 0): CachedStatus => ({
  state: r.trigger_state,
  state_since: r.state_since,
  pending_state: r.pending_state,
  pending_since: r.pending_since,
  evaluated_until: r.evaluated_until,
  evaluated_at: r.evaluated_at,
  last_value: scalar(r.last_value),
  persisted_at: now,
});

/** A new trigger's status: timer rules are looked at by the timer (no_data counts from its creation, offline judges now). */
export function initialSchedule(rule: TTriggerRule, now: Date): { next_execution: Date | null; via: NextExecutionTriggerValue } {
  const next_execution = rule.kind === 'no_data' ? new Date(now.getTime() + rule.after_seconds * 1000) : rule.kind === 'offline' ? now : null;
  const via: NextExecutionTriggerValue = rule.kind === 'no_data' || rule.kind === 'offline' ? 'TIMER' : rule.kind === 'state' ? 'STATE' : 'DATA';
  return { next_execution, via };
}

/** The controllers an offline rule looks at, with the time each went OFFLINE (null when it is not). */
export function offlineControllers(rows: readonly ControllerStateRow[], now: Date): OfflineController[] {
  return rows.map((r) => ({ controller_id: r.controller_id, name: r.name, offline_since: r.online_state === 'OFFLINE' ? (r.offline_since ?? now) : null }));
}

/** An offline rule, woken by anything: judged on its controllers now. */
export function judgeOfflineWake(
  rule: Extract<TTriggerRule, { kind: 'offline' }>,
  before: RuleStatus,
  controllers: readonly OfflineController[],
  now: Date,
): Judgement {
  const judged = judgeOffline(rule, before, controllers, now);
  return {
    r: judged,
    next: judged.next_execution,
    query: {
      rule,
      controllers: controllers.map((x) => ({ controller_id: x.controller_id, offline_since: x.offline_since?.toISOString() ?? null })),
      at: now.toISOString(),
    },
  };
}

/**
 * The timer. A no_data rule that never saw a value counts from when its status was made (its first
 * deadline − after_seconds); it judges from the latest value known (`lastStored`: the stored values,
 * any instance's; `cachedUntil`: this instance's copy), since quiet progress is written once a minute.
 */
export function judgeTimerWake(
  rule: TTriggerRule,
  before: CachedStatus,
  row: Pick<StatusRow, 'next_execution'>,
  created_at: Date,
  now: Date,
  lastStored: Date | null,
  cachedUntil: Date | null | undefined,
): Judgement {
  const since =
    rule.kind === 'no_data' && row.next_execution && !before.evaluated_until ? new Date(row.next_execution.getTime() - rule.after_seconds * 1000) : created_at;
  let judged: RuleStatus = before;
  if (rule.kind === 'no_data') {
    const latest = Math.max(lastStored?.getTime() ?? 0, cachedUntil?.getTime() ?? 0, before.evaluated_until?.getTime() ?? 0);
    if (latest) judged = { ...before, evaluated_until: new Date(latest) };
  }
  let r = timerStep(rule, judged, now, since);
  let next = nextExecution(rule, r.next, since);
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
  return {
    r,
    next,
    query: {
      rule,
      timer: now.toISOString(),
      pending_since: before.pending_since?.toISOString() ?? null,
      last_value_at: before.evaluated_until?.toISOString() ?? null,
    },
  };
}

/** Samples (data, DeviceState): folded in device-time order. */
export function judgeSamples(rule: TTriggerRule, before: RuleStatus, samples: readonly Sample[], created_at: Date): Judgement {
  const r = foldSamples(rule, before, samples);
  return {
    r,
    next: nextExecution(rule, r.next, created_at),
    query: {
      rule,
      samples: r.judged,
      from: samples.length ? new Date(Math.min(...samples.map((s) => s.ts.getTime()))).toISOString() : null,
      until: r.next.evaluated_until?.toISOString() ?? null,
      last_value: r.next.last_value,
    },
  };
}

/** What will wake the trigger next: the timer when it has a deadline, else its kind's source. */
export function nextVia(rule: TTriggerRule, next: Date | null): NextExecutionTriggerValue {
  return next ? 'TIMER' : rule.kind === 'offline' || rule.kind === 'state' ? 'STATE' : 'DATA';
}

/** The log row's processing status: a timer or offline judgement had no new data. */
export function logStatusOf(rule: TTriggerRule, wake: Wake): TriggerLogProcessingStatusValue {
  return wake.via === 'TIMER' || rule.kind === 'offline' ? 'SUCCESS_NO_DATA' : 'SUCCESS';
}

/** The device and parameter whose names an event shows. */
export function namedKeys(rule: TTriggerRule): { entity_cuid: string | null; parameter_id: string | null } {
  return { entity_cuid: 'entity_cuid' in rule ? rule.entity_cuid : null, parameter_id: 'parameter_id' in rule ? rule.parameter_id : null };
}

/** The names as an event shows them (a state rule names its key; a missing parameter its id). */
export function eventNames(rule: TTriggerRule, row: TriggerNamesRow | undefined): EventNames {
  const { parameter_id } = namedKeys(rule);
  return {
    system: row?.system ?? '',
    timezone: row?.timezone ?? 'UTC',
    device: row?.device ?? null,
    parameter: rule.kind === 'state' ? rule.key : parameter_id ? (row?.description ?? parameter_id) : null,
    unit: parameter_id ? (row?.unit ?? null) : null,
  };
}

/** The event of a state change (offline rules: the controller(s) that went, or had gone, offline). */
export function eventValue(rule: TTriggerRule, change: RuleChange, before: RuleStatus, names: EventNames, system_cuid: string): TTriggerEventValue {
  return {
    state: change.state,
    value: change.value,
    threshold: change.threshold,
    parameter: names.parameter,
    unit: names.unit,
    device:
      rule.kind === 'offline'
        ? typeof change.value === 'string'
          ? change.value
          : typeof before.last_value === 'string'
            ? before.last_value
            : null
        : names.device,
    system: names.system,
    system_cuid,
    timezone: names.timezone,
    time: change.at.toISOString(),
  };
}
