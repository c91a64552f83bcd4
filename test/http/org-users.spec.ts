import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const list = (filter: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  pagination: { page: 1, perPage: 100 },
  sort: { field: 'email', order: 'ASC' },
  filter,
  ...extra,
});
const emails = (answer: { data?: { data: { email: string }[] } }) => answer.data!.data.map((u) => u.email);

describe('user resource (spec §6 Users)', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const cuid: Record<string, string> = {};
  let demo: string;
  let other: string;
  const role: Record<number, string> = {};

  const userCount = async () => Number((await t.db.dataSource.query(`SELECT count(*) AS n FROM "user"`))[0].n);
  const signIn = async (who: string) => {
    as[who] = new HttpClient(t.baseUrl);
    expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
  };

  beforeAll(async () => {
    t = await startTestApp();
    const ds = t.db.dataSource;
    await addMember(ds, 'otheradmin@demo.local', OTHER_COMPANY_NAME, 2, true);
    for (const r of await ds.query(`SELECT role_cuid, level FROM role`)) role[Number(r.level)] = r.role_cuid;
    for (const u of await ds.query(`SELECT user_cuid, email FROM "user"`)) cuid[u.email.split('@')[0]] = u.user_cuid;
    [{ company_cuid: demo }] = await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    [{ company_cuid: other }] = await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other', 'otheradmin']) await signIn(who);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('reading', () => {
    it('view needs company admin; an admin sees the users of their companies only, a superuser all', async () => {
      expect((await as.expert.query('user.getList', list())).status).toBe(403);
      expect((await as.other.query('user.getList', list())).status).toBe(403);
      const mine = await as.installer.query('user.getList', list());
      expect(mine.status).toBe(200);
      expect(emails(mine)).toEqual(['basic@demo.local', 'expert@demo.local', 'installer@demo.local', 'superuser@demo.local']);
      expect(mine.data.total).toBe(4);
      expect(emails(await as.otheradmin.query('user.getList', list()))).toEqual(['other@demo.local', 'otheradmin@demo.local']);
      const all = await as.superuser.query('user.getList', list());
      expect(all.data.total).toBe(6);
    });

    it('every read needs company admin (403 for plain members, whatever the id)', async () => {
      for (const who of ['expert', 'basic', 'other']) {
        expect((await as[who].query('user.getOne', { id: cuid[who] })).status).toBe(403);
        expect((await as[who].query('user.getMany', { ids: [cuid[who]] })).status).toBe(403);
        expect((await as[who].query('user.getManyReference', list({}, { target: 'company_cuid', id: demo }))).status).toBe(403);
      }
      expect((await new HttpClient(t.baseUrl).query('user.getList', list())).status).toBe(401);
    });

    it('records carry user_cuid and id, never the password hash', async () => {
      const one = await as.installer.query('user.getOne', { id: cuid.expert });
      expect(one.status).toBe(200);
      expect(one.data.data).toMatchObject({ id: cuid.expert, user_cuid: cuid.expert, email: 'expert@demo.local', inactive: false });
      expect(one.text).not.toMatch(/password|argon2/);
      const page = await as.superuser.query('user.getList', list());
      expect(page.text).not.toMatch(/argon2/);
    });

    it('a user of another company is as missing as an unknown id (getOne, getMany)', async () => {
      const foreign = await as.installer.query('user.getOne', { id: cuid.other });
      const unknown = await as.installer.query('user.getOne', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
      expect(foreign.status).toBe(404);
      expect(foreign.error).toEqual(unknown.error);
      expect((await as.otheradmin.query('user.getOne', { id: cuid.basic })).status).toBe(404);
      const many = await as.installer.query('user.getMany', { ids: [cuid.other, cuid.basic, cuid.otheradmin] });
      expect(emails(many)).toEqual(['basic@demo.local']);
    });

    it('search q over email and name, filters company_cuid and inactive, paging and sort', async () => {
      expect(emails(await as.superuser.query('user.getList', list({ q: 'Demo Exp' })))).toEqual(['expert@demo.local']);
      expect(emails(await as.superuser.query('user.getList', list({ q: 'OTHERADMIN@' })))).toEqual(['otheradmin@demo.local']);
      // LIKE wildcards are text, not patterns
      expect((await as.superuser.query('user.getList', list({ q: '%' }))).data.total).toBe(0);
      expect(emails(await as.superuser.query('user.getList', list({ company_cuid: other })))).toEqual(['other@demo.local', 'otheradmin@demo.local']);
      // an admin filtering on a foreign company learns nothing
      expect((await as.installer.query('user.getList', list({ company_cuid: other }))).data.total).toBe(0);
      expect((await as.installer.query('user.getList', list({ inactive: true }))).data.total).toBe(0);
      expect((await as.installer.query('user.getList', list({ inactive: 'false' }))).data.total).toBe(4);
      const page2 = await as.installer.query('user.getList', {
        pagination: { page: 2, perPage: 3 },
        sort: { field: 'email', order: 'DESC' },
        filter: {},
      });
      expect(emails(page2)).toEqual(['basic@demo.local']);
      expect(page2.data.total).toBe(4);
      expect(emails(await as.installer.query('user.getList', list({ id: [cuid.expert, cuid.other] })))).toEqual(['expert@demo.local']);
    });

    it('getManyReference by company_cuid: the company members, within scope', async () => {
      const ref = await as.superuser.query('user.getManyReference', list({}, { target: 'company_cuid', id: other }));
      expect(emails(ref)).toEqual(['other@demo.local', 'otheradmin@demo.local']);
      expect((await as.installer.query('user.getManyReference', list({}, { target: 'company_cuid', id: other }))).data.total).toBe(0);
      expect((await as.installer.query('user.getManyReference', list({}, { target: 'company_cuid', id: demo }))).data.total).toBe(4);
    });

    it('bad list input answers 400 with field errors', async () => {
      for (const bad of [
        list({ nope: 1 }),
        list({ inactive: 'maybe' }),
        { ...list(), sort: { field: 'password', order: 'ASC' } },
        { ...list(), pagination: { page: 0, perPage: 10 } },
      ]) {
        const answer = await as.superuser.query('user.getList', bad);
        expect(answer.status).toBe(400);
        expect(answer.error?.data.fieldErrors?.length).toBeGreaterThan(0);
      }
      const badRef = await as.superuser.query('user.getManyReference', list({}, { target: 'role_cuid', id: role[3] }));
      expect(badRef.status).toBe(400);
      expect(badRef.error?.data.fieldErrors?.[0].path).toBe('target');
    });
  });

  const newUser = (over: Record<string, unknown> = {}) => ({
    data: {
      email: 'New.Person@Demo.local',
      name: 'New Person',
      phone: '+254 700 000000',
      password: 'long-enough-pw',
      company_cuid: demo,
      role_cuid: role[2],
      ...over,
    },
  });

  describe('create', () => {
    it('a company admin creates a user with a first membership; the user signs in with the password', async () => {
      const created = await as.installer.mutate('user.create', newUser());
      expect(created.status).toBe(200);
      expect(created.data.data).toMatchObject({ email: 'new.person@demo.local', name: 'New Person', inactive: false });
      expect(created.data.data.id).toBe(created.data.data.user_cuid);
      expect(created.text).not.toMatch(/argon2|long-enough-pw/);
      const [m] = await t.db.dataSource.query(
        `SELECT m.company_cuid, r.level, m.is_company_admin FROM company_membership m JOIN role r USING (role_cuid) WHERE m.user_cuid = $1`,
        [created.data.data.user_cuid],
      );
      expect(m).toEqual({ company_cuid: demo, level: 2, is_company_admin: false });
      const [{ password }] = await t.db.dataSource.query(`SELECT password FROM "user" WHERE user_cuid = $1`, [created.data.data.user_cuid]);
      expect(password).toMatch(/^\$argon2id\$/);
      const person = new HttpClient(t.baseUrl);
      expect((await person.login('new.person@demo.local', 'long-enough-pw')).status).toBe(200);
    });

    it('a duplicate email answers CONFLICT with a field error on email; nothing written', async () => {
      const before = await userCount();
      const dup = await as.installer.mutate('user.create', newUser({ email: 'EXPERT@demo.local' }));
      expect(dup.status).toBe(409);
      expect(dup.error?.data.fieldErrors).toEqual([{ path: 'email', message: expect.any(String) }]);
      expect(await userCount()).toBe(before);
    });

    it("refusals: not admin (403), foreign company (404), role above one's own (403); nothing written", async () => {
      const before = await userCount();
      expect((await as.expert.mutate('user.create', newUser({ email: 'a1@demo.local' }))).status).toBe(403);
      expect((await as.installer.mutate('user.create', newUser({ email: 'a2@demo.local', company_cuid: other }))).status).toBe(404);
      expect((await as.otheradmin.mutate('user.create', newUser({ email: 'a3@demo.local' }))).status).toBe(404);
      const escalate = await as.installer.mutate('user.create', newUser({ email: 'a4@demo.local', role_cuid: role[0] }));
      expect(escalate.status).toBe(403);
      expect(escalate.error?.message).toMatch(/above your own/);
      // otheradmin is level 2 in Other: may not hand out level 1
      expect((await as.otheradmin.mutate('user.create', newUser({ email: 'a5@demo.local', company_cuid: other, role_cuid: role[1] }))).status).toBe(403);
      expect((await as.installer.mutate('user.create', newUser({ email: 'a6@demo.local', role_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' }))).status).toBe(404);
      expect(await userCount()).toBe(before);
      // the same level as one's own is allowed
      expect((await as.otheradmin.mutate('user.create', newUser({ email: 'a7@demo.local', company_cuid: other, role_cuid: role[2] }))).status).toBe(200);
      // a superuser may grant any role anywhere
      expect((await as.superuser.mutate('user.create', newUser({ email: 'a8@demo.local', company_cuid: other, role_cuid: role[0] }))).status).toBe(200);
    });

    it('bad input answers 400 with field errors and writes nothing', async () => {
      const before = await userCount();
      const cases: [Record<string, unknown>, string][] = [
        [{ password: 'short' }, 'data.password'],
        [{ email: 'not-an-email' }, 'data.email'],
        [{ name: '' }, 'data.name'],
        [{ company_cuid: '' }, 'data.company_cuid'],
        [{ extra: 'x' }, 'data'],
      ];
      for (const [over, path] of cases) {
        const answer = await as.installer.mutate('user.create', newUser({ email: 'bad@demo.local', ...over }));
        expect(answer.status).toBe(400);
        expect(answer.error?.data.fieldErrors?.map((f) => f.path)).toContain(path);
      }
      expect(await userCount()).toBe(before);
    });
  });

  describe('edit and deactivate', () => {
    it('oneself: a plain member edits their own name; a password change ends their other sessions and keeps this one', async () => {
      const basic = new HttpClient(t.baseUrl);
      await basic.login('basic@demo.local');
      const elsewhere = new HttpClient(t.baseUrl);
      await elsewhere.login('basic@demo.local');
      const renamed = await basic.mutate('user.update', {
        id: cuid.basic,
        data: { name: 'Basic Renamed', email: 'basic@demo.local', user_cuid: cuid.basic, inactive: false, password: '' },
        previousData: {},
      });
      expect(renamed.status).toBe(200);
      expect(renamed.data.data.name).toBe('Basic Renamed');
      // name change alone keeps the session
      expect((await basic.request('GET', '/api/auth/session')).status).toBe(200);
      expect((await basic.mutate('user.update', { id: cuid.basic, data: { password: 'another-password', current_password: 'demo-password' } })).status).toBe(
        200,
      );
      expect((await elsewhere.request('GET', '/api/auth/session')).status).toBe(401);
      expect((await basic.request('GET', '/api/auth/session')).status).toBe(200);
      expect((await new HttpClient(t.baseUrl).login('basic@demo.local', 'another-password')).status).toBe(200);
      await t.db.dataSource.query(`UPDATE "user" SET password = (SELECT password FROM "user" WHERE email = 'expert@demo.local') WHERE user_cuid = $1`, [
        cuid.basic,
      ]);
    });

    it('a plain member cannot edit a colleague; an admin of another company sees nothing (404); nothing written', async () => {
      await signIn('basic');
      expect((await as.basic.mutate('user.update', { id: cuid.expert, data: { name: 'X' } })).status).toBe(403);
      const foreign = await as.installer.mutate('user.update', { id: cuid.other, data: { name: 'X' } });
      expect(foreign.status).toBe(404);
      expect((await as.otheradmin.mutate('user.update', { id: cuid.expert, data: { name: 'X' } })).status).toBe(404);
      const [{ n }] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM "user" WHERE name = 'X'`);
      expect(n).toBe(0);
    });

    it("an admin edits a user of a shared company; changing an email ends that user's sessions", async () => {
      await signIn('expert');
      const edited = await as.installer.mutate('user.update', { id: cuid.expert, data: { email: 'expert2@demo.local', phone: '+1 555' } });
      expect(edited.status).toBe(200);
      expect(edited.data.data).toMatchObject({ email: 'expert2@demo.local', phone: '+1 555' });
      expect((await as.expert.request('GET', '/api/auth/session')).status).toBe(401);
      expect((await as.installer.mutate('user.update', { id: cuid.expert, data: { email: 'expert@demo.local' } })).status).toBe(200);
      await signIn('expert');
    });

    it('a superuser edits anyone, in any company', async () => {
      const edited = await as.superuser.mutate('user.update', { id: cuid.other, data: { name: 'Other Renamed', phone: null } });
      expect(edited.status).toBe(200);
      expect(edited.data.data).toMatchObject({ name: 'Other Renamed', phone: null });
    });

    it('an admin cannot take over a more powerful account (password or email of a superuser)', async () => {
      const pw = await as.installer.mutate('user.update', { id: cuid.superuser, data: { password: 'takeover-password' } });
      expect(pw.status).toBe(403);
      expect((await as.installer.mutate('user.update', { id: cuid.superuser, data: { email: 'mine@demo.local' } })).status).toBe(403);
      expect((await new HttpClient(t.baseUrl).login('superuser@demo.local', 'takeover-password')).status).toBe(401);
    });

    it('duplicate email on edit: CONFLICT on email; bad input: 400 with field errors; nothing written', async () => {
      const dup = await as.installer.mutate('user.update', { id: cuid.expert, data: { email: 'basic@demo.local' } });
      expect(dup.status).toBe(409);
      expect(dup.error?.data.fieldErrors?.[0].path).toBe('email');
      const short = await as.installer.mutate('user.update', { id: cuid.expert, data: { password: 'short' } });
      expect(short.status).toBe(400);
      expect(short.error?.data.fieldErrors?.[0].path).toBe('data.password');
      const badName = await as.installer.mutate('user.update', { id: cuid.expert, data: { name: '   ' } });
      expect(badName.status).toBe(400);
      const [u] = await t.db.dataSource.query(`SELECT email, name FROM "user" WHERE user_cuid = $1`, [cuid.expert]);
      expect(u).toEqual({ email: 'expert@demo.local', name: 'Demo Expert' });
    });

    it('deactivation stamps who and when and signs the user out; reactivation clears it', async () => {
      await signIn('expert');
      const off = await as.installer.mutate('user.update', { id: cuid.expert, data: { inactive: true } });
      expect(off.status).toBe(200);
      expect(off.data.data).toMatchObject({ inactive: true, inactivated_by_user_cuid: cuid.installer });
      expect(off.data.data.inactivated_at).toBeInstanceOf(Date);
      expect((await as.expert.request('GET', '/api/auth/session')).status).toBe(401);
      expect((await new HttpClient(t.baseUrl).login('expert@demo.local')).status).toBe(403);
      expect((await as.installer.query('user.getList', list({ inactive: true }))).data.total).toBe(1);
      const on = await as.installer.mutate('user.update', { id: cuid.expert, data: { inactive: false } });
      expect(on.data.data).toMatchObject({ inactive: false, inactivated_at: null, inactivated_by_user_cuid: null });
      await signIn('expert');
    });
  });

  describe('users of several companies (no takeover across companies)', () => {
    // twohats: Basic in Other, level-1 admin of Demo. otherinstaller: level-1 admin of Other.
    let twohats: string;
    let both: HttpClient;
    const addMembership = (user_cuid: string, company_cuid: string, level: number, admin: boolean) =>
      t.db.dataSource.query(
        `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin)
         VALUES (substr(md5(random()::text), 1, 24), (SELECT role_cuid FROM role WHERE level = $1), $2, $3, $4)`,
        [level, user_cuid, company_cuid, admin],
      );
    const snapshot = () => t.db.dataSource.query(`SELECT email, name, password, inactive FROM "user" WHERE user_cuid = $1`, [twohats]);

    beforeAll(async () => {
      twohats = await addMember(t.db.dataSource, 'twohats@demo.local', OTHER_COMPANY_NAME, 3);
      await addMembership(twohats, demo, 1, true);
      await addMember(t.db.dataSource, 'otherinstaller@demo.local', OTHER_COMPANY_NAME, 1, true);
      await signIn('otherinstaller');
      const bothCuid = await addMember(t.db.dataSource, 'bothadmin@demo.local', OTHER_COMPANY_NAME, 1, true);
      await addMembership(bothCuid, demo, 1, true);
      both = new HttpClient(t.baseUrl);
      expect((await both.login('bothadmin@demo.local')).status).toBe(200);
    });

    it('an admin of one company cannot change the password, email or name of, or deactivate, a user who is admin of another company; nothing written', async () => {
      const before = await snapshot();
      for (const data of [
        { password: 'takeover-password' },
        { email: 'taken-over@demo.local' },
        { name: 'Taken over' },
        { inactive: true },
        { phone: '+1 1' },
      ]) {
        const answer = await as.otherinstaller.mutate('user.update', { id: twohats, data });
        expect({ data, status: answer.status }).toEqual({ data, status: 403 });
      }
      expect((await as.otherinstaller.mutate('user.deactivate', { user_cuid: twohats })).status).toBe(403);
      expect(await snapshot()).toEqual(before);
      // the target still signs in with their own password, and nobody with the attacker's
      expect((await new HttpClient(t.baseUrl).login('twohats@demo.local', 'takeover-password')).status).toBe(401);
      expect((await new HttpClient(t.baseUrl).login('twohats@demo.local')).status).toBe(200);
    });

    it('an admin of every company of the user, at least as powerful in each, may change them', async () => {
      const renamed = await both.mutate('user.update', { id: twohats, data: { name: 'Two Hats' } });
      expect(renamed.status).toBe(200);
      expect(renamed.data.data.name).toBe('Two Hats');
      // an admin of Demo only (installer) may not, although twohats is a member of Demo
      expect((await as.installer.mutate('user.update', { id: twohats, data: { name: 'X' } })).status).toBe(403);
    });

    it('nobody but a superuser renames or deactivates a superuser (no lock-out of the superuser)', async () => {
      const before = await t.db.dataSource.query(`SELECT name, inactive FROM "user" WHERE user_cuid = $1`, [cuid.superuser]);
      expect((await as.installer.mutate('user.update', { id: cuid.superuser, data: { name: 'Locked out' } })).status).toBe(403);
      expect((await as.installer.mutate('user.update', { id: cuid.superuser, data: { inactive: true } })).status).toBe(403);
      expect((await as.installer.mutate('user.deactivate', { user_cuid: cuid.superuser })).status).toBe(403);
      expect(await t.db.dataSource.query(`SELECT name, inactive FROM "user" WHERE user_cuid = $1`, [cuid.superuser])).toEqual(before);
    });

    it('an admin lists users and memberships only of the companies they administer (plus themselves)', async () => {
      // otheradmin: admin of Other; make them a plain member of Demo too
      await addMembership(cuid.otheradmin, demo, 3, false);
      await signIn('otheradmin');
      const users = emails(await as.otheradmin.query('user.getList', list()));
      expect(users).toContain('other@demo.local');
      expect(users).toContain('otheradmin@demo.local');
      expect(users).not.toContain('expert@demo.local');
      expect(users).not.toContain('installer@demo.local');
      expect(
        (await as.otheradmin.query('user.getManyReference', list({}, { target: 'company_cuid', id: demo }))).data.data.map((u: { email: string }) => u.email),
      ).toEqual(['otheradmin@demo.local']);
      expect((await as.otheradmin.query('user.getOne', { id: cuid.expert })).status).toBe(404);
      expect((await as.otheradmin.query('user.getMany', { ids: [cuid.expert] })).data.data).toEqual([]);
      const byEmail = { sort: { field: 'user_email', order: 'ASC' } };
      const memberships = await as.otheradmin.query('companyMembership.getList', { ...list(), ...byEmail });
      const rows = memberships.data.data as { company_cuid: string; user_email: string }[];
      // Demo memberships: only their own
      expect(rows.filter((m) => m.company_cuid === demo).map((m) => m.user_email)).toEqual(['otheradmin@demo.local']);
      expect(rows.some((m) => m.company_cuid === other && m.user_email === 'other@demo.local')).toBe(true);
      const ref = await as.otheradmin.query('companyMembership.getManyReference', { ...list({}, { target: 'company_cuid', id: demo }), ...byEmail });
      expect(ref.data.data.map((m: { user_email: string }) => m.user_email)).toEqual(['otheradmin@demo.local']);
    });
  });

  describe("one's own sign-in needs the current password", () => {
    it('a password or email change of oneself without the current password (or with a wrong one) is refused with a field error; nothing written', async () => {
      const me = new HttpClient(t.baseUrl);
      const self = await addMember(t.db.dataSource, 'selfchange@demo.local', DEMO_COMPANY_NAME, 3);
      expect((await me.login('selfchange@demo.local')).status).toBe(200);
      const before = await t.db.dataSource.query(`SELECT email, password FROM "user" WHERE user_cuid = $1`, [self]);
      for (const data of [{ password: 'stolen-session-pw' }, { email: 'stolen@demo.local' }]) {
        for (const current of [undefined, '', 'wrong-password']) {
          const answer = await me.mutate('user.update', { id: self, data: { ...data, ...(current === undefined ? {} : { current_password: current }) } });
          expect({ data, current, status: answer.status }).toEqual({ data, current, status: 400 });
          expect(answer.error?.data.fieldErrors?.map((f: { path: string }) => f.path)).toEqual(['current_password']);
        }
      }
      expect(await t.db.dataSource.query(`SELECT email, password FROM "user" WHERE user_cuid = $1`, [self])).toEqual(before);
      // a name change needs no password
      expect((await me.mutate('user.update', { id: self, data: { name: 'Self Renamed' } })).status).toBe(200);
      const changed = await me.mutate('user.update', { id: self, data: { password: 'a-new-password', current_password: 'demo-password' } });
      expect(changed.status).toBe(200);
      expect((await new HttpClient(t.baseUrl).login('selfchange@demo.local', 'a-new-password')).status).toBe(200);
    });

    it('an admin resetting someone else needs no current password', async () => {
      const victim = await addMember(t.db.dataSource, 'reset-me@demo.local', DEMO_COMPANY_NAME, 3);
      expect((await as.installer.mutate('user.update', { id: victim, data: { password: 'reset-password' } })).status).toBe(200);
      expect((await new HttpClient(t.baseUrl).login('reset-me@demo.local', 'reset-password')).status).toBe(200);
    });
  });

  describe('duplicate emails', () => {
    it('a non-superuser cannot tell an email used in another company from one used in their own', async () => {
      // other@demo.local is only in Other; expert@demo.local is in Demo (the installer's company)
      const elsewhere = await as.installer.mutate('user.create', newUser({ email: 'other@demo.local' }));
      const mine = await as.installer.mutate('user.create', newUser({ email: 'expert@demo.local' }));
      expect(elsewhere.status).toBe(mine.status);
      expect(elsewhere.error?.message).toBe(mine.error?.message);
      expect(elsewhere.error?.data.fieldErrors).toEqual(mine.error?.data.fieldErrors);
      expect(elsewhere.error?.message).not.toMatch(/exists/i);
      const editElsewhere = await as.installer.mutate('user.update', { id: cuid.basic, data: { email: 'other@demo.local' } });
      const editMine = await as.installer.mutate('user.update', { id: cuid.basic, data: { email: 'expert@demo.local' } });
      expect([editElsewhere.status, editElsewhere.error?.message]).toEqual([editMine.status, editMine.error?.message]);
    });
  });

  describe('delete', () => {
    it('delete single: superuser only, never oneself; foreign or unknown → 404; nothing written on refusal', async () => {
      const victim = await addMember(t.db.dataSource, 'victim@demo.local', DEMO_COMPANY_NAME, 3);
      const before = await userCount();
      expect((await as.installer.mutate('user.delete', { id: victim })).status).toBe(403);
      expect((await as.superuser.mutate('user.delete', { id: cuid.superuser })).status).toBe(403);
      expect((await as.superuser.mutate('user.delete', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' })).status).toBe(404);
      expect(await userCount()).toBe(before);
      const gone = await as.superuser.mutate('user.delete', { id: victim, previousData: { id: victim } });
      expect(gone.status).toBe(200);
      expect(gone.data.data).toMatchObject({ id: victim, email: 'victim@demo.local' });
      expect(await userCount()).toBe(before - 1);
      expect((await as.superuser.mutate('user.delete', { id: victim })).status).toBe(404);
    });

    it('deleteMany: level 0, never oneself, all or nothing', async () => {
      const a = await addMember(t.db.dataSource, 'bulk-a@demo.local', DEMO_COMPANY_NAME, 3);
      const b = await addMember(t.db.dataSource, 'bulk-b@demo.local', OTHER_COMPANY_NAME, 3);
      const before = await userCount();
      expect((await as.installer.mutate('user.deleteMany', { ids: [a] })).status).toBe(403);
      expect((await as.superuser.mutate('user.deleteMany', { ids: [a, b, cuid.superuser] })).status).toBe(403);
      expect((await as.superuser.mutate('user.deleteMany', { ids: [a, 'zzzzzzzzzzzzzzzzzzzzzzzz'] })).status).toBe(404);
      expect((await as.superuser.mutate('user.deleteMany', { ids: [] })).status).toBe(400);
      expect(await userCount()).toBe(before);
      const done = await as.superuser.mutate('user.deleteMany', { ids: [a, b] });
      expect(done.status).toBe(200);
      expect(done.data.data.sort()).toEqual([a, b].sort());
      expect(await userCount()).toBe(before - 2);
    });

    it('the existing procedures still work (findOne, deactivate, reactivate)', async () => {
      expect((await as.installer.query('user.findOne', { email: 'expert@demo.local' })).status).toBe(200);
      const off = await as.installer.mutate('user.deactivate', { user_cuid: cuid.basic });
      expect(off.data).toMatchObject({ inactive: true, inactivated_by_user_cuid: cuid.installer });
      expect((await as.installer.mutate('user.reactivate', { user_cuid: cuid.basic })).data.inactive).toBe(false);
    });
  });
});
