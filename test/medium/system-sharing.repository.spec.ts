import type { Scope } from '../../server/src/access/scope';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { shareId, SqlSystemSharingRepository } from '../../server/src/systems/system-sharing.repository';
import { mediumWorld, type MediumWorld, PAGE } from './world';

/** system-sharing.repository.ts on a real database: the rows, and who sees them. */
describe('system sharing repository (database)', () => {
  let w: MediumWorld;
  let repo: SqlSystemSharingRepository;
  let systems: Record<string, string>;
  /** A caller of a company that owns nothing and receives nothing. */
  const stranger: Scope = { user_cuid: 'stranger', superuser: false, companies: ['strangerco'], adminCompanies: ['strangerco'] };

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new SqlSystemSharingRepository(w.ds);
    const rows = await w.ds.query<{ system_cuid: string; name: string }[]>(`SELECT system_cuid, name FROM system`);
    systems = Object.fromEntries(rows.map((r) => [r.name, r.system_cuid]));
  });
  afterAll(() => w?.db.close());

  it('list: the owner side and the receiving side both see a share, a superuser all; rows carry names and the owner', async () => {
    const basic = await repo.list(await w.scope('basic@demo.local'), PAGE);
    expect(basic.total).toBe(2);
    // By receiving company's name by default: Demo Solar Ltd receives the clinic, Other Energy Co the workshop.
    expect(basic.data.map((s) => s.system_name)).toEqual([DEMO_SYSTEMS.clinic, DEMO_SYSTEMS.workshop]);
    expect(basic.data[1]).toEqual({
      id: shareId(systems[DEMO_SYSTEMS.workshop], w.other),
      system_cuid: systems[DEMO_SYSTEMS.workshop],
      company_cuid: w.other,
      membership_cuid: expect.any(String),
      change: true,
      company_name: 'Other Energy Co',
      system_name: DEMO_SYSTEMS.workshop,
      owner_company_cuid: w.demo,
    });
    expect((await repo.list(await w.scope('other@demo.local'), PAGE)).total).toBe(2);
    expect((await repo.list(await w.scope('superuser@demo.local'), PAGE)).total).toBe(2);
  });

  it('a caller of another company gets nothing', async () => {
    expect(await repo.list(stranger, PAGE)).toEqual({ data: [], total: 0 });
    const ids = (await repo.list(await w.scope('superuser@demo.local'), PAGE)).data.map((s) => s.id);
    expect(await repo.visibleMany(stranger, ids)).toEqual([]);
    expect(await repo.transaction((rows) => rows.lockVisible(stranger, ids[0]))).toBeUndefined();
    expect(await repo.visibleSystem(stranger, systems[DEMO_SYSTEMS.farm])).toBeUndefined();
    // A system shared with the caller's company is visible; another company's unshared one is not.
    const other = await w.scope('other@demo.local');
    expect(await repo.visibleSystem(other, systems[DEMO_SYSTEMS.workshop])).toEqual({ company_cuid: w.demo });
    expect(await repo.visibleSystem(other, systems[DEMO_SYSTEMS.farm])).toBeUndefined();
  });

  it('list: filters, search, paging and sorting', async () => {
    const basic = await w.scope('basic@demo.local');
    expect((await repo.list(basic, { ...PAGE, filter: { owner_company_cuid: w.demo } })).data.map((s) => s.system_name)).toEqual([DEMO_SYSTEMS.workshop]);
    expect((await repo.list(basic, { ...PAGE, filter: { change: false } })).data.map((s) => s.system_name)).toEqual([DEMO_SYSTEMS.clinic]);
    expect((await repo.list(basic, { ...PAGE, filter: { q: 'CLINIC' } })).total).toBe(1);
    const id = shareId(systems[DEMO_SYSTEMS.clinic], w.demo);
    expect((await repo.list(basic, { ...PAGE, filter: { id: [id] } })).data.map((s) => s.id)).toEqual([id]);
    const page = await repo.list(basic, { pagination: { page: 2, perPage: 1 }, sort: { field: 'system_name', order: 'DESC' }, filter: {} });
    expect(page).toEqual({ data: [expect.objectContaining({ system_name: DEMO_SYSTEMS.workshop })], total: 2 });
  });

  it("insert, setChange and delete write the rows; the caller's own membership is found", async () => {
    const admin = await w.scope('installer@demo.local');
    const farm = systems[DEMO_SYSTEMS.farm];
    expect(await repo.shareExists(admin, farm, w.other)).toBe(false);
    expect(await repo.companyExists(admin, w.other)).toBe(true);
    expect(await repo.companyExists(admin, 'nothing')).toBe(false);
    const membership_cuid = await repo.ownMembership(admin, w.demo);
    expect(membership_cuid).toEqual(expect.any(String));
    expect(await repo.ownMembership(admin, w.other)).toBeUndefined();
    await repo.transaction((rows) => rows.insert(admin, { system_cuid: farm, company_cuid: w.other, membership_cuid: membership_cuid!, change: false }));
    expect(await repo.shareExists(admin, farm, w.other)).toBe(true);
    await repo.setChange(admin, farm, w.other, true);
    expect(await repo.record(stranger, farm, w.other)).toMatchObject({ change: true, membership_cuid, owner_company_cuid: w.demo });
    expect((await repo.visibleMany(await w.scope('other@demo.local'), [shareId(farm, w.other), 'not-a-share-id'])).map((s) => s.id)).toEqual([
      shareId(farm, w.other),
    ]);
    await repo.delete(admin, farm, w.other);
    expect(await repo.record(admin, farm, w.other)).toBeUndefined();
  });
});
