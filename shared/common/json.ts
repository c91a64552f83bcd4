/**
 * Comparing and walking JSON values (configurations, command payloads). Pure, no imports: the
 * browser uses it too.
 */

/** A JSON object (not a list, not null, not a Date). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** JSON text with object keys sorted (undefined members left out): equal values give equal text, whatever their key order. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** The same JSON value (key order does not count). */
export const sameJson = (a: unknown, b: unknown): boolean => stableJson(a) === stableJson(b);

/** The leaves of a JSON object by dotted path; nested objects are walked (an empty one is a leaf), lists are one value. */
export function flattenJson(value: Record<string, unknown>, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(v) && Object.keys(v).length > 0) flattenJson(v, path, out);
    else out.set(path, v);
  }
  return out;
}

/** One key of two configurations (before → after, or reported → desired), by dotted path. */
export interface JsonKeyChange {
  path: string;
  /** added: only after; removed: only before; changed: both, different; same: both, equal. */
  change: 'added' | 'removed' | 'changed' | 'same';
  before?: unknown;
  after?: unknown;
}

/** Every key of either object with what happened to it, sorted by path. */
export function jsonKeyChanges(before: Record<string, unknown>, after: Record<string, unknown>): JsonKeyChange[] {
  const a = flattenJson(before);
  const b = flattenJson(after);
  return [...new Set([...a.keys(), ...b.keys()])].sort().map((path): JsonKeyChange => {
    if (!a.has(path)) return { path, change: 'added', after: b.get(path) };
    if (!b.has(path)) return { path, change: 'removed', before: a.get(path) };
    return { path, change: sameJson(a.get(path), b.get(path)) ? 'same' : 'changed', before: a.get(path), after: b.get(path) };
  });
}
