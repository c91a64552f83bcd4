/**
 * The generic CRUD's statements (server/src/crud/crud.repository.ts) on a real database: what a
 * scope sees in a page, a count and a read by key, and that another company's rows never come
 * back, whatever ids or filters the caller names.
 */
import { loadConfig } from '../../server/src/api/app-config';
import { CrudRepository } from '../../server/src/crud/crud.repository';
import { systemOwner } from '../../server/src/crud/references.repository';
import { systemVisibleTo as systemVisible } from '../../server/src/tenancy/visible-records.repository';
import { siteResource } from '../../server/src/sites/site.resource';
import { systemResource } from '../../server/src/systems/system.resource';
import { type MediumWorld, mediumWorld, PAGE } from './world';

describe('CrudRepository', () => {
  let w: MediumWorld;
  let repo: CrudRepository;
  let own: string[];
  let foreign: string[];

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new CrudRepository(w.ds, loadConfig({}));
    const systems = await w.ds.query<{ system_cuid: string; company_cuid: string }[]>(`SELECT system_cuid, company_cuid FROM system ORDER BY name`);
    own = systems.filter((s) => s.company_cuid === w.demo).map((s) => s.system_cuid);
    foreign = systems.filter((s) => s.company_cuid === w.other).map((s) => s.system_cuid);
    // The demo data has both kinds, none shared between the two companies.
    expect(own.length).toBeGreaterThan(1);
    expect(foreign.length).toBeGreaterThan(0);
    await w.ds.query(`DELETE FROM system_sharing`);
  });
  afterAll(async () => {
    await w?.db.close();
  });

  const keys = (rows: Record<string, unknown>[]) => rows.map((r) => String(r.system_cuid)).sort();

  it("a page and its count hold the scope's systems only (the computed columns path and the plain one)", async () => {
    const scope = await w.scope('expert@demo.local');
    const byName = await repo.listPage(scope, systemResource, PAGE, 'name', 'ASC', undefined);
    expect(keys(byName)).toEqual([...own].sort());
    expect(await repo.count(scope, systemResource, {}, undefined)).toBe(own.length);
    // Sorted by the key: still the same rows, in the key's order.
    const byKey = await repo.listPage(scope, systemResource, PAGE, systemResource.key, 'DESC', undefined);
    expect(byKey.map((r) => String(r.system_cuid))).toEqual([...own].sort().reverse());
  });

  it("another company's rows never come back: not by key, not by a filter naming them", async () => {
    const scope = await w.scope('expert@demo.local');
    expect(await repo.byKeys(scope, systemResource, [...foreign, own[0]])).toHaveLength(1);
    const filtered = await repo.listPage(scope, systemResource, { ...PAGE, filter: { company_cuid: w.other } }, 'name', 'ASC', undefined);
    expect(filtered).toEqual([]);
    expect(await repo.count(scope, systemResource, { company_cuid: w.other }, undefined)).toBe(0);
    // The superuser's scope sees both companies.
    const all = await repo.byKeys(await w.scope('superuser@demo.local'), systemResource, [...foreign, ...own]);
    expect(all).toHaveLength(own.length + foreign.length);
  });

  it('writes in a transaction: insert answers the key, update and delete touch that row only', async () => {
    const before = Number((await w.ds.query(`SELECT count(*)::int AS n FROM site WHERE company_cuid = $1`, [w.other]))[0].n);
    await w.ds.transaction(async (tx) => {
      const key = String(await repo.insert(tx, siteResource, { site_cuid: 'medium-site-1', name: 'Medium site', company_cuid: w.demo, lat: null, long: null }));
      expect(key).toBe('medium-site-1');
      await repo.update(tx, siteResource, key, { name: 'Medium site renamed' }, ['name']);
      const [row] = await repo.byKeys(null, siteResource, [key], tx);
      expect(row).toMatchObject({ name: 'Medium site renamed', company_cuid: w.demo });
      await repo.delete(tx, siteResource, key);
      expect(await repo.byKeys(null, siteResource, [key], tx)).toEqual([]);
    });
    expect(Number((await w.ds.query(`SELECT count(*)::int AS n FROM site WHERE company_cuid = $1`, [w.other]))[0].n)).toBe(before);
  });

  it('references: a system of another company is not visible to the caller; its owner is read as it is', async () => {
    const scope = await w.scope('installer@demo.local');
    expect(await systemVisible(scope, w.ds.manager, own[0])).toBe(true);
    expect(await systemVisible(scope, w.ds.manager, foreign[0])).toBe(false);
    expect(await systemVisible(await w.scope('superuser@demo.local'), w.ds.manager, foreign[0])).toBe(true);
    expect(await systemOwner(w.ds.manager, foreign[0])).toEqual({ company_cuid: w.other, shares: [] });
  });
});
