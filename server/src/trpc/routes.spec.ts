import { buildRoutes, declareRoutes, type ServiceClass } from './routes';

class Clock {
  now(): number {
    return 1;
  }
}
class Names {
  of(id: string): string {
    return `name of ${id}`;
  }
}

describe('declared routes', () => {
  const routes = declareRoutes({ clock: Clock, names: Names }, ({ clock, names }) => ({ read: (id: string) => `${names.of(id)} at ${clock.now()}` }));

  it('keep the classes of their services, by name', () => {
    expect(routes.services).toEqual({ clock: Clock, names: Names });
  });

  it('are built with each service `provide` gives for its class', () => {
    const asked: ServiceClass<unknown>[] = [];
    const instances = new Map<ServiceClass<unknown>, unknown>([
      [Clock, new Clock()],
      [Names, new Names()],
    ]);
    const built = buildRoutes(routes, <T>(type: ServiceClass<T>) => {
      asked.push(type);
      return instances.get(type) as T;
    });
    expect(asked).toEqual([Clock, Names]);
    expect(built.read('a')).toBe('name of a at 1');
  });
});
