import type { ServiceClass } from '../trpc/routes';
import { buildAllRoutes, buildAppRouter } from './app.router';

/** One procedure as a router holds it: its type (query, mutation, subscription) and the permission it declares. */
export interface DeclaredProcedure {
  type: string;
  /** `public`, or `NONE` when it declares nothing. */
  perm: string;
}

/** Every procedure of a tRPC router (the app router, or one built from the declarations), by path. */
export function proceduresOf(appRouter: unknown): Map<string, DeclaredProcedure> {
  type Node = { _def?: { type?: string; meta?: { perm?: string; public?: boolean } } } & Record<string, unknown>;
  const out = new Map<string, DeclaredProcedure>();
  const walk = (record: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(record)) {
      const node = value as Node;
      const path = prefix ? `${prefix}.${key}` : key;
      if (node?._def?.type && ['query', 'mutation', 'subscription'].includes(node._def.type)) {
        out.set(path, { type: node._def.type, perm: node._def.meta?.public ? 'public' : (node._def.meta?.perm ?? 'NONE') });
      } else if (node && typeof node === 'object') {
        walk(node, path);
      }
    }
  };
  walk((appRouter as { _def: { procedures: Record<string, unknown> } })._def.procedures, '');
  return out;
}

/**
 * A stand-in for a declared service: an object with no members at all. A router module's `build`
 * only hands its services to the procedures' bodies, which never run here; one that called a
 * service while building would fail on it.
 */
const inert = <T>(_type: ServiceClass<T>): T => Object.freeze(Object.create(null) as object) as T;

/** The app router built from every router module's declaration (api/app.router.ts ROUTES), without Nest and without services. */
export function declaredProcedures(): Map<string, DeclaredProcedure> {
  return proceduresOf(buildAppRouter(buildAllRoutes(inert)));
}

/** Every procedure of the app router with the permission it declares, sorted by path, for the tests that compare it. */
export function procedurePermissions(): Record<string, string> {
  const entries = [...declaredProcedures()].map(([path, p]) => [path, p.perm] as const);
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}
