import type { EntityManager } from 'typeorm';
import type { Actor } from '../../../shared/access/policy';
import { flattenJson, isPlainObject, jsonKeyChanges, sameJson, stableJson } from '../../../shared/common/json';
import { isSecretPath, SECRET_MASK } from '../common/secret-config';
import { writeAutomaticChangelog } from '../systems/automatic-changelog';

/** Values longer than this are cut in the summary. */
const VALUE_MAX = 40;
/** Lines of the summary at most; the rest is counted. */
const LINES_MAX = 20;

const show = (v: unknown): string => {
  const text = typeof v === 'string' ? JSON.stringify(v) : stableJson(v);
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
};

/**
 * What changed between two configurations, one line per key (dotted paths for nested keys):
 * `+ key = value` added, `~ key: old → new` changed, `- key` removed; values cut at 40 characters,
 * secret values masked,
 * at most 20 lines. Null when both are the same (key order does not count).
 */
export function summarizeConfigChange(before: unknown, after: unknown): string | null {
  const b = isPlainObject(before) ? before : {};
  const a = isPlainObject(after) ? after : {};
  if (sameJson(b, a)) return null;
  // In the order people wrote the new configuration, the removed keys last.
  const order = new Map([...flattenJson(a).keys(), ...flattenJson(b).keys()].map((path, i) => [path, i] as const).reverse());
  const changes = jsonKeyChanges(b, a).sort((x, y) => order.get(x.path)! - order.get(y.path)!);
  // A secret (wifi_psk, passwords, tokens: common/secret-config.ts) is said to change, never shown.
  const value = (path: string, v: unknown) => (isSecretPath(path) ? SECRET_MASK : show(v));
  const lines = changes.flatMap((k) =>
    k.change === 'added'
      ? [`+ ${k.path} = ${value(k.path, k.after)}`]
      : k.change === 'changed'
        ? [`~ ${k.path}: ${value(k.path, k.before)} → ${value(k.path, k.after)}`]
        : k.change === 'removed'
          ? [`- ${k.path}`]
          : [],
  );
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
