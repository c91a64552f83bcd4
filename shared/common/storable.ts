import { z } from 'zod';

/**
 * What PostgreSQL cannot store, refused at the edge (docs/security.md, "A shared batch never fails
 * for one bad item"): text holding NUL (U+0000: neither `text` nor `jsonb` takes it) or a lone
 * UTF-16 surrogate (half of a character: `jsonb` refuses its escape, `text` would silently store
 * U+FFFD instead), and numbers that are not finite (NaN, ±Infinity: JSON cannot hold them). A value
 * the server accepts is a value it can store and read back, so one caller's bad character never
 * fails a shared batch.
 */
export const NUL_MESSAGE = 'Text may not contain the NUL character (U+0000)';
export const SURROGATE_MESSAGE = 'Text may not contain a broken character (half of a UTF-16 surrogate pair)';
export const NOT_FINITE_MESSAGE = 'Numbers must be finite';
export const BAD_DATE_MESSAGE = 'A date that exists';

// A high surrogate not followed by a low one, or a low one without a high one before it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why this text cannot be stored, or undefined. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return undefined;
}

export interface StorableIssue {
  path: (string | number)[];
  message: string;
}

/** Deepest nesting walked (deeper values are the JSON bounds' business, see zod-fields.ts). */
const MAX_DEPTH = 64;

/**
 * The first part of `value` that cannot be stored (texts and object keys, numbers, dates, walking
 * arrays, plain objects, Maps and Sets), with its path; undefined when everything can.
 */
export function storableProblem(value: unknown, path: (string | number)[] = [], depth = 0, seen = new Set<object>()): StorableIssue | undefined {
  switch (typeof value) {
    case 'string': {
      const message = textProblem(value);
      return message ? { path, message } : undefined;
    }
    case 'number':
      return Number.isFinite(value) ? undefined : { path, message: NOT_FINITE_MESSAGE };
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null || depth > MAX_DEPTH || seen.has(value)) return undefined;
  seen.add(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? { path, message: BAD_DATE_MESSAGE } : undefined;
  if (Array.isArray(value) || value instanceof Set) {
    let i = 0;
    for (const item of value) {
      const p = storableProblem(item, [...path, i++], depth + 1, seen);
      if (p) return p;
    }
    return undefined;
  }
  const entries: [unknown, unknown][] = value instanceof Map ? [...value.entries()] : Object.entries(value);
  for (const [key, item] of entries) {
    const keyPath = [...path, typeof key === 'number' ? key : String(key)];
    if (typeof key === 'string') {
      const message = textProblem(key);
      if (message) return { path: keyPath, message };
    }
    const p = storableProblem(item, keyPath, depth + 1, seen);
    if (p) return p;
  }
  return undefined;
}

/** A zod text field that refuses what cannot be stored (for REST and device payloads parsed outside tRPC). */
export const storableText = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((text, ctx) => {
    const message = textProblem(text);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/**
 * Text from outside (a mail server's or a chat service's error, an exception message) made storable:
 * NUL and lone surrogates become U+FFFD, so recording it can never fail the write it belongs to.
 */
export const toStorableText = (text: string): string =>
  text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
