import { jsonKeyChanges } from '../../../shared/common/json';

/** One key of a configuration, desired against reported (nested objects as dotted paths). */
export interface ConfigRow {
  path: string;
  /** added: desired only; removed: reported only; changed: both, different; same: both, equal. */
  change: 'added' | 'removed' | 'changed' | 'same';
  desired?: unknown;
  reported?: unknown;
}

/**
 * The rows of a desired-against-reported table, sorted by path (the server's own comparison, so a
 * key the server calls in sync is never shown as changed). Nothing reported yet (null): every
 * desired key counts as added.
 */
export function configRows(desired: Record<string, unknown>, reported: Record<string, unknown> | null): ConfigRow[] {
  return jsonKeyChanges(reported ?? {}, desired).map(({ path, change, before, after }) => ({ path, change, desired: after, reported: before }));
}

/** A value as a short readable text (strings unquoted, objects and lists as compact JSON). */
export function showValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
