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
});
