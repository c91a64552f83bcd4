import { SqlUsersRepository } from '../../server/src/users/users.repository';
import { mediumWorld, type MediumWorld, PAGE } from './world';

/** users.repository.ts on a real database: the rows, and who sees them. */
describe('users repository (database)', () => {
  let w: MediumWorld;
  let repo: SqlUsersRepository;

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new SqlUsersRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  const emails = (rows: { email: string }[]) => rows.map((r) => r.email).sort();

  it('list: a company admin sees the users of their company and themselves, a superuser all', async () => {
    const admin = await repo.list(await w.scope('installer@demo.local'), PAGE);
    expect(emails(admin.data)).toEqual(['basic@demo.local', 'expert@demo.local', 'installer@demo.local', 'superuser@demo.local']);
    expect(admin.total).toBe(4);
    expect(admin.data[0]).toEqual(
      expect.objectContaining({ id: admin.data[0].user_cuid, meta: expect.any(Object), inactive: false, created_at: expect.any(Date) }),
    );
    const all = await repo.list(await w.scope('superuser@demo.local'), PAGE);
    expect(all.total).toBe(5);
  });

  it('list: a plain member sees only themselves; a caller of another company gets nothing of the demo company', async () => {
    expect(emails((await repo.list(await w.scope('basic@demo.local'), PAGE)).data)).toEqual(['basic@demo.local']);
    const other = await w.scope('other@demo.local');
    expect(emails((await repo.list(other, PAGE)).data)).toEqual(['other@demo.local']);
    expect(await repo.list(other, { ...PAGE, filter: { company_cuid: w.demo } })).toEqual({ data: [], total: 0 });
    expect(await repo.visibleMany(other, [w.users['basic@demo.local'], w.users['installer@demo.local']])).toEqual([]);
    expect(await repo.visibleByEmail(other, 'basic@demo.local')).toBeUndefined();
    expect(await repo.visibleWithLevels(other, w.users['basic@demo.local'])).toBeUndefined();
  });

  it("list: filters, the company reference only within the caller's reach, paging and sorting", async () => {
    const admin = await w.scope('installer@demo.local');
    expect(emails((await repo.list(admin, { ...PAGE, filter: { q: 'EXPERT' } })).data)).toEqual(['expert@demo.local']);
    expect((await repo.list(admin, PAGE, { target: 'company_cuid', id: w.demo })).total).toBe(4);
    expect((await repo.list(admin, PAGE, { target: 'company_cuid', id: w.other })).total).toBe(0);
    const page = await repo.list(admin, { pagination: { page: 2, perPage: 2 }, sort: { field: 'email', order: 'ASC' }, filter: {} });
    expect(page.data.map((u) => u.email)).toEqual(['installer@demo.local', 'superuser@demo.local']);
    expect(page.total).toBe(4);
  });

  it('visibleWithLevels and lockReachable: every membership with its level; a colleague is reachable, not visible, to a plain member', async () => {
    const admin = await w.scope('installer@demo.local');
    expect(await repo.visibleWithLevels(admin, w.users['expert@demo.local'])).toEqual({
      user_cuid: w.users['expert@demo.local'],
      memberships: [{ company_cuid: w.demo, level: 2 }],
    });
    const basic = await w.scope('basic@demo.local');
    expect(await repo.visibleWithLevels(basic, w.users['expert@demo.local'])).toBeUndefined();
    const locked = await repo.transaction((rows) => rows.lockReachable(basic, w.users['expert@demo.local']));
    expect(locked).toMatchObject({ email: 'expert@demo.local', memberships: [{ company_cuid: w.demo, level: 2 }], password: expect.any(String) });
    const other = await w.scope('other@demo.local');
    expect(await repo.transaction((rows) => rows.lockReachable(other, w.users['expert@demo.local']))).toBeUndefined();
  });

  it('insert, update, setInactive and delete write the rows; the caller is recorded as who deactivated', async () => {
    const admin = await w.scope('installer@demo.local');
    expect(await repo.emailTaken(admin, 'medium@demo.local')).toBe(false);
    const [role] = await w.ds.query<{ role_cuid: string }[]>(`SELECT role_cuid FROM role WHERE level = 3`);
    const id = await repo.transaction((rows) =>
      rows.insert(admin, {
        email: 'medium@demo.local',
        password: 'x',
        name: 'Medium',
        phone: null,
        company_cuid: w.demo,
        role_cuid: role.role_cuid,
        is_company_admin: false,
      }),
    );
    expect(await repo.emailTaken(admin, 'medium@demo.local')).toBe(true);
    expect(await repo.emailTaken(admin, 'medium@demo.local', id)).toBe(false);
    await repo.update(admin, id, { name: 'Renamed', inactive: true });
    expect(await repo.record(admin, id)).toMatchObject({ name: 'Renamed', inactive: true, inactivated_by_user_cuid: admin.user_cuid });
    expect(await repo.setInactive(admin, id, false)).toMatchObject({ inactive: false, inactivated_by_user_cuid: null, inactivated_at: null });
    await repo.delete(admin, id);
    expect(await repo.record(admin, id)).toBeUndefined();
  });

  it('own meta round trip, and the roles', async () => {
    const basic = await w.scope('basic@demo.local');
    await repo.transaction(async (rows) => {
      const row = await rows.lockOwnMeta(basic);
      await rows.writeOwnMeta(basic, { ...(row?.meta ?? {}), medium: true });
    });
    expect((await repo.lockOwnMeta(basic))?.meta).toMatchObject({ medium: true });
    expect((await repo.roles(basic)).map((r) => r.level)).toEqual([0, 1, 2, 3]);
    expect((await repo.roleList(basic, { ...PAGE, filter: { level: 2 } })).data).toEqual([expect.objectContaining({ level: 2 })]);
    expect(await repo.roleLevel(basic, 'nope')).toBeUndefined();
    expect(await repo.companyExists(basic, w.other)).toBe(true);
  });
});
