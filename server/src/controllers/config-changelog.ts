import type { EntityManager } from 'typeorm';
import type { Actor } from '../access/policy';
import { writeAutomaticChangelog } from '../systems/automatic-changelog';

/** Values longer than this are cut in the summary. */
const VALUE_MAX = 40;
/** Lines of the summary at most; the rest is counted. */
const LINES_MAX = 20;

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);

/** JSON text with object keys sorted, so two equal configurations compare equal whatever their key order. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** Leaves of a configuration by dotted path (nested objects are walked; arrays are one value). */
function flatten(v: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (isPlainObject(v) && (Object.keys(v).length || !prefix)) {
    for (const [k, x] of Object.entries(v)) flatten(x, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out.set(prefix, v);
  }
  return out;
}

const show = (v: unknown): string => {
  const text = typeof v === 'string' ? JSON.stringify(v) : stableJson(v);
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
};

/**
 * What changed between two configurations, one line per key (dotted paths for nested keys):
 * `+ key = value` added, `~ key: old → new` changed, `- key` removed; values cut at 40 characters,
 * at most 20 lines. Null when both are the same (key order does not count).
 */
export function summarizeConfigChange(before: unknown, after: unknown): string | null {
  if (stableJson(before ?? {}) === stableJson(after ?? {})) return null;
  const a = flatten(before ?? {});
  const b = flatten(after ?? {});
  const lines: string[] = [];
  for (const [k, v] of b) {
    if (!a.has(k)) lines.push(`+ ${k} = ${show(v)}`);
    else if (stableJson(a.get(k)) !== stableJson(v)) lines.push(`~ ${k}: ${show(a.get(k))} → ${show(v)}`);
  }
  for (const k of a.keys()) if (!b.has(k)) lines.push(`- ${k}`);
  if (!lines.length) lines.push('Structure changed');
  const more = lines.length - LINES_MAX;
  return more > 0 ? [...lines.slice(0, LINES_MAX), `… and ${more} more`].join('\n') : lines.join('\n');
}

/**
 * The back office changed a controller's, device's or data processor's `config`: an automatic
 * CONFIGURATION changelog entry in the write's transaction, on the row's system ("Configuration of
 * <name> changed", the summary as message, the row's key as ref). Nothing on a create, when the
 * configuration is the same, or when the row has no system.
 */
export async function writeConfigChangelog(
  tx: EntityManager,
  actor: Actor,
  key: string,
  row: Record<string, unknown>,
  current: Record<string, unknown> | undefined,
): Promise<void> {
  if (!current || row.config === undefined) return;
  const system_cuid = (row.system_cuid ?? current.system_cuid) as string | null | undefined;
  if (!system_cuid) return;
  const summary = summarizeConfigChange(current.config, row.config);
  if (summary === null) return;
  await writeAutomaticChangelog(tx, [
    {
      system_cuid,
      kind: 'CONFIGURATION',
      title: `Configuration of ${String(row.name ?? current.name ?? row[key])} changed`,
      message: summary,
      user_cuid: actor.user_cuid,
      ref: String(row[key] ?? current[key]),
    },
  ]);
}
