import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const list = (filter: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  pagination: { page: 1, perPage: 100 },
  sort: { field: 'user_email', order: 'ASC' },
  filter,
  ...extra,
});
type Rec = { user_email: string; company_name: string; role_level: number; membership_cuid: string };
const emails = (answer: { data?: { data: Rec[] } }) => answer.data!.data.map((m) => m.user_email);

describe('companyMembership resource (spec §6 Membership edit)', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const user: Record<string, string> = {};
  const ms: Record<string, string> = {};
  const role: Record<number, string> = {};
  let demo: string;
  let other: string;

  const membershipRows = () => t.db.dataSource.query(`SELECT membership_cuid, role_cuid, is_company_admin FROM company_membership ORDER BY 1`);
  const signIn = async (who: string) => {
    as[who] = new HttpClient(t.baseUrl);
    expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
  };
  const reload = async () => {
    for (const m of await t.db.dataSource.query(
      `SELECT m.membership_cuid, u.email, c.name FROM company_membership m JOIN "user" u USING (user_cuid) JOIN company c USING (company_cuid)`,
    )) {
      ms[`${m.email.split('@')[0]}@${m.name === DEMO_COMPANY_NAME ? 'demo' : m.name === OTHER_COMPANY_NAME ? 'other' : m.name}`] = m.membership_cuid;
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    const ds = t.db.dataSource;
    await addMember(ds, 'otheradmin@demo.local', OTHER_COMPANY_NAME, 2, true);
    await addMember(ds, 'helper@demo.local', DEMO_COMPANY_NAME, 3);
    for (const r of await ds.query(`SELECT role_cuid, level FROM role`)) role[Number(r.level)] = r.role_cuid;
    for (const u of await ds.query(`SELECT user_cuid, email FROM "user"`)) user[u.email.split('@')[0]] = u.user_cuid;
    [{ company_cuid: demo }] = await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    [{ company_cuid: other }] = await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    await reload();
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other', 'otheradmin']) await signIn(who);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('reading', () => {
    it("needs company admin; shows the memberships of the caller's companies with names for display", async () => {
      expect((await as.expert.query('companyMembership.getList', list())).status).toBe(403);
      expect((await as.other.query('companyMembership.getList', list())).status).toBe(403);
      const mine = await as.installer.query('companyMembership.getList', list());
      expect(mine.status).toBe(200);
      expect(emails(mine)).toEqual(['basic@demo.local', 'expert@demo.local', 'helper@demo.local', 'installer@demo.local', 'superuser@demo.local']);
      expect(mine.data.total).toBe(5);
      const expert = mine.data.data.find((m: Rec) => m.user_email === 'expert@demo.local');
      expect(expert).toEqual({
        id: ms['expert@demo'],
        membership_cuid: ms['expert@demo'],
        role_cuid: role[2],
        user_cuid: user.expert,
        company_cuid: demo,
        is_company_admin: false,
        user_email: 'expert@demo.local',
        user_name: 'Demo Expert',
        role_name: expect.any(String),
        role_level: 2,
        company_name: DEMO_COMPANY_NAME,
      });
      expect(emails(await as.otheradmin.query('companyMembership.getList', list()))).toEqual(['other@demo.local', 'otheradmin@demo.local']);
      expect((await as.superuser.query('companyMembership.getList', list())).data.total).toBe(7);
    });

    it('every read needs company admin (403 for plain members)', async () => {
      for (const who of ['expert', 'basic', 'other']) {
        expect((await as[who].query('companyMembership.getOne', { id: ms['basic@demo'] })).status).toBe(403);
        expect((await as[who].query('companyMembership.getMany', { ids: [ms['basic@demo']] })).status).toBe(403);
        expect((await as[who].query('companyMembership.getManyReference', list({}, { target: 'company_cuid', id: demo }))).status).toBe(403);
      }
      // manyForUser (the session's own call) stays open to oneself
      expect((await as.basic.query('companyMembership.manyForUser', { user_cuid: user.basic })).status).toBe(200);
    });

    it("another company's membership is as missing as an unknown one", async () => {
      const foreign = await as.installer.query('companyMembership.getOne', { id: ms['other@other'] });
      const unknown = await as.installer.query('companyMembership.getOne', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
      expect(foreign.status).toBe(404);
      expect(foreign.error).toEqual(unknown.error);
      expect((await as.otheradmin.query('companyMembership.getOne', { id: ms['basic@demo'] })).status).toBe(404);
      const many = await as.installer.query('companyMembership.getMany', { ids: [ms['other@other'], ms['basic@demo']] });
      expect(emails(many)).toEqual(['basic@demo.local']);
      expect((await as.installer.query('companyMembership.getList', list({ company_cuid: other }))).data.total).toBe(0);
      expect((await as.installer.query('companyMembership.getList', list({ user_cuid: user.other }))).data.total).toBe(0);
      expect((await as.installer.query('companyMembership.getManyReference', list({}, { target: 'company_cuid', id: other }))).data.total).toBe(0);
    });

    it("filters, search over the user's email and name, sort, getManyReference", async () => {
      expect(emails(await as.superuser.query('companyMembership.getList', list({ q: 'demo exp' })))).toEqual(['expert@demo.local']);
      expect(emails(await as.superuser.query('companyMembership.getList', list({ is_company_admin: true, company_cuid: demo })))).toEqual([
        'installer@demo.local',
        'superuser@demo.local',
      ]);
      expect(emails(await as.superuser.query('companyMembership.getList', list({ role_cuid: role[3], company_cuid: demo })))).toEqual([
        'basic@demo.local',
        'helper@demo.local',
      ]);
      const byLevel = await as.installer.query('companyMembership.getList', { ...list(), sort: { field: 'role_level', order: 'DESC' } });
      expect(byLevel.data.data.map((m: Rec) => m.role_level)).toEqual([3, 3, 2, 1, 0]);
      const ref = await as.superuser.query('companyMembership.getManyReference', list({}, { target: 'user_cuid', id: user.other }));
      expect(ref.data.data.map((m: Rec) => m.company_name)).toEqual([OTHER_COMPANY_NAME]);
      for (const bad of [list({ nope: 1 }), { ...list(), sort: { field: 'u.email', order: 'ASC' } }, list({ is_company_admin: 'perhaps' })]) {
        const answer = await as.superuser.query('companyMembership.getList', bad);
        expect(answer.status).toBe(400);
        expect(answer.error?.data.fieldErrors?.length).toBeGreaterThan(0);
      }
    });
  });

  describe('create', () => {
    it('a second membership of the same user in the same company answers CONFLICT on user_cuid', async () => {
      const before = await membershipRows();
      const dup = await as.installer.mutate('companyMembership.create', { data: { user_cuid: user.basic, company_cuid: demo, role_cuid: role[3] } });
      expect(dup.status).toBe(409);
      expect(dup.error?.data.fieldErrors?.[0].path).toBe('user_cuid');
      expect(await membershipRows()).toEqual(before);
    });

    it("refusals: foreign company or user (404), not admin (403), oneself (403), a role above one's own (403); nothing written", async () => {
      const before = await membershipRows();
      const add = (who: string, data: Record<string, unknown>) => as[who].mutate('companyMembership.create', { data });
      expect((await add('installer', { user_cuid: user.basic, company_cuid: other, role_cuid: role[3] })).status).toBe(404);
      // otheradmin cannot see Demo's users
      expect((await add('otheradmin', { user_cuid: user.basic, company_cuid: other, role_cuid: role[3] })).status).toBe(404);
      expect((await add('expert', { user_cuid: user.basic, company_cuid: demo, role_cuid: role[3] })).status).toBe(403);
      expect((await add('otheradmin', { user_cuid: user.otheradmin, company_cuid: other, role_cuid: role[2] })).status).toBe(403);
      expect((await add('otheradmin', { user_cuid: user.other, company_cuid: other, role_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' })).status).toBe(404);
      expect(await membershipRows()).toEqual(before);
      // bad input
      const bad = await add('installer', { user_cuid: '', company_cuid: demo, role_cuid: role[3], extra: 1 });
      expect(bad.status).toBe(400);
      expect(bad.error?.data.fieldErrors?.map((f) => f.path)).toEqual(expect.arrayContaining(['data.user_cuid', 'data']));
      expect(await membershipRows()).toEqual(before);
    });

    it('a superuser adds a Demo user to Other; a company admin cannot grant more than their own level', async () => {
      const created = await as.superuser.mutate('companyMembership.create', {
        data: { user_cuid: user.helper, company_cuid: other, role_cuid: role[3] },
      });
      expect(created.status).toBe(200);
      expect(created.data.data).toMatchObject({ user_email: 'helper@demo.local', company_name: OTHER_COMPANY_NAME, role_level: 3, is_company_admin: false });
      expect(created.data.data.id).toBe(created.data.data.membership_cuid);
      await reload();
      // otheradmin (level 2 in Other) now sees helper, but cannot raise them above level 2
      await signIn('otheradmin');
      const up = await as.otheradmin.mutate('companyMembership.update', { id: ms['helper@other'], data: { role_cuid: role[1] } });
      expect(up.status).toBe(403);
      expect(up.error?.message).toMatch(/above your own/);
      const ok = await as.otheradmin.mutate('companyMembership.update', {
        id: ms['helper@other'],
        data: { role_cuid: role[2], is_company_admin: true, user_email: 'ignored', company_cuid: demo },
        previousData: {},
      });
      expect(ok.status).toBe(200);
      expect(ok.data.data).toMatchObject({ role_level: 2, is_company_admin: true, company_cuid: other });
    });
  });

  describe('update', () => {
    it("admin of the company edits others, never themselves; another company's admin gets 404; nothing written on refusal", async () => {
      const before = await membershipRows();
      const own = await as.installer.mutate('companyMembership.update', { id: ms['installer@demo'], data: { is_company_admin: false } });
      expect(own.status).toBe(403);
      expect((await as.otheradmin.mutate('companyMembership.update', { id: ms['basic@demo'], data: { role_cuid: role[2] } })).status).toBe(404);
      expect((await as.expert.mutate('companyMembership.update', { id: ms['basic@demo'], data: { role_cuid: role[2] } })).status).toBe(403);
      // an installer admin cannot demote the superuser (more powerful than them)
      expect((await as.installer.mutate('companyMembership.update', { id: ms['superuser@demo'], data: { role_cuid: role[3] } })).status).toBe(403);
      const bad = await as.installer.mutate('companyMembership.update', { id: ms['basic@demo'], data: { role_cuid: '' } });
      expect(bad.status).toBe(400);
      expect(bad.error?.data.fieldErrors?.[0].path).toBe('data.role_cuid');
      expect(await membershipRows()).toEqual(before);
      const done = await as.installer.mutate('companyMembership.update', { id: ms['basic@demo'], data: { role_cuid: role[2] } });
      expect(done.status).toBe(200);
      expect(done.data.data).toMatchObject({ user_email: 'basic@demo.local', role_level: 2 });
      // saving an unchanged form is a no-op, not an error
      const same = await as.installer.mutate('companyMembership.update', { id: ms['basic@demo'], data: { role_cuid: role[2] } });
      expect(same.status).toBe(200);
    });

    it('a superuser edits anyone but not their own level-0 membership; the original input shape still works', async () => {
      await signIn('superuser');
      const own = await as.superuser.mutate('companyMembership.update', { id: ms['superuser@demo'], data: { role_cuid: role[1] } });
      expect(own.status).toBe(403);
      const legacy = await as.superuser.mutate('companyMembership.update', { membership_cuid: ms['other@other'], role_cuid: role[2] });
      expect(legacy.status).toBe(200);
      expect(legacy.data.role.level).toBe(2);
    });
  });

  describe('memberships of a superuser', () => {
    it("an admin cannot change or remove a superuser's membership in their company (not even a Basic one); a superuser can", async () => {
      await t.db.dataSource.query(
        `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ('susbasicinother000000001', $1, $2, $3, false)`,
        [role[3], user.superuser, other],
      );
      await signIn('otheradmin');
      const before = await membershipRows();
      expect((await as.otheradmin.mutate('companyMembership.update', { id: 'susbasicinother000000001', data: { is_company_admin: true } })).status).toBe(403);
      expect((await as.otheradmin.mutate('companyMembership.update', { membership_cuid: 'susbasicinother000000001', role_cuid: role[2] })).status).toBe(403);
      expect((await as.otheradmin.mutate('companyMembership.delete', { id: 'susbasicinother000000001' })).status).toBe(403);
      expect((await as.otheradmin.mutate('companyMembership.deleteMany', { ids: ['susbasicinother000000001'] })).status).toBe(403);
      expect(await membershipRows()).toEqual(before);
      await signIn('superuser');
      expect((await as.superuser.mutate('companyMembership.delete', { id: 'susbasicinother000000001' })).status).toBe(200);
      await signIn('superuser'); // a removed membership signs its user out
    });
  });

  describe('delete', () => {
    it('delete and deleteMany: same rules, all or nothing; the member is signed out', async () => {
      await signIn('installer');
      const victim = await addMember(t.db.dataSource, 'leaver@demo.local', DEMO_COMPANY_NAME, 3);
      await reload();
      const leaver = new HttpClient(t.baseUrl);
      expect((await leaver.login('leaver@demo.local')).status).toBe(200);
      const before = await membershipRows();
      expect((await as.otheradmin.mutate('companyMembership.delete', { id: ms['leaver@demo'] })).status).toBe(404);
      expect((await as.expert.mutate('companyMembership.delete', { id: ms['leaver@demo'] })).status).toBe(403);
      expect((await as.installer.mutate('companyMembership.delete', { id: ms['installer@demo'] })).status).toBe(403);
      expect((await as.installer.mutate('companyMembership.deleteMany', { ids: [ms['leaver@demo'], ms['superuser@demo']] })).status).toBe(403);
      expect((await as.installer.mutate('companyMembership.deleteMany', { ids: [ms['leaver@demo'], ms['other@other']] })).status).toBe(404);
      expect((await as.superuser.mutate('companyMembership.delete', { id: ms['superuser@demo'] })).status).toBe(403);
      expect(await membershipRows()).toEqual(before);
      const gone = await as.installer.mutate('companyMembership.delete', { id: ms['leaver@demo'] });
      expect(gone.status).toBe(200);
      expect(gone.data.data).toMatchObject({ user_cuid: victim, company_name: DEMO_COMPANY_NAME });
      expect((await leaver.request('GET', '/api/auth/session')).status).toBe(401);
      const many = await as.superuser.mutate('companyMembership.deleteMany', { ids: [ms['helper@other'], ms['helper@demo']] });
      expect(many.status).toBe(200);
      expect(many.data.data.sort()).toEqual([ms['helper@other'], ms['helper@demo']].sort());
      expect((await membershipRows()).length).toBe(before.length - 3);
    });
  });
});
