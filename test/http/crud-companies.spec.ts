import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

const list = { pagination: { page: 1, perPage: 50 }, filter: {} };

describe('companies', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['superuser', 'installer', 'expert', 'other']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('view needs company admin; an admin sees only their own companies', async () => {
    expect((await as.expert.query('company.getList', list)).status).toBe(403);
    expect((await as.other.query('company.getList', list)).status).toBe(403);
    const mine = await as.installer.query('company.getList', list);
    expect(mine.data.data.map((c: { name: string }) => c.name)).toEqual([DEMO_COMPANY_NAME]);
    const all = await as.superuser.query('company.getList', list);
    expect(all.data.data.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining([DEMO_COMPANY_NAME, OTHER_COMPANY_NAME]));
  });

  it('an admin creates a company and becomes its admin; the session that created it stays and sees it at once', async () => {
    const created = await as.installer.mutate('company.create', { data: { name: 'Lake Victoria Mini-grids', url: 'https://lvm.example' } });
    expect(created.status).toBe(200);
    expect(created.data.data).toMatchObject({ name: 'Lake Victoria Mini-grids', id: created.data.data.company_cuid });
    const [membership] = await t.db.dataSource.query(
      `SELECT m.is_company_admin, r.level FROM company_membership m JOIN role r USING (role_cuid) JOIN "user" u USING (user_cuid)
        WHERE u.email = 'installer@demo.local' AND m.company_cuid = $1`,
      [created.data.data.company_cuid],
    );
    expect(membership).toEqual({ is_company_admin: true, level: 1 });
    // the creating session is re-issued with the new membership (the user's other sessions end)
    expect((await as.installer.request('GET', '/api/auth/session')).status).toBe(200);
    expect((await as.installer.query('company.getList', list)).data.total).toBe(2);
    const again = new HttpClient(t.baseUrl);
    await again.login('installer@demo.local');
    expect((await again.query('company.getList', list)).data.total).toBe(2);
  });

  it('edit single needs admin of that company; delete needs level 0', async () => {
    const installer = new HttpClient(t.baseUrl);
    await installer.login('installer@demo.local');
    const [{ company_cuid: other }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    expect((await installer.mutate('company.update', { id: other, data: { name: 'Mine' } })).status).toBe(404);
    const [{ company_cuid: demo }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    expect((await installer.mutate('company.update', { id: demo, data: { url: 'https://demo-solar.example/new' } })).status).toBe(200);
    expect((await installer.mutate('company.delete', { id: demo })).status).toBe(403);
  });
});
