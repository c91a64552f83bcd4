import { initTRPC, TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import superjson from 'superjson';
import { z } from 'zod';
import { type OwnSessionChange, ownSessionChanges } from '../auth/own-session';
import { canUse, isPermission, type Permission } from '../auth/policy';
import type { AuthedContext, TrpcContext } from './context';
import { toTrpcError } from './errors';

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
 * True when superjson would send `value` unchanged (plain JSON data, no object met twice), so
 * answers can skip its walk, which costs more than the rest of a list call's serialisation.
 * Anything else (Date, undefined, Map, NaN, shared or deep objects …) goes through superjson.
 */
function isPlainJson(value: unknown, seen: Set<object>, depth: number): boolean {
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
  if (Array.isArray(value)) {
    for (const item of value) if (!isPlainJson(item, seen, depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key of Object.keys(value)) {
    // superjson refuses these keys; let it.
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return false;
    if (!isPlainJson((value as Record<string, unknown>)[key], seen, depth + 1)) return false;
  }
  return true;
}

/** superjson both ways; answers that are plain JSON are wrapped as superjson would, without its walk. */
export const transformer = {
  input: superjson,
  output: {
    serialize: (value: unknown) => (isPlainJson(value, new Set(), 0) ? { json: value } : superjson.serialize(value)),
    deserialize: (value: Parameters<typeof superjson.deserialize>[0]) => superjson.deserialize(value),
  },
};

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    transformer,
    isDev: false,
    // Live events over SSE: a ping keeps proxies from closing quiet streams.
    sse: { ping: { enabled: true, intervalMs: 15_000 }, client: { reconnectAfterInactivityMs: 20_000 } },
    errorFormatter({ shape, error }) {
      const zodIssues = error.cause instanceof z.ZodError ? error.cause.issues : undefined;
      const internal = error.code === 'INTERNAL_SERVER_ERROR';
      // tRPC reports unparsable input JSON as BAD_REQUEST; name it PARSE_ERROR (same 400).
      const parse = error.code === 'BAD_REQUEST' && error.cause instanceof SyntaxError;
      return {
        ...shape,
        code: parse ? TRPC_ERROR_CODES_BY_KEY.PARSE_ERROR : shape.code,
        message: internal ? 'Internal server error' : parse ? 'The input is not valid JSON' : shape.message,
        data: {
          code: parse ? ('PARSE_ERROR' as const) : shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          ...(zodIssues
            ? {
                fieldErrors: zodIssues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
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
const errorMapping = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && result.error.cause) {
    throw toTrpcError(result.error.cause);
  }
  return result;
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
export const procedure = t.procedure.use(errorMapping).use(policy).use(ownSession);

/** The few procedures callable without a session (branding, for instance); they must say `.meta({ public: true })`. */
export const publicProcedure = t.procedure.use(errorMapping).use(({ meta, next }) => {
  if (!meta?.public) throw new TRPCError({ code: 'FORBIDDEN', message: 'This procedure declares no permission' });
  return next();
});
