import type { DataSource } from 'typeorm';
import type { Actor } from '../../../shared/access/policy';
import { loadConfig } from '../api/app-config';
import { systemResource } from '../systems/system.resource';
import { CrudService } from './crud.service';
import type { ResourceDefinition } from './resource';

/**
 * List totals: a count is kept 5 s, recounted in its last second by one caller while the others
 * still get it, and a recount that a write overtook is thrown away.
 */
describe('cached list counts', () => {
  const def = systemResource as unknown as ResourceDefinition;
  const actor = { user_cuid: 'u1', memberships: [{ company_cuid: 'c1', level: 1, is_company_admin: false }] } as unknown as Actor;
  const params = { pagination: { page: 1, perPage: 25 }, filter: {} };
  let now: number;
  let rows: number;
  let counts: { resolve: (n: number) => void }[];
  let crud: CrudService;

  beforeEach(() => {
    now = 1_000_000;
    rows = 10;
    counts = [];
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const ds = {
      entityMetadatas: [],
      query: (sql: string) =>
        sql.startsWith('SELECT count(*)') ? new Promise((resolve) => counts.push({ resolve: (n) => resolve([{ n: String(n) }]) })) : Promise.resolve([]),
    } as unknown as DataSource;
    crud = new CrudService(ds, loadConfig({}));
  });

  afterEach(() => jest.restoreAllMocks());

  const total = async () => (await crud.getList(actor, def, params)).total;
  /** Answers the pending count queries with the current number of rows. */
  const answer = async () => {
    for (const c of counts.splice(0)) c.resolve(rows);
    await new Promise((r) => setImmediate(r));
  };

  it('counts once, then serves the count for 5 s, recounting ahead in the last second', async () => {
    const first = total();
    await answer();
    expect(await first).toBe(10);
    rows = 11;
    now += 3_900;
    expect(await total()).toBe(10);
    expect(counts).toHaveLength(0);
    now += 200; // 4.1 s: one recount starts, callers still get the cached count at once
    expect(await total()).toBe(10);
    expect(await total()).toBe(10);
    expect(counts).toHaveLength(1);
    await answer();
    expect(await total()).toBe(11);
    now += 3_500; // the recount is 3.5 s old: served as it is
    expect(await total()).toBe(11);
    expect(counts).toHaveLength(0);
  });

  it('throws away a recount that a write overtook', async () => {
    const first = total();
    await answer();
    await first;
    now += 4_500;
    expect(await total()).toBe(10); // recount started
    expect(counts).toHaveLength(1);
    // A write drops the cached counts before the recount answers (its number may predate the write).
    (crud as unknown as { forgetCounts(d: ResourceDefinition): void }).forgetCounts(def);
    const stale = counts.splice(0);
    const fresh = total(); // counts again, waiting for the new count
    rows = 12;
    stale[0].resolve(10);
    await answer();
    expect(await fresh).toBe(12);
    expect(await total()).toBe(12);
  });

  it('counts again once a count is 5 s old', async () => {
    const first = total();
    await answer();
    await first;
    now += 5_000;
    rows = 13;
    const again = total();
    expect(counts).toHaveLength(1);
    await answer();
    expect(await again).toBe(13);
  });
});
