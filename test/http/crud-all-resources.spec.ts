import { RESOURCES } from '../../server/src/api/resource-routers';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/** Every generated resource answers every list variant its definition allows (the SQL is valid). */
describe('every generated resource', () => {
  let t: TestApp;
  let su: HttpClient;
  beforeAll(async () => {
    t = await startTestApp();
    su = new HttpClient(t.baseUrl);
    expect((await su.login('superuser@demo.local')).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(RESOURCES.map((r) => [r.name, r] as const))('%s: getList with each sort, a search, and getMany of what it lists', async (_name, def) => {
    const base = { pagination: { page: 1, perPage: 5 }, filter: {} };
    const plain = await su.query(`${def.name}.getList`, base);
    expect(plain.status).toBe(200);
    expect(plain.data).toEqual({ data: expect.any(Array), total: expect.any(Number) });
    for (const field of [...def.sorts, 'id']) {
      for (const order of ['ASC', 'DESC']) {
        const sorted = await su.query(`${def.name}.getList`, { ...base, sort: { field, order } });
        expect([field, order, sorted.status]).toEqual([field, order, 200]);
      }
    }
    if (def.search.length) {
      expect((await su.query(`${def.name}.getList`, { ...base, filter: { q: "o'Neil %_\\" } })).status).toBe(200);
    }
    const ids = plain.data.data.map((r: { id: string }) => r.id);
    const many = await su.query(`${def.name}.getMany`, { ids });
    expect(many.data.data.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort());
    for (const row of plain.data.data) expect(row.id).toBe(String(row[def.key]));
  });

  // The class of a caller's key looked up in a map of the definition: a filter or sort named after
  // an Object.prototype member (`constructor`, `toString` …) once reached a non-filter function of the
  // systems list whose result (the caller's value) became SQL text. Every list, every such name,
  // values of every kind: a clear 400, never SQL run, never a 500.
  const INHERITED = Object.getOwnPropertyNames(Object.prototype);
  it.each(RESOURCES.map((r) => [r.name, r] as const))('%s: filters and sorts named after Object.prototype members are refused (400)', async (_name, def) => {
    const base = { pagination: { page: 1, perPage: 5 } };
    // Written on the wire by hand: superjson's own client refuses some of these keys before sending.
    const values: [unknown, string[] | undefined][] = [
      ['1) OR TRUE --', undefined],
      ['2026-01-02T03:04:05.000Z', ['Date']],
      [['a', 'b'], undefined],
      [1, undefined],
      [true, undefined],
    ];
    for (const key of INHERITED) {
      for (const [value, type] of values) {
        const wire = { json: { ...base, filter: { [key]: value } }, ...(type ? { meta: { values: { [`filter.${key}`]: type } } } : {}) };
        const res = await su.request('GET', `/api/trpc/${def.name}.getList?input=${encodeURIComponent(JSON.stringify(wire))}`);
        // `__proto__` is dropped when the input is read (an own key of that name is never kept): the
        // list is answered unfiltered; every other name is an unknown filter.
        expect([key, String(value), key === '__proto__' && res.status === 200 ? 400 : res.status]).toEqual([key, String(value), 400]);
        expect(res.text).not.toMatch(/SELECT |syntax error|QueryFailed/);
      }
      const sorted = await su.query(`${def.name}.getList`, { ...base, filter: {}, sort: { field: key, order: 'ASC' } });
      expect([key, sorted.status]).toEqual([key, 400]);
    }
  });
});
