import { MESSAGE_PLACEHOLDERS, ZTemplateRule, ZTriggerRule } from '../../../../shared/alerts/rules';
import { hasOwnEntry } from '../../../../shared/common/own-entry';

/**
 * The rule form's values ↔ the rule schema of server/src/alerts/rules.ts (the same zod schema the
 * server checks, run in the browser). Pure: a test checks it without a browser.
 */

/** Empty inputs (null, '') are absent fields; a state value typed as JSON (3, true, null) is that value. */
export function cleanRule(args: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!args || typeof args !== 'object') return out;
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    if (v === null || v === undefined || v === '') continue;
    out[k] = v;
  }
  if (out.kind === 'state' && typeof out.value === 'string') {
    const text = out.value.trim();
    if (/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)$/.test(text)) out.value = JSON.parse(text);
  } else if (out.kind === 'state' && !('value' in out)) {
    out.value = '';
  }
  // Fields of another kind left behind by switching the kind are dropped (the schemas are strict).
  const keep = KIND_FIELDS[out.kind as keyof typeof KIND_FIELDS];
  if (keep) for (const k of Object.keys(out)) if (!(keep as readonly string[]).includes(k)) delete out[k];
  return out;
}

const KIND_FIELDS = {
  threshold: ['kind', 'entity_cuid', 'parameter_id', 'op', 'value', 'release_value', 'for_seconds', 'release_for_seconds'],
  no_data: ['kind', 'entity_cuid', 'parameter_id', 'after_seconds'],
  offline: ['kind', 'controller_id', 'after_seconds'],
  state: ['kind', 'entity_cuid', 'key', 'op', 'value', 'for_seconds'],
} as const;

type Errors = Record<string, string>;

/** Errors of the rule under `args`, by field (react-admin's form-level validation shape). */
export function ruleErrors(args: unknown, template = false): Errors {
  const cleaned = cleanRule(args);
  if (template) delete cleaned.entity_cuid;
  const result = (template ? ZTemplateRule : ZTriggerRule).safeParse(cleaned);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'kind');
    if (!hasOwnEntry(errors, field)) errors[field] = issue.message;
  }
  return errors;
}

/** Form-level validation for a trigger (or a template assignment with `template`). */
export const validateRuleForm =
  (template = false) =>
  (values: Record<string, unknown>): Record<string, unknown> => {
    const errors = ruleErrors(values.args, template);
    return Object.keys(errors).length ? { args: errors } : {};
  };

/** The record as saved: `args` cleaned to exactly the rule. */
export const transformRule = <T extends Record<string, unknown>>(data: T): T => ({ ...data, args: cleanRule(data.args) });

export const PLACEHOLDER_LIST = MESSAGE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ');
