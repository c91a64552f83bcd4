/** A class a service is provided as (its Nest injection token, and its type). */
export type ServiceClass<T> = abstract new (...args: never[]) => T;

/** The services a router's procedures call, each by name with the class it is provided as. */
export type ServiceClasses<S> = { readonly [K in keyof S]: ServiceClass<S[K]> };

/**
 * A router module's declaration: the services its procedures call, and the pure function that
 * builds its procedures (name, permission, input, output, body) from them. `build` hands the
 * services to the procedures' bodies and calls none of them while it builds, so the procedures
 * and their permissions can be read from stand-ins (api/procedure-permissions.ts) as well as
 * from the services Nest made (api/trpc.module.ts).
 */
export interface Routes<S, R> {
  readonly services: ServiceClasses<S>;
  readonly build: (services: S) => R;
}

export function declareRoutes<S, R>(services: ServiceClasses<S>, build: (services: S) => R): Routes<S, R> {
  return { services, build };
}

/** A declaration of any router module, its services' types left out (what a list of them holds). */
export interface DeclaredRoutes<R = unknown> {
  readonly services: Readonly<Record<string, ServiceClass<unknown>>>;
  readonly build: (services: never) => R;
}

/** Builds declared routes with each of their services from `provide`. */
export function buildRoutes<R>(routes: DeclaredRoutes<R>, provide: <T>(type: ServiceClass<T>) => T): R {
  const services = Object.fromEntries(Object.entries(routes.services).map(([name, type]) => [name, provide(type)]));
  return routes.build(services as never);
}
