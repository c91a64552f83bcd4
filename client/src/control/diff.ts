/** One key of a configuration, desired against reported (nested objects as dotted paths). */
export interface ConfigRow {
  path: string;
  /** added: desired only; removed: reported only; changed: both, different; same: both, equal. */
  change: 'added' | 'removed' | 'changed' | 'same';
  desired?: unknown;
  reported?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function flatten(value: Record<string, unknown>, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isObject(v) && Object.keys(v).length > 0) flatten(v, path, out);
    else out.set(path, v);
  }
  return out;
}

/**
 * The rows of a desired-against-reported table, sorted by path. Nothing reported yet (null): every
 * desired key counts as added.
 */
export function configRows(desired: Record<string, unknown>, reported: Record<string, unknown> | null): ConfigRow[] {
  const want = flatten(desired);
  const have = flatten(reported ?? {});
  const paths = [...new Set([...want.keys(), ...have.keys()])].sort();
  return paths.map((path) => {
    if (!have.has(path)) return { path, change: 'added', desired: want.get(path) };
    if (!want.has(path)) return { path, change: 'removed', reported: have.get(path) };
    const d = want.get(path);
    const r = have.get(path);
    return { path, change: JSON.stringify(d) === JSON.stringify(r) ? 'same' : 'changed', desired: d, reported: r };
  });
}

/** A value as a short readable text (strings unquoted, objects and lists as compact JSON). */
export function showValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
