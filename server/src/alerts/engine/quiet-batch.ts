import type { QuietProgress } from './alert-engine.repository';
import type { CachedStatus } from './locked-judgement';
import { foldSamples, movesStatus, nextExecution, type Sample } from './rule-step';
import type { IndexedTrigger, TriggerIndex } from './trigger-index';

/**
 * Which queued samples need the database under lock, decided on the cached statuses (pure: the
 * cache is the caller's). A value that could move a trigger, or a trigger not cached here, is judged
 * under lock; a quiet one only moves its cached copy forward and, now and then, its stored progress.
 */

/** Quiet triggers (nothing changes) write their progress at most this often, in wall time (bounds the replay after a restart). */
export const PERSIST_PROGRESS_MS = 60_000;

export interface SortedBatch {
  /** Judged under the status row's lock. */
  locked: [IndexedTrigger, Sample[]][];
  /** Quiet triggers whose progress is written now (conditionally: refused ones go under lock). */
  progress: { t: IndexedTrigger; st: CachedStatus }[];
}

/**
 * Folds each trigger's samples on its cached status. The cache is updated for quiet triggers;
 * `confirmQuiet` (several instances: the cache may be stale) writes every quiet batch's progress,
 * else once a minute of wall time (a no_data rule's stored deadline may lag meanwhile: the timer
 * checks the latest stored value before firing).
 */
export function sortBatch(
  batch: ReadonlyMap<string, Sample[]>,
  index: TriggerIndex,
  cache: Map<string, CachedStatus>,
  now: number,
  confirmQuiet: boolean,
): SortedBatch {
  const out: SortedBatch = { locked: [], progress: [] };
  for (const [id, samples] of batch) {
    const t = index.triggers.get(id);
    if (!t) continue;
    const cached = cache.get(id);
    if (!cached) {
      // Not known here (dropped by another instance's change, or new): judged on the stored row.
      out.locked.push([t, samples]);
      continue;
    }
    const r = foldSamples(t.rule, cached, samples);
    if (!r.judged) continue;
    if (movesStatus(cached, r)) {
      out.locked.push([t, samples]);
      continue;
    }
    const st: CachedStatus = { ...cached, ...r.next };
    cache.set(id, st);
    if (confirmQuiet || now - st.persisted_at >= PERSIST_PROGRESS_MS) out.progress.push({ t, st });
  }
  return out;
}

/** A quiet trigger's progress as the conditional write takes it. */
export function quietProgress({ t, st }: { t: IndexedTrigger; st: CachedStatus }): QuietProgress {
  return {
    trigger_cuid: t.trigger_cuid,
    evaluated_until: st.evaluated_until,
    last_value: st.last_value,
    next_execution: nextExecution(t.rule, st, t.created_at),
    no_data: t.rule.kind === 'no_data',
    state: st.state,
    state_since: st.state_since,
  };
}
