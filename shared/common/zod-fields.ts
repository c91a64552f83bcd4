import { z } from 'zod';
import { textProblem } from './storable';

/** Shared field schemas for records and forms. */
export const ZName = z.string().trim().min(1, 'Required').max(200);
export const ZRefCuid = z.string().trim().min(1, 'Required').max(32);
export const ZOptionalText = (max: number) => z.string().trim().max(max).nullable().optional();

const knownZones = new Set(Intl.supportedValuesOf('timeZone').concat(['UTC']));
export const ZTimezone = z.string().refine((tz) => knownZones.has(tz), 'A time zone such as Africa/Nairobi');

/** A calendar date (YYYY-MM-DD) that exists: 2025-02-29 and 2025-13-45 are refused. */
export const ZIsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date like 2026-11-21')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'This date does not exist');

// ---- JSON values the server stores ------------------------------------------------------------

/**
 * Bounds of every JSON value a caller may store (meta, config, args, layouts, branding …). A write
 * the server accepts must always be readable back: keys the answer serialiser refuses as
 * prototype pollution, and nesting deep enough to exhaust a stack, are refused here, at the door.
 */
export const JSON_FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];
/** Deepest nesting of objects and arrays (the value itself is level 1). */
export const JSON_MAX_DEPTH = 32;
/** Most keys of one object. */
export const JSON_MAX_KEYS = 1_000;
/** Longest array. */
export const JSON_MAX_ARRAY_LENGTH = 10_000;
/** Largest value as JSON text, in bytes (UTF-8). */
export const JSON_MAX_BYTES = 64 * 1024;

export interface JsonLimits {
  maxBytes?: number;
}

const forbiddenKeys = new Set(JSON_FORBIDDEN_KEYS);
const isPlainObject = (v: object) => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const where = (path: readonly (string | number)[]) => (path.length ? ` (at ${path.join('.').slice(0, 200)})` : '');

/** Why `value` cannot be stored as JSON, or undefined when it can. */
export function jsonProblem(value: unknown, limits: JsonLimits = {}): string | undefined {
  const walk = (v: unknown, path: (string | number)[]): string | undefined => {
    if (v === null || typeof v === 'boolean') return undefined;
    // Text PostgreSQL cannot store (NUL, a lone surrogate): jsonb refuses it.
    if (typeof v === 'string') {
      const bad = textProblem(v);
      return bad ? `${bad}${where(path)}` : undefined;
    }
    if (typeof v === 'number') return Number.isFinite(v) ? undefined : `Numbers must be finite${where(path)}`;
    if (typeof v !== 'object') return `Only JSON values (text, numbers, true/false, null, lists, objects)${where(path)}`;
    if (path.length >= JSON_MAX_DEPTH) return `Nested more than ${JSON_MAX_DEPTH} levels deep`;
    if (Array.isArray(v)) {
      if (v.length > JSON_MAX_ARRAY_LENGTH) return `A list holds at most ${JSON_MAX_ARRAY_LENGTH} items${where(path)}`;
      for (let i = 0; i < v.length; i++) {
        const p = walk(v[i], [...path, i]);
        if (p) return p;
      }
      return undefined;
    }
    if (!isPlainObject(v)) return `Only JSON values (text, numbers, true/false, null, lists, objects)${where(path)}`;
    const keys = Object.keys(v);
    if (keys.length > JSON_MAX_KEYS) return `An object holds at most ${JSON_MAX_KEYS} keys${where(path)}`;
    for (const key of keys) {
      if (forbiddenKeys.has(key)) return `The key "${key}" is not allowed${where(path)}`;
      const badKey = textProblem(key);
      if (badKey) return `${badKey}${where(path)}`;
      const p = walk((v as Record<string, unknown>)[key], [...path, key]);
      if (p) return p;
    }
    return undefined;
  };
  const problem = walk(value, []);
  if (problem) return problem;
  const maxBytes = limits.maxBytes ?? JSON_MAX_BYTES;
  const text = JSON.stringify(value);
  if (text !== undefined && Buffer.byteLength(text) > maxBytes) return `At most ${Math.floor(maxBytes / 1024)} KB of JSON`;
  return undefined;
}

/** Schemas made by `boundedJson`: the JSON fields (tests enumerate them from here). */
export const jsonFields = z.registry<{ maxBytes: number }>();

/**
 * A JSON field: `schema` (a record, a typed object …) behind the JSON bounds above. The bounds are
 * checked on the value as sent, before `schema` parses it (zod drops an own `__proto__` key).
 * A refusal is a 400 whose field error names the field and says why.
 */
export function boundedJson<T extends z.ZodType>(schema: T, limits: JsonLimits = {}) {
  const bounded = z
    .unknown()
    .superRefine((value, ctx) => {
      const problem = jsonProblem(value, limits);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .pipe(schema);
  jsonFields.add(bounded, { maxBytes: limits.maxBytes ?? JSON_MAX_BYTES });
  return bounded;
}

/** A JSON object field (meta, config, args …): any keys, within the JSON bounds. */
export const ZJsonObject = boundedJson(z.record(z.string(), z.unknown()));

// ---- URLs -----------------------------------------------------------------------------------

export const URL_MAX_LENGTH = 2048;

/** Schemas made by `httpUrl` (tests enumerate them from here). */
export const urlFields = z.registry<{ path: boolean; httpsOnly: boolean }>();

/**
 * True for an absolute http(s) URL a browser opens as such: no other scheme (`javascript:`,
 * `data:` …), a host, no credentials, no spaces, control characters or backslashes (which
 * browsers read as slashes).
 */
export function isHttpUrl(value: string, httpsOnly = false): boolean {
  if (!(httpsOnly ? /^https:\/\/[^/\\]/i : /^https?:\/\/[^/\\]/i).test(value)) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f\\]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || (!httpsOnly && url.protocol === 'http:')) && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** True for a path on this site: one leading slash (`//host` and `/\host` lead elsewhere). */
export function isSitePath(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^\/(?![/\\])/.test(value) && !/[\s\u0000-\u001f\u007f\\]/.test(value);
}

/**
 * A URL field: an absolute http(s) URL, or (`path: true`, where an in-app path makes sense such as
 * an uploaded file under /api/files/…) a path starting with a single `/`. Nothing else: no
 * `javascript:` or `data:` URL, no protocol-relative `//host`.
 */
export function httpUrl(opts: { path?: boolean; httpsOnly?: boolean } = {}) {
  const path = opts.path ?? false;
  const httpsOnly = opts.httpsOnly ?? false;
  const scheme = httpsOnly ? 'https' : 'http(s)';
  const message = path ? `A full ${scheme} URL (https://…) or a path on this site (/…)` : `A full ${scheme} URL (https://…)`;
  const schema = z
    .string()
    .trim()
    .max(URL_MAX_LENGTH)
    .refine((v) => isHttpUrl(v, httpsOnly) || (path && isSitePath(v)), message);
  urlFields.add(schema, { path, httpsOnly });
  return schema;
}
