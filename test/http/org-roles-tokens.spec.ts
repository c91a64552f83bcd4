import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const list = (filter: Record<string, unknown> = {}, sort = { field: 'level', order: 'ASC' }) => ({ pagination: { page: 1, perPage: 50 }, sort, filter });

describe('role and authToken resources', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  let demo: string;
  let other: string;
  const token: Record<string, string> = {};

  const tokenRows = () => t.db.dataSource.query(`SELECT token_cuid, revoked_at, token_hash FROM auth_token ORDER BY 1`);

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'otherinstaller@demo.local', OTHER_COMPANY_NAME, 1);
    [{ company_cuid: demo }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    [{ company_cuid: other }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'otherinstaller']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (const [who, company, name] of [
      ['installer', demo, 'demo-ingest'],
      ['installer', demo, 'demo-backup'],
      ['otherinstaller', other, 'other-ingest'],
    ] as const) {
      const created = await as[who].mutate('authToken.create', { company_cuid: company, description: name });
      expect(created.status).toBe(200);
      token[name] = created.data.token_cuid;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('role', () => {
    it('everyone lists the four roles; getOne and getMany; unknown id 404; bad input 400', async () => {
      const roles = await as.basic.query('role.getList', list());
      expect(roles.status).toBe(200);
      expect(roles.data.total).toBe(4);
      expect(roles.data.data.map((r: { level: number }) => r.level)).toEqual([0, 1, 2, 3]);
      const expert = roles.data.data[2];
      expect(expert.id).toBe(expert.role_cuid);
      expect((await as.basic.query('role.getList', list({ level: 2 }))).data.data).toEqual([expert]);
      expect((await as.basic.query('role.getList', list({ q: expert.name.slice(0, 4) }))).data.data[0]).toEqual(expert);
      expect((await as.basic.query('role.getList', list({}, { field: 'level', order: 'DESC' }))).data.data[0].level).toBe(3);
      expect((await as.basic.query('role.getOne', { id: expert.role_cuid })).data.data).toEqual(expert);
      expect((await as.basic.query('role.getMany', { ids: [expert.role_cuid, 'zzz'] })).data.data).toEqual([expert]);
      expect((await as.basic.query('role.getOne', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' })).status).toBe(404);
      const bad = await as.basic.query('role.getList', list({ level: 9 }));
      expect(bad.status).toBe(400);
      expect(bad.error?.data.fieldErrors?.[0].path).toBe('filter.level');
      // The level filter reads digits (a select sends text) and nothing else: '' is no filter,
      // not level 0; true, null, a decimal comma or dot are refused, never read as another level.
      expect((await as.basic.query('role.getList', list({ level: '2' }))).data.data).toEqual([expert]);
      expect((await as.basic.query('role.getList', list({ level: '' }))).data.total).toBe(4);
      for (const level of [true, null, '2,0', '1,5', '2.0', ' ', 'x', [2]]) {
        const refused = await as.basic.query('role.getList', list({ level }));
        expect({ level, status: refused.status, path: refused.error?.data.fieldErrors?.[0].path }).toEqual({ level, status: 400, path: 'filter.level' });
      }
      expect((await new HttpClient(t.baseUrl).query('role.getList', list())).status).toBe(401);
    });
  });

  describe('authToken', () => {
    it('level 1 in the token company; lists never carry the secret or its hash', async () => {
      expect((await as.expert.query('authToken.getList', list({}, { field: 'created_at', order: 'DESC' }))).status).toBe(403);
      expect((await as.basic.query('authToken.getList', list({}, { field: 'created_at', order: 'DESC' }))).status).toBe(403);
      const mine = await as.installer.query('authToken.getList', list({}, { field: 'description', order: 'ASC' }));
      expect(mine.status).toBe(200);
      expect(mine.data.data.map((r: { description: string }) => r.description)).toEqual(['demo-backup', 'demo-ingest']);
      expect(mine.data.data[0].id).toBe(mine.data.data[0].token_cuid);
      const [{ token_hash }] = await t.db.dataSource.query(`SELECT token_hash FROM auth_token WHERE token_cuid = $1`, [token['demo-ingest']]);
      expect(mine.text).not.toContain(token_hash);
      expect(mine.text).not.toMatch(/ppt_|secret|token_hash/);
      expect((await as.superuser.query('authToken.getList', list({}, { field: 'created_at', order: 'DESC' }))).data.total).toBe(3);
      expect(
        (await as.superuser.query('authToken.getList', list({ q: 'ingest', company_cuid: other }, { field: 'created_at', order: 'DESC' }))).data.total,
      ).toBe(1);
    });

    it("another company's token is as missing as an unknown one, and cannot be revoked", async () => {
      const before = await tokenRows();
      const foreign = await as.installer.query('authToken.getOne', { id: token['other-ingest'] });
      const unknown = await as.installer.query('authToken.getOne', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
      expect(foreign.status).toBe(404);
      expect(foreign.error).toEqual(unknown.error);
      expect((await as.otherinstaller.query('authToken.getOne', { id: token['demo-ingest'] })).status).toBe(404);
      expect((await as.installer.query('authToken.getMany', { ids: [token['other-ingest'], token['demo-ingest']] })).data.data).toHaveLength(1);
      expect(
        (await as.installer.query('authToken.getManyReference', { ...list({}, { field: 'created_at', order: 'DESC' }), target: 'company_cuid', id: other }))
          .data.total,
      ).toBe(0);
      expect((await as.installer.mutate('authToken.delete', { id: token['other-ingest'] })).status).toBe(404);
      expect((await as.installer.mutate('authToken.deleteMany', { ids: [token['demo-backup'], token['other-ingest']] })).status).toBe(404);
      expect((await as.expert.mutate('authToken.delete', { id: token['demo-ingest'] })).status).toBe(403);
      const bad = await as.installer.mutate('authToken.deleteMany', { ids: [] });
      expect(bad.status).toBe(400);
      expect(bad.error?.data.fieldErrors?.[0].path).toBe('ids');
      const badList = await as.installer.query('authToken.getList', list({ revoked: 'sometimes' }, { field: 'token_hash', order: 'ASC' }));
      expect(badList.status).toBe(400);
      expect(badList.error?.data.fieldErrors?.map((f) => f.path)).toEqual(expect.arrayContaining(['filter.revoked', 'sort.field']));
      expect(await tokenRows()).toEqual(before);
    });

    it('delete and deleteMany revoke: the token stops working, the row stays, revoked filter finds it', async () => {
      const created = await as.installer.mutate('authToken.create', { company_cuid: demo, description: 'short-lived' });
      const secret = created.data.secret as string;
      const ingest = (auth: string) => new HttpClient(t.baseUrl, { authorization: `Bearer ${auth}` }).json('POST', '/api/ingest/nope/heartbeat', {});
      // live: accepted as a caller (the unknown controller answers, not the authentication)
      expect((await ingest(secret)).status).not.toBe(401);
      const gone = await as.installer.mutate('authToken.delete', { id: created.data.token_cuid });
      expect(gone.status).toBe(200);
      expect(gone.data.data.revoked_at).toBeInstanceOf(Date);
      expect((await ingest(secret)).status).toBe(401);
      const revoked = await as.installer.query('authToken.getList', list({ revoked: true }, { field: 'created_at', order: 'DESC' }));
      expect(revoked.data.data.map((r: { description: string }) => r.description)).toEqual(['short-lived']);
      const many = await as.installer.mutate('authToken.deleteMany', { ids: [token['demo-ingest'], token['demo-backup']] });
      expect(many.data.data.sort()).toEqual([token['demo-ingest'], token['demo-backup']].sort());
      expect((await as.installer.query('authToken.getList', list({ revoked: false }, { field: 'created_at', order: 'DESC' }))).data.total).toBe(0);
      const [{ revoked_at }] = await t.db.dataSource.query(`SELECT revoked_at FROM auth_token WHERE token_cuid = $1`, [token['other-ingest']]);
      expect(revoked_at).toBeNull();
    });
  });
});
