/**
 * Making a DeviceState bundle or an Enum log parameter's value readable through its entity type's meta (EntityTypeMeta.meta).
 * The part of the meta read here (docs/control.md, "System status view"):
 *
 *   {
 *     "enums":  { "<key>": { "<value>": "<label>", … }, … },   // value labels of a bundle key or an Enum log parameter
 *     "states": { "<key>": { "label": "<name>", "order": 1, "hidden": true }, … }   // optional: a key's name, place, or leave it out
 *   }
 *
 * `enums.faults` and `enums.warnings` name the codes of the bundle's `faults` / `warnings` arrays.
 * Anything else in the meta is ignored; a meta that is not of this shape decodes nothing.
 * Keys and values are a controller's text: the tables are looked up by their own entries only, so a
 * state key or value `constructor` / `__proto__` is shown as it is (docs/security.md, "Text is never
 * a key into a plain object").
 */

import { ownEntry, ownTable } from '../../../shared/common/own-entry';

type Scalar = string | number | boolean | null;

export interface StateMeta {
  enums: Record<string, Record<string, string>>;
  states: Record<string, { label?: string; order?: number; hidden?: boolean }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The shape above out of whatever the meta holds (wrong parts are dropped, never thrown on). */
export function readStateMeta(meta: unknown): StateMeta {
  const out: StateMeta = { enums: ownTable(), states: ownTable() };
  if (!isObject(meta)) return out;
  if (isObject(meta.enums)) {
    for (const [key, labels] of Object.entries(meta.enums)) {
      if (!isObject(labels)) continue;
      const clean = ownTable<string>();
      for (const [v, label] of Object.entries(labels)) if (typeof label === 'string' || typeof label === 'number') clean[v] = String(label);
      out.enums[key] = clean;
    }
  }
  if (isObject(meta.states)) {
    for (const [key, s] of Object.entries(meta.states)) {
      if (!isObject(s)) continue;
      out.states[key] = {
        label: typeof s.label === 'string' ? s.label : undefined,
        order: typeof s.order === 'number' && Number.isFinite(s.order) ? s.order : undefined,
        hidden: s.hidden === true,
      };
    }
  }
  return out;
}

/** `inverter_state` → "Inverter state". */
export function keyInWords(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}

/** A bundle value as a scalar: objects and arrays as JSON text. */
export const toScalar = (v: unknown): Scalar =>
  v === undefined || v === null ? null : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : JSON.stringify(v);

/** A value's label from `enums.<key>` (numbers match their text: 9 and "9" are the same key). */
export function decodeValue(meta: StateMeta, key: string, value: unknown): { text: string; decoded: boolean } {
  const s = toScalar(value);
  const label = s === null ? undefined : ownEntry(ownEntry(meta.enums, key), String(s));
  if (label !== undefined) return { text: label, decoded: true };
  return { text: s === null ? '—' : String(s), decoded: false };
}

export interface DecodedState {
  values: { key: string; label: string; value: Scalar; text: string; decoded: boolean }[];
  faults: { code: Scalar; text: string }[];
  warnings: { code: Scalar; text: string }[];
}

const ISSUE_KEYS = ['faults', 'warnings'] as const;

/**
 * A bundle made readable: every key but `faults` / `warnings` (and hidden ones) with its label
 * and decoded value, ordered by `states.<key>.order` of the meta, then alphabetically (stored
 * bundles and metas keep no key order); the faults and warnings apart. `labels` are names
 * known otherwise (log parameter descriptions by id).
 */
export function decodeBundle(bundle: unknown, meta: StateMeta, labels: ReadonlyMap<string, string> = new Map()): DecodedState {
  const out: DecodedState = { values: [], faults: [], warnings: [] };
  if (!isObject(bundle)) return out;
  const stateOf = (k: string) => ownEntry(meta.states, k);
  const rank = (k: string) => stateOf(k)?.order ?? Number.MAX_SAFE_INTEGER;
  const keys = Object.keys(bundle).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const value = bundle[key];
    if ((ISSUE_KEYS as readonly string[]).includes(key)) {
      const list = Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [value];
      out[key as 'faults' | 'warnings'] = list.slice(0, 100).map((code) => ({ code: toScalar(code), text: decodeValue(meta, key, code).text }));
      continue;
    }
    if (stateOf(key)?.hidden) continue;
    const { text, decoded } = decodeValue(meta, key, value);
    out.values.push({ key, label: stateOf(key)?.label ?? labels.get(key) ?? keyInWords(key), value: toScalar(value), text, decoded });
  }
  return out;
}
