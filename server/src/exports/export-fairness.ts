import { actingCompany } from '../access/acting-company';
import { type Actor, POLICY } from '../../../shared/access/policy';
import type { AppConfig } from '../config/config';
import type { TExportResolution } from '../../../shared/exports/export-config.schema';

/**
 * The rules of fair, bounded exports (docs/security.md "Budgets and fair shares"), pure so they
 * are unit-tested apart from the worker: what one job may cost, when a new job is refused, and
 * which waiting job the worker takes next (companies in turn, never first come first served).
 */

export interface ExportBudgets {
  userMaxRunning: number;
  userMaxQueued: number;
  companyMaxRunning: number;
  companyMaxQueued: number;
}

/** The budgets from the settings. */
export const exportBudgets = (
  c: Pick<AppConfig, 'EXPORT_USER_MAX_RUNNING' | 'EXPORT_USER_MAX_QUEUED' | 'EXPORT_COMPANY_MAX_RUNNING' | 'EXPORT_COMPANY_MAX_QUEUED'>,
): ExportBudgets => ({
  userMaxRunning: c.EXPORT_USER_MAX_RUNNING,
  userMaxQueued: c.EXPORT_USER_MAX_QUEUED,
  companyMaxRunning: c.EXPORT_COMPANY_MAX_RUNNING,
  companyMaxQueued: c.EXPORT_COMPANY_MAX_QUEUED,
});

/**
 * The company a caller's job is charged to (its queued and running budgets, its turn in the
 * round-robin): the system's owner when the caller may run exports there (or is a superuser),
 * else the first company (by id) that received a share of the system where the caller may run
 * exports. A partner's jobs never count against the owner's budgets.
 */
export function chargedCompany(actor: Actor, system: { company_cuid: string; shares: readonly { company_cuid: string }[] }): string {
  return actingCompany(actor, POLICY['exports.run'].level, system);
}

/** Why a job was refused: the `reason` label of portal_export_refusals_total (a fixed list). */
export const EXPORT_REFUSALS = ['user_queue', 'company_queue', 'too_large', 'user_streams', 'schedule_queue', 'schedule_unseen'] as const;
export type TExportRefusal = (typeof EXPORT_REFUSALS)[number];

/** A day of one column costs this much, by resolution: raw and 5-minute data 1, an hour's rollup 1/12, a day's 1/288. */
const DAY_WEIGHT: Record<TExportResolution, number> = { raw: 1, '5m': 1, '1h': 1 / 12, '1d': 1 / 288 };

/** The size of an export in column-days (rounded up). */
export function columnDays(fromMs: number, toMs: number, columns: number, resolution: TExportResolution): number {
  const days = Math.max(0, toMs - fromMs) / 86_400_000;
  return Math.max(0, Math.ceil(days * columns * DAY_WEIGHT[resolution] - 1e-9));
}

/** What one user and their company have waiting now. */
export interface QueueCounts {
  userQueued: number;
  companyQueued: number;
}

/** The refusal of one more job, or undefined when it may queue. The user's own line is checked first. */
export function queueRefusal(counts: QueueCounts, budgets: ExportBudgets): TExportRefusal | undefined {
  if (counts.userQueued >= budgets.userMaxQueued) return 'user_queue';
  if (counts.companyQueued >= budgets.companyMaxQueued) return 'company_queue';
  return undefined;
}

/** A job the worker could take: the oldest waiting job of one user (or of a company's schedules). */
export interface ExportCandidate {
  id: string;
  company_cuid: string;
  /** null for a scheduled job (no user: it counts for its company only). */
  user_cuid: string | null;
  created_at: number;
}

/** What runs now, and when each company and each user last had a job started (ms; absent → never). */
export interface RunningState {
  runningByUser: ReadonlyMap<string, number>;
  runningByCompany: ReadonlyMap<string, number>;
  lastStartedByCompany: ReadonlyMap<string, number>;
  lastStartedByUser?: ReadonlyMap<string, number>;
}

type Key = [number, number, number, number, string];

/**
 * The job to start next, round-robin across companies, then across the users of a company: among
 * candidates whose user and company are under their running budgets, the company served least
 * recently (never served first, then the fewest running) goes next; within it, the user served
 * least recently, then the oldest job. Ties go to the older job, then the id, so every instance
 * picks alike. Undefined when nothing may start.
 */
export function pickNext(candidates: readonly ExportCandidate[], state: RunningState, budgets: ExportBudgets): ExportCandidate | undefined {
  let best: ExportCandidate | undefined;
  let bestKey: Key | undefined;
  for (const c of candidates) {
    if (c.user_cuid !== null && (state.runningByUser.get(c.user_cuid) ?? 0) >= budgets.userMaxRunning) continue;
    const running = state.runningByCompany.get(c.company_cuid) ?? 0;
    if (running >= budgets.companyMaxRunning) continue;
    const userLast = c.user_cuid === null ? -Infinity : (state.lastStartedByUser?.get(c.user_cuid) ?? -Infinity);
    const key: Key = [state.lastStartedByCompany.get(c.company_cuid) ?? -Infinity, running, userLast, c.created_at, c.id];
    if (!bestKey || less(key, bestKey)) {
      best = c;
      bestKey = key;
    }
  }
  return best;
}

function less(a: Key, b: Key): boolean {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return a[4] < b[4];
}
