import { DEMO_COMPANY_NAME, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const list = (params: Record<string, unknown> = {}) => ({ pagination: { page: 1, perPage: 50 }, sort: { field: 'name', order: 'ASC' }, filter: {}, ...params });
const names = (a: { data?: { data: { name: string }[] } }) => a.data!.data.map((r) => r.name);

describe("generated CRUD: systems and sites, scoped to the caller's companies", () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const company: Record<string, string> = {};
  const system: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other', 'other-installer']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (const c of await t.db.dataSource.query(`SELECT company_cuid, name FROM company`)) company[c.name] = c.company_cuid;
    for (const s of await t.db.dataSource.query(`SELECT system_cuid, name FROM system`)) system[s.name] = s.system_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('getList shows own systems and systems shared with the company, nothing else', async () => {
    expect(names(await as.basic.query('system.getList', list()))).toEqual([DEMO_SYSTEMS.farm, DEMO_SYSTEMS.clinic, DEMO_SYSTEMS.workshop].sort());
    expect(names(await as.other.query('system.getList', list()))).toEqual([DEMO_SYSTEMS.clinic, DEMO_SYSTEMS.workshop].sort());
    const res = await as.basic.query('system.getList', list());
    expect(res.data.total).toBe(3);
    const farm = res.data.data.find((r: { name: string }) => r.name === DEMO_SYSTEMS.farm);
    expect(Object.keys(farm).sort()).toEqual([
      'active_alarms',
      'asset_number',
      'company_cuid',
      'company_name',
      'deployment_date',
      'energy_today_kwh',
      'id',
      'last_contact',
      'name',
      'online_state',
      'site_cuid',
      'site_name',
      'soc',
      'system_cuid',
      'timezone',
    ]);
    expect(farm).toMatchObject({ id: farm.system_cuid, company_cuid: company[DEMO_COMPANY_NAME], timezone: 'Africa/Nairobi' });
    expect(farm.deployment_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('getList and getOne carry the site and company names, for a Basic user who may not read sites or companies', async () => {
    expect((await as.basic.query('site.getMany', { ids: ['x'] })).status).toBe(403);
    expect((await as.basic.query('company.getMany', { ids: [company[DEMO_COMPANY_NAME]] })).status).toBe(403);
    const rows = await t.db.dataSource.query<{ system_cuid: string; name: string; site_name: string | null; company_name: string }[]>(
      `SELECT s.system_cuid, s.name, si.name AS site_name, c.name AS company_name FROM system s
       LEFT JOIN site si ON si.site_cuid = s.site_cuid JOIN company c ON c.company_cuid = s.company_cuid`,
    );
    expect(rows.some((r) => r.site_name)).toBe(true);
    const listed = (await as.basic.query('system.getList', list())).data.data as Record<string, unknown>[];
    expect(listed).toHaveLength(3);
    for (const r of listed) {
      const row = rows.find((x) => x.system_cuid === r.id)!;
      expect({ site_name: r.site_name, company_name: r.company_name }).toEqual({ site_name: row.site_name, company_name: row.company_name });
      const one = (await as.basic.query('system.getOne', { id: r.id })).data.data;
      expect({ site_name: one.site_name, company_name: one.company_name }).toEqual({ site_name: row.site_name, company_name: row.company_name });
    }
    // A system shared with Other Energy Co shows its owner's name there.
    const shared = (await as.other.query('system.getList', list())).data.data as Record<string, unknown>[];
    for (const r of shared) expect(r.company_name).toBe(rows.find((x) => x.system_cuid === r.id)!.company_name);
    expect(new Set(shared.map((r) => r.company_name)).size).toBeGreaterThan(1);
  });

  it('getList pages, sorts, searches with q and filters by reference', async () => {
    const page = await as.superuser.query('system.getList', list({ pagination: { page: 2, perPage: 1 }, sort: { field: 'name', order: 'DESC' } }));
    expect(page.data.total).toBe(3);
    expect(names(page)).toEqual([[DEMO_SYSTEMS.farm, DEMO_SYSTEMS.clinic, DEMO_SYSTEMS.workshop].sort().reverse()[1]]);
    expect(names(await as.basic.query('system.getList', list({ filter: { q: 'clinic' } })))).toEqual([DEMO_SYSTEMS.clinic]);
    const own = await as.basic.query('system.getList', list({ filter: { company_cuid: company[DEMO_COMPANY_NAME] } }));
    expect(names(own)).toEqual([DEMO_SYSTEMS.farm, DEMO_SYSTEMS.workshop].sort());
    // filtering on a foreign company shows only what is shared from it
    const foreign = await as.basic.query('system.getList', list({ filter: { company_cuid: company[OTHER_COMPANY_NAME] } }));
    expect(names(foreign)).toEqual([DEMO_SYSTEMS.clinic]);
    expect((await as.basic.query('system.getList', list({ filter: { password: 'x' } }))).status).toBe(400);
    expect((await as.basic.query('system.getList', list({ sort: { field: 'pg_sleep(1)', order: 'ASC' } }))).status).toBe(400);
    const wild = await as.basic.query('system.getList', list({ filter: { q: '%' } }));
    expect(wild.data.total).toBe(0); // % is a character, not a wildcard
  });

  it('getOne / getMany: a foreign id is as missing as an unknown one', async () => {
    const farm = system[DEMO_SYSTEMS.farm];
    expect((await as.basic.query('system.getOne', { id: farm })).data.data.name).toBe(DEMO_SYSTEMS.farm);
    const foreign = await as.other.query('system.getOne', { id: farm });
    const unknown = await as.other.query('system.getOne', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toEqual(unknown.error);
    const many = await as.other.query('system.getMany', { ids: [farm, system[DEMO_SYSTEMS.clinic]] });
    expect(many.data.data.map((r: { name: string }) => r.name)).toEqual([DEMO_SYSTEMS.clinic]);
  });

  it('create needs level 1 in the owner company; a foreign company is as missing as an unknown one', async () => {
    const ok = await as.installer.mutate('system.create', {
      data: { company_cuid: company[DEMO_COMPANY_NAME], name: 'New hybrid plant', timezone: 'Africa/Lagos' },
    });
    expect(ok.status).toBe(200);
    expect(ok.data.data).toMatchObject({ name: 'New hybrid plant', timezone: 'Africa/Lagos', id: ok.data.data.system_cuid });
    expect((await as.expert.mutate('system.create', { data: { company_cuid: company[DEMO_COMPANY_NAME], name: 'x' } })).status).toBe(403);
    const foreign = await as.installer.mutate('system.create', { data: { company_cuid: company[OTHER_COMPANY_NAME], name: 'x' } });
    const unknown = await as.installer.mutate('system.create', { data: { company_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz', name: 'x' } });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toEqual(unknown.error);
    const badZone = await as.installer.mutate('system.create', { data: { company_cuid: company[DEMO_COMPANY_NAME], name: 'x', timezone: 'Mars/Olympus' } });
    expect(badZone.status).toBe(400);
    expect(badZone.error?.data.fieldErrors?.[0].path).toBe('data.timezone');
    const extra = await as.installer.mutate('system.create', { data: { company_cuid: company[DEMO_COMPANY_NAME], name: 'x', system_cuid: 'chosen' } });
    expect(extra.status).toBe(400);
  });

  it('list totals follow writes at once (cached counts are dropped on write)', async () => {
    const before = (await as.installer.query('system.getList', list())).data.total;
    expect((await as.installer.query('system.getList', list())).data.total).toBe(before); // served from the cache
    const created = await as.installer.mutate('system.create', { data: { company_cuid: company[DEMO_COMPANY_NAME], name: 'Counted plant' } });
    expect((await as.installer.query('system.getList', list())).data.total).toBe(before + 1);
    await as.installer.mutate('system.delete', { id: created.data.data.id });
    expect((await as.installer.query('system.getList', list())).data.total).toBe(before);
  });

  it('a system cannot point at a site of another company', async () => {
    const [foreignSite] = await t.db.dataSource.query(`SELECT site_cuid FROM site WHERE company_cuid = $1 LIMIT 1`, [company[OTHER_COMPANY_NAME]]);
    expect(foreignSite).toBeDefined();
    const res = await as.installer.mutate('system.update', { id: system[DEMO_SYSTEMS.farm], data: { site_cuid: foreignSite.site_cuid } });
    expect(res.status).toBe(404);
    expect(res.error?.message).toBe('Site not found');
  });

  it('update: owner company installers; a share with change allows it, a read-only share does not', async () => {
    const workshop = system[DEMO_SYSTEMS.workshop];
    const clinic = system[DEMO_SYSTEMS.clinic];
    const viaChange = await as['other-installer'].mutate('system.update', { id: workshop, data: { asset_number: 'WS-001' }, previousData: {} });
    expect(viaChange.status).toBe(200);
    expect(viaChange.data.data.asset_number).toBe('WS-001');
    const readOnly = await as.installer.mutate('system.update', { id: clinic, data: { asset_number: 'CL-9' } });
    expect(readOnly.status).toBe(403);
    expect((await as.expert.mutate('system.update', { id: workshop, data: { name: 'x' } })).status).toBe(403);
    // react-admin sends the whole record: fields that are not editable are ignored, not written
    const whole = await as.installer.mutate('system.update', {
      id: workshop,
      data: { ...viaChange.data.data, name: 'Demo Workshop Solar', company_cuid: company[OTHER_COMPANY_NAME] },
    });
    expect(whole.status).toBe(200);
    expect(whole.data.data.company_cuid).toBe(company[DEMO_COMPANY_NAME]);
  });

  it('deleteMany is all or nothing: one foreign id refuses the whole call', async () => {
    const a = await as.installer.mutate('system.create', { data: { company_cuid: company[DEMO_COMPANY_NAME], name: 'Temp A' } });
    const b = await as.installer.mutate('system.create', { data: { company_cuid: company[DEMO_COMPANY_NAME], name: 'Temp B' } });
    const refused = await as.installer.mutate('system.deleteMany', { ids: [a.data.data.id, system[DEMO_SYSTEMS.clinic], b.data.data.id] });
    expect(refused.status).toBe(403); // the clinic is shared read-only with the installer's company
    expect((await as.installer.query('system.getMany', { ids: [a.data.data.id, b.data.data.id] })).data.data).toHaveLength(2);
    const done = await as.installer.mutate('system.deleteMany', { ids: [a.data.data.id, b.data.data.id] });
    expect(done.data).toEqual({ data: [a.data.data.id, b.data.data.id] });
    expect((await as.installer.query('system.getMany', { ids: [a.data.data.id, b.data.data.id] })).data.data).toHaveLength(0);
  });

  it('sites: view needs level 2 and shows own company only; edits need level 1 there', async () => {
    expect((await as.basic.query('site.getList', list())).status).toBe(403);
    const expertSites = await as.expert.query('site.getList', list());
    expect(expertSites.status).toBe(200);
    expect(expertSites.data.data.every((s: { company_cuid: string }) => s.company_cuid === company[DEMO_COMPANY_NAME])).toBe(true);
    const created = await as.installer.mutate('site.create', {
      data: { name: 'Kisumu depot', lat: -0.1, long: 34.75, company_cuid: company[DEMO_COMPANY_NAME] },
    });
    expect(created.status).toBe(200);
    expect((await as.installer.mutate('site.create', { data: { name: 'Bad', lat: 91, company_cuid: company[DEMO_COMPANY_NAME] } })).status).toBe(400);
    const foreignDelete = await as['other-installer'].mutate('site.delete', { id: created.data.data.id });
    expect(foreignDelete.status).toBe(404);
    expect((await as.installer.mutate('site.delete', { id: created.data.data.id })).status).toBe(200);
  });
});
