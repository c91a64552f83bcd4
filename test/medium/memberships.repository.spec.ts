import { SqlMembershipsRepository } from '../../server/src/companies/memberships.repository';
import { mediumWorld, type MediumWorld, PAGE } from './world';

/** memberships.repository.ts on a real database: the rows, and who sees them. */
describe('memberships repository (database)', () => {
  let w: MediumWorld;
  let repo: SqlMembershipsRepository;

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new SqlMembershipsRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  const emails = (rows: { user_email: string }[]) => rows.map((r) => r.user_email).sort();

  it("list: a company admin sees their company's memberships, a plain member only their own, a superuser all", async () => {
    const admin = await repo.list(await w.scope('installer@demo.local'), PAGE);
    expect(emails(admin.data)).toEqual(['basic@demo.local', 'expert@demo.local', 'installer@demo.local', 'superuser@demo.local']);
    expect(admin.data[0]).toEqual(
      expect.objectContaining({ id: admin.data[0].membership_cuid, company_name: 'Demo Solar Ltd', role_level: expect.any(Number) }),
    );
    expect(emails((await repo.list(await w.scope('basic@demo.local'), PAGE)).data)).toEqual(['basic@demo.local']);
    expect((await repo.list(await w.scope('superuser@demo.local'), PAGE)).total).toBe(5);
  });

  it('a caller of another company gets nothing of the demo company', async () => {
    const other = await w.scope('other@demo.local');
    expect(await repo.list(other, { ...PAGE, filter: { company_cuid: w.demo } })).toEqual({ data: [], total: 0 });
    expect(await repo.list(other, PAGE, { target: 'company_cuid', id: w.demo })).toEqual({ data: [], total: 0 });
    const demoIds = (await repo.list(await w.scope('superuser@demo.local'), { ...PAGE, filter: { company_cuid: w.demo } })).data.map((m) => m.id);
    expect(demoIds).toHaveLength(4);
    expect(await repo.visibleMany(other, demoIds)).toEqual([]);
    expect(await repo.ofUser(other, w.users['basic@demo.local'])).toEqual([]);
    expect(await repo.transaction((rows) => rows.lockMembership(other, demoIds[0]))).toBeUndefined();
    expect(await repo.transaction((rows) => rows.lockRecord(other, demoIds[0]))).toBeUndefined();
    expect(await repo.userReachable(other, w.users['basic@demo.local'])).toBe(false);
  });

  it("ofUser: one's own memberships in full; another user's only in companies the caller administers", async () => {
    const basic = await w.scope('basic@demo.local');
    const own = await repo.ofUser(basic, w.users['basic@demo.local']);
    expect(own).toEqual([
      expect.objectContaining({
        company_cuid: w.demo,
        company: expect.objectContaining({ name: 'Demo Solar Ltd' }),
        user: expect.objectContaining({ email: 'basic@demo.local', meta: expect.any(Object) }),
        role: expect.objectContaining({ level: 3 }),
      }),
    ]);
    expect(await repo.ofUser(basic, w.users['expert@demo.local'])).toEqual([]);
    expect(await repo.ofUser(await w.scope('installer@demo.local'), w.users['expert@demo.local'])).toHaveLength(1);
  });

  it("a plain member reaches (to be refused) their colleagues' memberships, not another company's", async () => {
    const basic = await w.scope('basic@demo.local');
    const expert = (await repo.ofUser(await w.scope('superuser@demo.local'), w.users['expert@demo.local']))[0];
    await expect(repo.transaction((rows) => rows.lockMembership(basic, expert.membership_cuid))).resolves.toMatchObject({ user_cuid: expert.user_cuid });
    expect(await repo.userReachable(basic, w.users['expert@demo.local'])).toBe(true);
    expect(await repo.userReachable(basic, w.users['other@demo.local'])).toBe(false);
  });

  it('insert, setRole and delete write the rows; levels and membership checks read them', async () => {
    const root = await w.scope('superuser@demo.local');
    const [role2] = await w.ds.query<{ role_cuid: string }[]>(`SELECT role_cuid FROM role WHERE level = 2`);
    const other = w.users['other@demo.local'];
    expect(await repo.isMember(root, other, w.demo)).toBe(false);
    const id = await repo.transaction((rows) =>
      rows.insert(root, { user_cuid: other, company_cuid: w.demo, role_cuid: role2.role_cuid, is_company_admin: false }),
    );
    expect(await repo.isMember(root, other, w.demo)).toBe(true);
    expect((await repo.userLevels(root, other)).sort((a, b) => a.level - b.level)).toEqual([
      { company_cuid: w.demo, level: 2 },
      { company_cuid: w.other, level: 3 },
    ]);
    const [role3] = await w.ds.query<{ role_cuid: string }[]>(`SELECT role_cuid FROM role WHERE level = 3`);
    await repo.setRole(root, id, role3.role_cuid, true);
    expect(await repo.record(root, id)).toMatchObject({ role_level: 3, is_company_admin: true, user_email: 'other@demo.local' });
    expect(await repo.membership(root, id)).toMatchObject({ role: { level: 3 }, is_company_admin: true });
    await repo.delete(root, id);
    expect(await repo.record(root, id)).toBeUndefined();
    expect(await repo.role(root, role2.role_cuid)).toEqual({ role_cuid: role2.role_cuid, level: 2 });
    expect(await repo.userExists(root, 'nobody')).toBe(false);
    expect(await repo.companyExists(root, 'nothing')).toBe(false);
  });
});
