import { request } from 'node:http';
import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

/** The public brand of a host (GET /api/branding with an explicit Host header). */
function brandOf(baseUrl: string, host: string): Promise<Record<string, any>> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: u.hostname, port: u.port, path: '/api/branding', headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    req.end();
  });
}

const list = (filter: Record<string, unknown> = {}) => ({ pagination: { page: 1, perPage: 50 }, sort: { field: 'name', order: 'ASC' }, filter });
const names = (answer: { data?: { data: { name: string }[] } }) => answer.data!.data.map((r) => r.name);

describe('admin resources: rootDomain, domain, dashboard', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  let demo: string;
  let other: string;
  let expertRole: string;

  const count = async (table: string) => Number((await t.db.dataSource.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
  const snapshot = (table: string) => t.db.dataSource.query(`SELECT * FROM ${table} ORDER BY 1`);

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'otheradmin@demo.local', OTHER_COMPANY_NAME, 1, true);
    [{ company_cuid: demo }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    [{ company_cuid: other }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    [{ role_cuid: expertRole }] = await t.db.dataSource.query(`SELECT role_cuid FROM role WHERE level = 2`);
    for (const who of ['superuser', 'installer', 'basic', 'other', 'otheradmin']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('rootDomain', () => {
    it("admin view (3) within the caller's companies; another company's root domain is as missing as an unknown one", async () => {
      expect(names(await as.basic.query('rootDomain.getList', list()))).toEqual(['localhost']);
      expect(names(await as.other.query('rootDomain.getList', list()))).toEqual(['127.0.0.1']);
      expect(names(await as.superuser.query('rootDomain.getList', list()))).toEqual(['127.0.0.1', 'localhost']);
      const one = await as.basic.query('rootDomain.getOne', { id: 'localhost' });
      expect(one.data.data).toMatchObject({ id: 'localhost', name: 'localhost', company_cuid: demo, root_domain_data: { owner_name: 'Demo Solar' } });
      const foreign = await as.basic.query('rootDomain.getOne', { id: '127.0.0.1' });
      const unknown = await as.basic.query('rootDomain.getOne', { id: 'nowhere.example' });
      expect(foreign.status).toBe(404);
      expect(foreign.error).toEqual(unknown.error);
      expect(names(await as.basic.query('rootDomain.getMany', { ids: ['localhost', '127.0.0.1'] }))).toEqual(['localhost']);
      expect((await as.basic.query('rootDomain.getList', list({ company_cuid: other }))).data.total).toBe(0);
    });

    it('changes need level 0: company admins and members get 403 and nothing is written', async () => {
      const before = await snapshot('root_domain');
      for (const who of ['installer', 'basic', 'otheradmin']) {
        expect((await as[who].mutate('rootDomain.create', { data: { name: 'mine.example', company_cuid: demo } })).status).toBe(403);
        expect((await as[who].mutate('rootDomain.update', { id: 'localhost', data: { root_domain_data: { title: 'Hacked' } } })).status).toBe(403);
        expect((await as[who].mutate('rootDomain.delete', { id: 'localhost' })).status).toBe(403);
        expect((await as[who].mutate('rootDomain.deleteMany', { ids: ['127.0.0.1'] })).status).toBe(403);
      }
      expect(await snapshot('root_domain')).toEqual(before);
    });

    it('bad input answers 400 with field errors; a duplicate name CONFLICT on name; nothing written', async () => {
      const before = await snapshot('root_domain');
      const cases: [Record<string, unknown>, string][] = [
        [{ name: 'not a host!' }, 'data.name'],
        [{ name: 'ok.example', root_domain_data: { colors: { primary: 'red', secondary: '#000000' } } }, 'data.root_domain_data.colors.primary'],
        [{ name: 'ok.example', root_domain_data: { title: 'x', unknown_key: 1 } }, 'data.root_domain_data'],
        [{ name: 'ok.example', root_domain_data: ['not', 'an', 'object'] }, 'data.root_domain_data'],
        [{ name: 'ok.example', root_domain_data: { description: 'x'.repeat(10_000) } }, 'data.root_domain_data.description'],
      ];
      for (const [data, path] of cases) {
        const answer = await as.superuser.mutate('rootDomain.create', { data });
        expect(answer.status).toBe(400);
        expect(answer.error?.data.fieldErrors?.map((f) => f.path)).toContain(path);
      }
      const dup = await as.superuser.mutate('rootDomain.create', { data: { name: 'LOCALHOST' } });
      expect(dup.status).toBe(409);
      expect(dup.error?.data.fieldErrors?.[0].path).toBe('name');
      expect((await as.superuser.mutate('rootDomain.create', { data: { name: 'ok.example', company_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' } })).status).toBe(404);
      expect(await snapshot('root_domain')).toEqual(before);
    });

    it("a superuser's change shows in the branding at once (the brand cache is dropped)", async () => {
      expect((await brandOf(t.baseUrl, 'localhost')).title).toBe('Demo Solar Portal');
      const updated = await as.superuser.mutate('rootDomain.update', {
        id: 'localhost',
        data: { root_domain_data: { owner_name: 'Demo Solar', title: 'Sunny Portal', colors: { primary: '#112233', secondary: '#445566' } } },
        previousData: {},
      });
      expect(updated.status).toBe(200);
      expect(updated.data.data.root_domain_data.title).toBe('Sunny Portal');
      const brand = await brandOf(t.baseUrl, 'localhost');
      expect(brand.title).toBe('Sunny Portal');
      expect(brand.colors).toEqual({ primary: '#112233', secondary: '#445566' });
      // a new root domain is served at once too
      expect((await brandOf(t.baseUrl, 'grid.example.africa')).owner_name).not.toBe('Grid Co');
      const created = await as.superuser.mutate('rootDomain.create', {
        data: { name: 'Example.Africa', company_cuid: other, root_domain_data: { owner_name: 'Grid Co' } },
      });
      expect(created.status).toBe(200);
      expect(created.data.data).toMatchObject({ id: 'example.africa', name: 'example.africa' });
      expect((await brandOf(t.baseUrl, 'grid.example.africa')).owner_name).toBe('Grid Co');
    });
  });

  describe('domain', () => {
    it('a superuser adds a sub-domain whose branding overrides its root at once; name must match its parts', async () => {
      const mismatch = await as.superuser.mutate('domain.create', {
        data: { name: 'other.example.africa', sub_domain_name: 'acme', root_domain_name: 'example.africa', company_cuid: other },
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.error?.data.fieldErrors?.[0].path).toBe('name');
      expect(
        (await as.superuser.mutate('domain.create', { data: { name: 'acme.nowhere.example', sub_domain_name: 'acme', root_domain_name: 'nowhere.example' } }))
          .status,
      ).toBe(404);
      expect(await count('domain')).toBe(0);
      const created = await as.superuser.mutate('domain.create', {
        data: {
          name: 'acme.example.africa',
          sub_domain_name: 'acme',
          root_domain_name: 'example.africa',
          company_cuid: other,
          domain_data: { title: 'Acme Grid' },
        },
      });
      expect(created.status).toBe(200);
      expect(created.data.data).toMatchObject({ id: 'acme.example.africa', sub_domain_name: 'acme', domain_data: { title: 'Acme Grid' } });
      const brand = await brandOf(t.baseUrl, 'acme.example.africa');
      expect(brand).toMatchObject({ title: 'Acme Grid', owner_name: 'Grid Co' });
      const dup = await as.superuser.mutate('domain.create', {
        data: { name: 'acme.example.africa', sub_domain_name: 'acme', root_domain_name: 'example.africa' },
      });
      expect(dup.status).toBe(409);
      expect(dup.error?.data.fieldErrors?.[0].path).toBe('name');
    });

    it('scope: the owner company sees it, another company does not; only level 0 changes it', async () => {
      expect(names(await as.other.query('domain.getList', list()))).toEqual(['acme.example.africa']);
      expect((await as.basic.query('domain.getList', list())).data.total).toBe(0);
      const foreign = await as.basic.query('domain.getOne', { id: 'acme.example.africa' });
      expect(foreign.status).toBe(404);
      expect(foreign.error).toEqual((await as.basic.query('domain.getOne', { id: 'zz.example.africa' })).error);
      expect(names(await as.superuser.query('domain.getList', list({ root_domain_name: 'example.africa', q: 'acm' })))).toEqual(['acme.example.africa']);
      expect((await as.superuser.query('domain.getManyReference', { ...list(), target: 'root_domain_name', id: 'localhost' })).data.total).toBe(0);
      const before = await snapshot('domain');
      expect((await as.otheradmin.mutate('domain.update', { id: 'acme.example.africa', data: { domain_data: { title: 'Mine' } } })).status).toBe(403);
      expect((await as.otheradmin.mutate('domain.delete', { id: 'acme.example.africa' })).status).toBe(403);
      expect((await as.superuser.mutate('domain.update', { id: 'acme.example.africa', data: { domain_data: { title: 7 } } })).status).toBe(400);
      expect(await snapshot('domain')).toEqual(before);
    });

    it('update and delete show in the branding at once', async () => {
      const updated = await as.superuser.mutate('domain.update', {
        id: 'acme.example.africa',
        data: { domain_data: { title: 'Acme Renamed' }, sub_domain_name: 'ignored', name: 'ignored' },
      });
      expect(updated.status).toBe(200);
      expect(updated.data.data.name).toBe('acme.example.africa');
      expect((await brandOf(t.baseUrl, 'acme.example.africa')).title).toBe('Acme Renamed');
      expect((await as.superuser.mutate('domain.delete', { id: 'acme.example.africa' })).status).toBe(200);
      expect((await brandOf(t.baseUrl, 'acme.example.africa')).title).toBe('Grid Co Portal');
      expect((await as.superuser.mutate('rootDomain.deleteMany', { ids: ['example.africa'] })).status).toBe(200);
      expect((await brandOf(t.baseUrl, 'acme.example.africa')).owner_name).not.toBe('Grid Co');
    });
  });

  describe('dashboard', () => {
    let demoBoard: string;
    let otherBoard: string;

    it('create needs level 0; the owner company must exist; meta must be a bounded layout', async () => {
      const before = await count('dashboard');
      const map = { id: 'm1', type: 'map', x: 0, y: 0, w: 6, h: 4, settings: {} };
      const data = { entityowner_cuid: demo, name: 'Fleet overview', meta: { widgets: [map] }, role_cuid: expertRole };
      expect((await as.installer.mutate('dashboard.create', { data })).status).toBe(403);
      expect((await as.basic.mutate('dashboard.create', { data })).status).toBe(403);
      for (const [bad, path] of [
        [{ ...data, meta: 'text' }, 'data.meta'],
        [{ ...data, meta: { big: 'x'.repeat(100_001) } }, 'data.meta'],
        [{ ...data, name: '' }, 'data.name'],
        [{ ...data, extra: true }, 'data'],
      ] as const) {
        const answer = await as.superuser.mutate('dashboard.create', { data: bad });
        expect(answer.status).toBe(400);
        expect(answer.error?.data.fieldErrors?.map((f) => f.path)).toContain(path);
      }
      expect((await as.superuser.mutate('dashboard.create', { data: { ...data, entityowner_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' } })).status).toBe(404);
      expect((await as.superuser.mutate('dashboard.create', { data: { ...data, role_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' } })).status).toBe(404);
      expect(await count('dashboard')).toBe(before);
      const created = await as.superuser.mutate('dashboard.create', { data });
      expect(created.status).toBe(200);
      expect(created.data.data).toMatchObject({ name: 'Fleet overview', entityowner_cuid: demo, meta: { widgets: [{ type: 'map' }] }, role_cuid: expertRole });
      demoBoard = created.data.data.dashboard_cuid;
      expect(created.data.data.id).toBe(demoBoard);
      otherBoard = (await as.superuser.mutate('dashboard.create', { data: { entityowner_cuid: other, name: 'Other board' } })).data.data.dashboard_cuid;
    });

    it("members of the owner company at the role's level or above see it; another company sees nothing", async () => {
      expect(names(await as.installer.query('dashboard.getList', list()))).toEqual(['Fleet overview']);
      // made for Experts: a Basic member does not see it
      expect(names(await as.basic.query('dashboard.getList', list()))).toEqual([]);
      expect((await as.basic.query('dashboard.getOne', { id: demoBoard })).status).toBe(404);
      expect((await as.superuser.mutate('dashboard.update', { id: demoBoard, data: { role_cuid: null } })).status).toBe(200);
      expect(names(await as.basic.query('dashboard.getList', list()))).toEqual(['Fleet overview']);
      expect(names(await as.other.query('dashboard.getList', list()))).toEqual(['Other board']);
      const foreign = await as.basic.query('dashboard.getOne', { id: otherBoard });
      expect(foreign.status).toBe(404);
      expect(foreign.error).toEqual((await as.basic.query('dashboard.getOne', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' })).error);
      expect(names(await as.basic.query('dashboard.getMany', { ids: [demoBoard, otherBoard] }))).toEqual(['Fleet overview']);
      expect((await as.basic.query('dashboard.getManyReference', { ...list(), target: 'entityowner_cuid', id: other })).data.total).toBe(0);
      expect((await as.basic.query('dashboard.getList', list({ role_cuid: null }))).data.total).toBe(1);
    });

    it('edit and delete need level 0; refusals write nothing', async () => {
      const before = await snapshot('dashboard');
      expect((await as.installer.mutate('dashboard.update', { id: demoBoard, data: { name: 'Mine' } })).status).toBe(403);
      expect((await as.otheradmin.mutate('dashboard.update', { id: demoBoard, data: { name: 'Mine' } })).status).toBe(403);
      expect((await as.installer.mutate('dashboard.delete', { id: demoBoard })).status).toBe(403);
      expect((await as.superuser.mutate('dashboard.update', { id: demoBoard, data: { meta: [] } })).status).toBe(400);
      expect(await snapshot('dashboard')).toEqual(before);
      const saved = await as.superuser.mutate('dashboard.update', { id: demoBoard, data: { meta: { widgets: [] }, role_cuid: null } });
      expect(saved.data.data).toMatchObject({ meta: { widgets: [] }, role_cuid: null });
      expect((await as.superuser.mutate('dashboard.deleteMany', { ids: [demoBoard, otherBoard] })).status).toBe(200);
      expect(await count('dashboard')).toBe(0);
    });
  });
});
