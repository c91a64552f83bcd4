import { buildAppRouter, ROUTER_PROVIDERS, type RouterProviders } from './app.router';

/**
 * Every procedure of the app router with the permission it declares (`public`, or `NONE` when it
 * declares nothing): read from the procedures' `.meta({ perm })`, for the tests that compare it.
 */
export function procedurePermissions(): Record<string, string> {
  // A service stand-in whose every member is a no-op (a router may register its resource with the
  // crud service while it is built).
  const none = new Proxy({}, { get: () => () => undefined }) as never;
  // Every router class built without its services: only the procedures' metadata is read.
  const providers = Object.fromEntries(
    Object.entries(ROUTER_PROVIDERS).map(([name, type]) => [name, new (type as unknown as new (...services: unknown[]) => unknown)(none, none, none)]),
  ) as RouterProviders;
  const appRouter = buildAppRouter(providers);
  type Node = { _def?: { type?: string; meta?: { perm?: string; public?: boolean } } } & Record<string, unknown>;
  const out: [string, string][] = [];
  const walk = (record: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(record)) {
      const node = value as Node;
      const path = prefix ? `${prefix}.${key}` : key;
      if (node?._def?.type && ['query', 'mutation', 'subscription'].includes(node._def.type)) {
        out.push([path, node._def.meta?.public ? 'public' : (node._def.meta?.perm ?? 'NONE')]);
      } else if (node && typeof node === 'object') {
        walk(node, path);
      }
    }
  };
  walk(appRouter._def.procedures, '');
  return Object.fromEntries(out.sort(([a], [b]) => a.localeCompare(b)));
}
