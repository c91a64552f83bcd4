import { Logger } from '@nestjs/common';
import { initTRPC, TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import superjson from 'superjson';
import { z } from 'zod';
import { type OwnSessionChange, ownSessionChanges } from './own-session';
import { canUse, isPermission, type Permission } from '../../../shared/access/policy';
import { issueCode, messageCode, translate, translateIssue } from '../common/messages';
import type { AuthedContext, TrpcContext } from './context';
import { contextLocale } from './context-locale';
import { isStepUpRequired, toTrpcError } from './errors';
import { storableProblem } from '../../../shared/common/storable';
import { fieldError } from '../common/field-error';

/**
 * Procedure metadata. Every procedure names the permission it needs (spec §6, `policy.ts`);
 * `public: true` is the only way to be callable without a session. A procedure with neither
 * fails closed.
 */
export interface ProcedureMeta {
  perm?: Permission;
  public?: true;
}

/**
 * True when superjson would send `value` unchanged (plain JSON data, no object met twice) apart from
 * valid Dates, each met once, whose paths (superjson's escaped dotted form) are pushed to `dates`;
 * answers can then skip its walk, which costs more than the rest of a call's serialisation (a
 * Date goes out as its ISO string through JSON.stringify, as superjson writes it, plus the `meta`
 * superjson would write). Anything else (undefined, Map, NaN, shared or deep objects …) goes
 * through superjson.
 */
function isPlainJson(value: unknown, seen: Set<object>, depth: number, path: (string | number)[], dates: string[]): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (depth > 32 || seen.has(value)) return false;
  seen.add(value);
  if (value instanceof Date) {
    if (depth === 0 || !Number.isFinite(value.getTime()) || Object.getPrototypeOf(value) !== Date.prototype) return false;
    dates.push(path.map((k) => String(k).replace(/\\/g, '\\\\').replace(/\./g, '\\.')).join('.'));
    return true;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const ok = isPlainJson(value[i], seen, depth + 1, path, dates);
      path.pop();
      if (!ok) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key of Object.keys(value)) {
    // superjson refuses these keys; let it.
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return false;
    path.push(key);
    const ok = isPlainJson((value as Record<string, unknown>)[key], seen, depth + 1, path, dates);
    path.pop();
    if (!ok) return false;
  }
  return true;
}

/** Deepest answer the serialiser walks; a deeper branch is cut (see `toWire`). */
export const ANSWER_MAX_DEPTH = 200;
/** Keys superjson refuses (prototype pollution); a stored row holding one must not sink a list. */
const REFUSED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/**
 * Marker of a degraded answer: an object whose member could not be sent lists that member's key
 * here, and the member itself is sent as null. In a record (an object with an `id`) that member is
 * the record's field, however deep inside it the problem was.
 */
export const UNREADABLE_MARKER = '$unreadable';

const logger = new Logger('tRPC');
const CUT = Symbol('cut');

/** A copy of `value` without what superjson cannot send; `cut` collects the paths replaced by null. */
function withoutUnsendable(value: unknown, depth: number, path: string, cut: string[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= ANSWER_MAX_DEPTH) return CUT;
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      const v = withoutUnsendable(item, depth + 1, `${path}.${i}`, cut);
      if (v !== CUT) return v;
      cut.push(`${path}.${i}`);
      return null;
    });
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value; // Date, Map … : superjson's own business
  const keys = Object.keys(value);
  if (keys.some((k) => REFUSED_KEYS.has(k))) return CUT;
  const out: Record<string, unknown> = {};
  const unreadable: string[] = [];
  // A record (it has an `id`) loses the whole field that held something unsendable, however deep.
  const record = keys.includes('id');
  for (const key of keys) {
    const before = cut.length;
    const v = withoutUnsendable((value as Record<string, unknown>)[key], depth + 1, `${path}.${key}`, cut);
    if (v === CUT || (record && cut.length > before)) {
      cut.splice(before, cut.length - before, `${path}.${key}`);
      unreadable.push(key);
      out[key] = null;
    } else out[key] = v;
  }
  if (unreadable.length) out[UNREADABLE_MARKER] = unreadable;
  return out;
}

type Wire = ReturnType<typeof superjson.serialize>;

/**
 * An answer in superjson's wire form. What superjson refuses (a stored JSON value holding a
 * `constructor` key, nesting deep enough to exhaust the stack — rows written before the inputs
 * were bounded) does not fail the whole answer: that member is sent as null, its object lists it
 * under `$unreadable`, and the event is logged with the procedure's path, so one bad row never
 * makes a list unreadable for everybody.
 */
export function toWire(value: unknown, path: string | undefined): Wire {
  const dates: string[] = [];
  if (isPlainJson(value, new Set(), 0, [], dates)) {
    if (!dates.length) return { json: value } as Wire;
    return { json: value, meta: { values: Object.fromEntries(dates.map((p) => [p, ['Date']])), v: 1 } } as unknown as Wire;
  }
  try {
    return superjson.serialize(value);
  } catch (error) {
    const cut: string[] = [];
    const safe = withoutUnsendable(value, 0, '', cut);
    const where = path ?? 'a subscription event';
    logger.warn(
      `${where}: the answer held values that cannot be sent (${(error as Error).message}); sent null instead at ${cut
        .map((p) => p.slice(1) || '(the answer)')
        .join(', ')
        .slice(0, 1000)}`,
    );
    return superjson.serialize(safe === CUT ? null : safe);
  }
}

/** Answers made ready by the procedure middleware (with the procedure's path), read once by the transformer. */
const prepared = new WeakMap<object, Wire>();

/** Answers shared by many callers (see `sharedOutput`), with their wire form made once. */
const sharedAnswers = new WeakMap<object, Wire | null>();

/**
 * The output parser of a procedure whose answer is one object shared by many callers for a while
 * (the fleet overview, computed once per visibility): the object is checked against `schema` once,
 * the same checked copy is answered to every caller, and its wire form is made once. The shared
 * object must never be changed after it is made.
 */
export function sharedOutput<T>(schema: z.ZodType<T>): (value: unknown) => T {
  const checked = new WeakMap<object, T>();
  return (value: unknown): T => {
    if (value === null || typeof value !== 'object') return schema.parse(value);
    const hit = checked.get(value);
    if (hit !== undefined) return hit;
    const out = schema.parse(value);
    checked.set(value, out);
    if (out !== null && typeof out === 'object') sharedAnswers.set(out, null);
    return out;
  };
}

/** superjson both ways; answers that are plain JSON are wrapped as superjson would, without its walk. */
export const transformer = {
  input: {
    serialize: (value: unknown) => superjson.serialize(value),
    deserialize: (value: Parameters<typeof superjson.deserialize>[0]): unknown => {
      try {
        return superjson.deserialize(value);
      } catch (error) {
        throw new InputDecodeError(error);
      }
    },
  },
  output: {
    serialize: (value: unknown): Wire => {
      if (value !== null && typeof value === 'object') {
        const shared = sharedAnswers.get(value);
        if (shared) return shared;
        const wire = prepared.get(value);
        if (wire) {
          prepared.delete(value);
          return wire;
        }
      }
      return toWire(value, undefined);
    },
    deserialize: (value: Parameters<typeof superjson.deserialize>[0]) => superjson.deserialize(value),
  },
};

/** The request's input could not be read by superjson (malformed `meta` …); its message stays in the log. */
export class InputDecodeError extends Error {
  constructor(cause: unknown) {
    super(INPUT_NOT_VALID, { cause });
    this.name = 'InputDecodeError';
  }
}
/** What a caller is told when the request itself cannot be read (never a JavaScript message). */
export const INPUT_NOT_VALID = 'The request body is not valid';

/**
 * Every open live stream (SSE) gets a keep-alive comment this often, so proxies never see it idle
 * for long: HAProxy's `timeout server`/`timeout client` (docker/haproxy.cfg, 120 s) must stay well
 * above it. A browser that hears nothing for LIVE_RECONNECT_AFTER_MS reconnects by itself.
 */
export const LIVE_PING_MS = 15_000;
export const LIVE_RECONNECT_AFTER_MS = 20_000;

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    transformer,
    isDev: false,
    // Live events over SSE: a ping keeps proxies from closing quiet streams.
    sse: { ping: { enabled: true, intervalMs: LIVE_PING_MS }, client: { reconnectAfterInactivityMs: LIVE_RECONNECT_AFTER_MS } },
    errorFormatter({ shape, error, ctx }) {
      const zodIssues = error.cause instanceof z.ZodError ? error.cause.issues : undefined;
      const internal = error.code === 'INTERNAL_SERVER_ERROR';
      // tRPC reports unparsable input JSON as BAD_REQUEST; name it PARSE_ERROR (same 400).
      const parse = error.code === 'BAD_REQUEST' && error.cause instanceof SyntaxError;
      // superjson could not read the input: its message is JavaScript's, not the caller's business.
      const unreadable = error.code === 'BAD_REQUEST' && error.cause instanceof InputDecodeError;
      const message = internal ? 'Internal server error' : parse ? 'The input is not valid JSON' : unreadable ? INPUT_NOT_VALID : shape.message;
      // The caller's language: their stored choice, else their browser's (before sign-in), else English.
      const locale = contextLocale(ctx);
      // A message that is one field's (fieldError) or zod's own is translated as that issue.
      const single = zodIssues?.length === 1 && zodIssues[0].message === message ? zodIssues[0] : undefined;
      const code = single ? issueCode(single) : messageCode(message);
      return {
        ...shape,
        code: parse ? TRPC_ERROR_CODES_BY_KEY.PARSE_ERROR : shape.code,
        message: single ? translateIssue(single, locale) : translate(message, locale),
        data: {
          code: parse ? ('PARSE_ERROR' as const) : shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          // The message's stable code (the English catalogue key, or `zod.<issue>`), for a client that translates itself.
          ...(code ? { messageCode: code } : {}),
          // A dangerous action needs the user's password again (step-up): the client asks for it and retries.
          ...(isStepUpRequired(error) ? { stepUp: true as const } : {}),
          ...(zodIssues
            ? {
                fieldErrors: zodIssues.map((i) => ({ path: i.path.map(String).join('.'), message: translateIssue(i, locale) })),
                fieldErrorCodes: zodIssues.map((i) => issueCode(i) ?? null),
              }
            : {}),
        },
      };
    },
  });

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;

/** Maps database and unexpected errors to safe TRPCErrors, for every procedure. */
const errorMapping = t.middleware(async ({ path, type, next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && result.error.cause) {
    throw toTrpcError(result.error.cause);
  }
  // The answer is serialised here, where its procedure's path is known (for the log of a degraded answer).
  if (result.ok && type !== 'subscription' && result.data !== null && typeof result.data === 'object') {
    if (sharedAnswers.has(result.data)) {
      if (!sharedAnswers.get(result.data)) sharedAnswers.set(result.data, toWire(result.data, path));
    } else prepared.set(result.data, toWire(result.data, path));
  }
  return result;
});

/**
 * Input PostgreSQL cannot store (NUL, a lone surrogate, NaN / ±Infinity, an invalid date), in any
 * text field, key or number of any procedure's input however deep, answers 400 with a field error
 * before the procedure runs (common/storable.ts).
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const problem = storableProblem(await getRawInput());
  if (problem) throw fieldError(problem.path, problem.message);
  return next();
});

/** The one place permissions are enforced before a procedure runs. */
const policy = t.middleware(({ ctx, meta, next }) => {
  const perm = meta?.perm;
  if (!perm || !isPermission(perm)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'This procedure declares no permission' });
  }
  if (!ctx.actor || !ctx.session) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  }
  if (!canUse(ctx.actor, perm)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have permission to do this' });
  }
  return next({ ctx: { actor: ctx.actor, session: ctx.session } satisfies Pick<AuthedContext, 'actor' | 'session'> });
});

/**
 * A mutation that changes the caller's own password, email or memberships moves their session
 * epoch; keepOwnSession notes it, and the session making the call is re-issued on this answer.
 */
const ownSession = t.middleware(async ({ ctx, type, next }) => {
  if (type !== 'mutation' || !ctx.session || !ctx.renewSession) return next();
  const store: OwnSessionChange = { user_cuid: ctx.session.ctx.user.user_cuid, ep: ctx.session.ep };
  const result = await ownSessionChanges.run(store, () => next());
  if (result.ok && store.renewTo !== undefined) await ctx.renewSession(store.renewTo);
  return result;
});

/** Every procedure starts here and declares `.meta({ perm })`. */
export const procedure = t.procedure.use(errorMapping).use(policy).use(storableInput).use(ownSession);

/** The few procedures callable without a session (branding, for instance); they must say `.meta({ public: true })`. */
export const publicProcedure = t.procedure
  .use(errorMapping)
  .use(({ meta, next }) => {
    if (!meta?.public) throw new TRPCError({ code: 'FORBIDDEN', message: 'This procedure declares no permission' });
    return next();
  })
  .use(storableInput);
