import type { TNoDataRule, TStateRule, TThresholdRule, TTriggerRule } from '../../../../shared/alerts/rules';

/**
 * The trigger engine's judgement, pure (no database, no clock): how a trigger's state moves with
 * the samples of its device (data, in device-time order) and with time passing (the timer).
 * The engine runs it twice: once on a cached copy of the status to see whether a batch could
 * change anything at all (quiet-batch.ts), and again under the status row's lock on the true state
 * before writing (alert-engine.service.ts).
 */

export type TriggerStateName = 'RELEASED' | 'TRIGGERED';
export type SampleValue = number | string | boolean | null;

/** What the engine knows about a trigger between two evaluations (a copy of notification_trigger_status). */
export interface RuleStatus {
  state: TriggerStateName;
  /** Device time of the last change. */
  state_since: Date | null;
  pending_state: TriggerStateName | null;
  /** Device time the pending duration started. */
  pending_since: Date | null;
  /** Device time of the newest sample judged (older ones are ignored). */
  evaluated_until: Date | null;
  last_value: SampleValue;
}

export interface Sample {
  ts: Date;
  value: SampleValue;
}

/** A state change, at the device time it happened. */
export interface RuleChange {
  state: TriggerStateName;
  at: Date;
  /** The value that caused it (null for no_data / the timer). */
  value: SampleValue;
  /** What it was compared with (the trigger or release value, the duration of a no_data rule …). */
  threshold: SampleValue;
}

export interface FoldResult {
  next: RuleStatus;
  changes: RuleChange[];
  /** Samples judged (not older than evaluated_until). */
  judged: number;
}

export const initialStatus = (): RuleStatus => ({
  state: 'RELEASED',
  state_since: null,
  pending_state: null,
  pending_since: null,
  evaluated_until: null,
  last_value: null,
});

/** Seconds a rule waits before moving to `state`. */
export function durationFor(rule: TTriggerRule, state: TriggerStateName): number {
  switch (rule.kind) {
    case 'threshold':
      return state === 'TRIGGERED' ? rule.for_seconds : rule.release_for_seconds;
    case 'state':
      return state === 'TRIGGERED' ? rule.for_seconds : 0;
    case 'offline':
      return state === 'TRIGGERED' ? rule.after_seconds : 0;
    case 'no_data':
      return 0;
  }
}

/**
 * The state a sample asks for: TRIGGERED (strictly beyond `value`), RELEASED (strictly beyond
 * `release_value` on the other side, default `value`), or null in between (hysteresis: keep).
 */
export function thresholdWants(rule: TThresholdRule, v: SampleValue): TriggerStateName | null {
  if (typeof v !== 'number' || !Number.isFinite(v)) return null;
  const release = rule.release_value ?? rule.value;
  if (rule.op === 'above') return v > rule.value ? 'TRIGGERED' : v < release ? 'RELEASED' : null;
  return v < rule.value ? 'TRIGGERED' : v > release ? 'RELEASED' : null;
}

/** A state rule: TRIGGERED while the bundle key equals (differs from) the value. Text compares exactly. */
export function stateWants(rule: TStateRule, v: SampleValue | undefined): TriggerStateName {
  const same = (v === undefined ? null : v) === rule.value;
  return (rule.op === 'equals' ? same : !same) ? 'TRIGGERED' : 'RELEASED';
}

const thresholdOf = (rule: TTriggerRule, state: TriggerStateName): SampleValue => {
  switch (rule.kind) {
    case 'threshold':
      return state === 'TRIGGERED' ? rule.value : (rule.release_value ?? rule.value);
    case 'state':
      return rule.value;
    case 'no_data':
    case 'offline':
      return rule.after_seconds;
  }
};

const plus = (d: Date, seconds: number): Date => new Date(d.getTime() + seconds * 1000);

/** Moves `st` to `state` at `at` (clearing any pending duration). */
function change(rule: TTriggerRule, st: RuleStatus, state: TriggerStateName, at: Date, value: SampleValue, changes: RuleChange[]): void {
  st.state = state;
  st.state_since = at;
  st.pending_state = null;
  st.pending_since = null;
  changes.push({ state, at, value, threshold: thresholdOf(rule, state) });
}

/** One sample asking for `wants` (null: neither side) at `ts`. */
function applyWish(rule: TTriggerRule, st: RuleStatus, wants: TriggerStateName | null, s: Sample, changes: RuleChange[]): void {
  if (wants === null || wants === st.state) {
    // Back on the current side (or in the hysteresis band): a running duration is broken.
    st.pending_state = null;
    st.pending_since = null;
    return;
  }
  const seconds = durationFor(rule, wants);
  if (seconds === 0) return change(rule, st, wants, s.ts, s.value, changes);
  if (st.pending_state === wants && st.pending_since) {
    const due = plus(st.pending_since, seconds);
    // The condition held from pending_since up to this sample: the change happened when the duration was complete.
    if (s.ts.getTime() >= due.getTime()) change(rule, st, wants, due, s.value, changes);
    return;
  }
  st.pending_state = wants;
  st.pending_since = s.ts;
}

/** A no_data rule and one sample: a gap longer than after_seconds was an outage of data (fired, then released). */
function applyNoData(rule: TNoDataRule, st: RuleStatus, s: Sample, changes: RuleChange[]): void {
  if (st.state === 'RELEASED' && st.evaluated_until && s.ts.getTime() - st.evaluated_until.getTime() > rule.after_seconds * 1000) {
    change(rule, st, 'TRIGGERED', plus(st.evaluated_until, rule.after_seconds), null, changes);
  }
  if (st.state === 'TRIGGERED') change(rule, st, 'RELEASED', s.ts, s.value, changes);
}

/**
 * Judges samples of one trigger in device-time order. Samples not newer than `evaluated_until`
 * are ignored (late duplicates, or older values after newer ones were judged): a backfill sent
 * in order gives the history it describes, and never flaps.
 */
export function foldSamples(rule: TTriggerRule, status: RuleStatus, samples: readonly Sample[]): FoldResult {
  const st: RuleStatus = { ...status };
  const changes: RuleChange[] = [];
  const ordered = samples.length > 1 && !isSorted(samples) ? [...samples].sort((a, b) => a.ts.getTime() - b.ts.getTime()) : samples;
  let judged = 0;
  for (const s of ordered) {
    if (st.evaluated_until && s.ts.getTime() <= st.evaluated_until.getTime()) continue;
    judged++;
    if (rule.kind === 'threshold') applyWish(rule, st, thresholdWants(rule, s.value), s, changes);
    else if (rule.kind === 'state') applyWish(rule, st, stateWants(rule, s.value), s, changes);
    else if (rule.kind === 'no_data') applyNoData(rule, st, s, changes);
    st.evaluated_until = s.ts;
    st.last_value = s.value;
  }
  return { next: st, changes, judged };
}

function isSorted(samples: readonly Sample[]): boolean {
  for (let i = 1; i < samples.length; i++) if (samples[i].ts.getTime() < samples[i - 1].ts.getTime()) return false;
  return true;
}

/**
 * Time passing with no new sample (the timer), `now` being the wall clock taken as device time.
 * - a pending duration completes at pending_since + its seconds (the change is dated then);
 * - a no_data rule fires at the last sample (or `since`, when none came yet) + after_seconds.
 * Offline rules are judged from the controllers' states (judgeOffline).
 */
export function timerStep(rule: TTriggerRule, status: RuleStatus, now: Date, since: Date | null): FoldResult {
  const st: RuleStatus = { ...status };
  const changes: RuleChange[] = [];
  if (rule.kind === 'no_data') {
    const from = st.evaluated_until ?? since;
    if (st.state === 'RELEASED' && from && now.getTime() >= plus(from, rule.after_seconds).getTime()) {
      change(rule, st, 'TRIGGERED', plus(from, rule.after_seconds), null, changes);
    }
  } else if (st.pending_state && st.pending_since) {
    const due = plus(st.pending_since, durationFor(rule, st.pending_state));
    if (now.getTime() >= due.getTime()) change(rule, st, st.pending_state, due, st.last_value, changes);
  }
  return { next: st, changes, judged: 0 };
}

/** When the timer must look at the trigger next (null: only data or a state change can move it). */
export function nextExecution(rule: TTriggerRule, st: RuleStatus, since: Date | null): Date | null {
  if (rule.kind === 'no_data') {
    const from = st.evaluated_until ?? since;
    return st.state === 'RELEASED' && from ? plus(from, rule.after_seconds) : null;
  }
  if (st.pending_state && st.pending_since) return plus(st.pending_since, durationFor(rule, st.pending_state));
  return null;
}

export interface OfflineController {
  controller_id: string;
  name: string;
  /** OFFLINE since (device/wall time of the transition), or null when not offline. */
  offline_since: Date | null;
}

/**
 * An offline rule against the controllers it names (one, or every controller of the system):
 * TRIGGERED once one has been OFFLINE for after_seconds, RELEASED when none is OFFLINE any more.
 */
export function judgeOffline(
  rule: Extract<TTriggerRule, { kind: 'offline' }>,
  status: RuleStatus,
  controllers: readonly OfflineController[],
  now: Date,
): FoldResult & { next_execution: Date | null } {
  const st: RuleStatus = { ...status };
  const changes: RuleChange[] = [];
  const offline = controllers.filter((c) => c.offline_since).sort((a, b) => a.offline_since!.getTime() - b.offline_since!.getTime());
  let next_execution: Date | null = null;
  if (!offline.length) {
    st.pending_state = null;
    st.pending_since = null;
    if (st.state === 'TRIGGERED') change(rule, st, 'RELEASED', now, null, changes);
  } else if (st.state === 'RELEASED') {
    const first = offline[0];
    const due = plus(first.offline_since!, rule.after_seconds);
    if (now.getTime() >= due.getTime()) {
      change(rule, st, 'TRIGGERED', due, first.name, changes);
    } else {
      st.pending_state = 'TRIGGERED';
      st.pending_since = first.offline_since;
      next_execution = due;
    }
  }
  st.last_value = offline.length ? offline.map((c) => c.name).join(', ') : null;
  return { next: st, changes, judged: 0, next_execution };
}

/** Did a fold move anything that is stored (state, pending duration)? */
export function movesStatus(before: RuleStatus, after: FoldResult): boolean {
  const a = after.next;
  return (
    after.changes.length > 0 ||
    a.state !== before.state ||
    a.pending_state !== before.pending_state ||
    (a.pending_since?.getTime() ?? null) !== (before.pending_since?.getTime() ?? null)
  );
}
