import { newCuid } from '../../server/src/common/ids';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const list = (filter: Record<string, unknown> = {}) => ({ pagination: { page: 1, perPage: 100 }, filter });
const THIRD = 'Third Power Ltd';

describe('systemSharing: shares of systems with other companies', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const company: Record<string, string> = {};
  const system: Record<string, string> = {};
  const shares = async () =>
    await t.db.dataSource.query<unknown[]>(`SELECT system_cuid, company_cuid, change FROM system_sharing ORDER BY system_cuid, company_cuid`);

  beforeAll(async () => {
    t = await startTestApp();
    await t.db.dataSource.query(`INSERT INTO company (company_cuid, name) VALUES ($1, $2)`, [newCuid(), THIRD]);
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    await addMember(t.db.dataSource, 'third-installer@demo.local', THIRD, 1);
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other', 'other-installer', 'third-installer']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (const c of await t.db.dataSource.query(`SELECT company_cuid, name FROM company`)) company[c.name] = c.company_cuid;
    for (const s of await t.db.dataSource.query(`SELECT system_cuid, name FROM system`)) system[s.name] = s.system_cuid;
    // The farm is also shared with a third company: the other company must not see that share.
    await t.db.dataSource.query(`INSERT INTO system_sharing (system_cuid, company_cuid, change) VALUES ($1, $2, false)`, [
      system[DEMO_SYSTEMS.farm],
      company[THIRD],
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const id = (systemName: string, companyName: string) => `${system[systemName]}:${company[companyName]}`;

  it('lists the shares of the owner and the receiving side only, with company and system names', async () => {
    const demo = await as.basic.query('systemSharing.getList', list());
    expect(demo.status).toBe(200);
    expect(demo.data.data.map((s: { id: string }) => s.id).sort()).toEqual(
      [id(DEMO_SYSTEMS.farm, THIRD), id(DEMO_SYSTEMS.workshop, OTHER_COMPANY_NAME), id(DEMO_SYSTEMS.clinic, DEMO_COMPANY_NAME)].sort(),
    );
    expect(demo.data.total).toBe(3);
    const workshop = demo.data.data.find((s: { id: string }) => s.id === id(DEMO_SYSTEMS.workshop, OTHER_COMPANY_NAME));
    expect(workshop).toMatchObject({
      company_name: OTHER_COMPANY_NAME,
      system_name: DEMO_SYSTEMS.workshop,
      change: true,
      owner_company_cuid: company[DEMO_COMPANY_NAME],
    });

    const other = await as.other.query('systemSharing.getList', list());
    expect(other.data.data.map((s: { id: string }) => s.id).sort()).toEqual(
      [id(DEMO_SYSTEMS.workshop, OTHER_COMPANY_NAME), id(DEMO_SYSTEMS.clinic, DEMO_COMPANY_NAME)].sort(),
    );
    const third = await as['third-installer'].query('systemSharing.getList', list());
    expect(third.data.data.map((s: { id: string }) => s.id)).toEqual([id(DEMO_SYSTEMS.farm, THIRD)]);

    // Filters, references, search, sort
    const byCompany = await as.basic.query('systemSharing.getList', list({ company_cuid: company[THIRD] }));
    expect(byCompany.data.total).toBe(1);
    const ref = await as.basic.query('systemSharing.getManyReference', { ...list(), target: 'system_cuid', id: system[DEMO_SYSTEMS.clinic] });
    expect(ref.data.data.map((s: { company_name: string }) => s.company_name)).toEqual([DEMO_COMPANY_NAME]);
    const search = await as.basic.query('systemSharing.getList', list({ q: 'third' }));
    expect(search.data.total).toBe(1);
    const sorted = await as.basic.query('systemSharing.getList', { ...list(), sort: { field: 'system_name', order: 'DESC' } });
    expect(sorted.data.data.map((s: { system_name: string }) => s.system_name)).toEqual(
      [DEMO_SYSTEMS.workshop, DEMO_SYSTEMS.clinic, DEMO_SYSTEMS.farm].sort().reverse(),
    );
    expect((await as.basic.query('systemSharing.getList', list({ membership_cuid: 'x' }))).status).toBe(400);
    expect((await as.basic.query('systemSharing.getList', { ...list(), sort: { field: 'pg_sleep', order: 'ASC' } })).status).toBe(400);
    expect((await as.basic.query('systemSharing.getList', { ...list(), sort: { field: 'toString', order: 'ASC' } })).status).toBe(400);
    expect((await as.basic.query('systemSharing.getList', list({ hasOwnProperty: 'x', toString: 'y' }))).status).toBe(400);
  });

  it('getOne / getMany: a share of another company is NOT_FOUND, like a malformed id', async () => {
    expect((await as.other.query('systemSharing.getOne', { id: id(DEMO_SYSTEMS.farm, THIRD) })).status).toBe(404);
    expect((await as.other.query('systemSharing.getOne', { id: 'garbage' })).status).toBe(404);
    expect((await as.basic.query('systemSharing.getOne', { id: id(DEMO_SYSTEMS.farm, THIRD) })).data.data.company_name).toBe(THIRD);
    const many = await as.other.query('systemSharing.getMany', { ids: [id(DEMO_SYSTEMS.farm, THIRD), id(DEMO_SYSTEMS.clinic, DEMO_COMPANY_NAME), 'x:y:z'] });
    expect(many.data.data.map((s: { id: string }) => s.id)).toEqual([id(DEMO_SYSTEMS.clinic, DEMO_COMPANY_NAME)]);
    // access: the owner side's installer may change, the receiving side may not, foreign ids are left out
    const access = await as['other-installer'].query('systemSharing.access', {
      ids: [id(DEMO_SYSTEMS.clinic, DEMO_COMPANY_NAME), id(DEMO_SYSTEMS.workshop, OTHER_COMPANY_NAME), id(DEMO_SYSTEMS.farm, THIRD)],
    });
    expect(access.data.data).toEqual({
      [id(DEMO_SYSTEMS.clinic, DEMO_COMPANY_NAME)]: { edit: true, delete: true },
      [id(DEMO_SYSTEMS.workshop, OTHER_COMPANY_NAME)]: { edit: false, delete: false },
    });
  });

  it('create: level 1 of the owner company shares; the sharer membership is set by the server', async () => {
    const before = await shares();
    const input = { system_cuid: system[DEMO_SYSTEMS.farm], company_cuid: company[OTHER_COMPANY_NAME], change: false };
    // Refusals first: nothing is written by any of them
    expect((await as.basic.mutate('systemSharing.create', { data: input })).status).toBe(403);
    expect((await as.expert.mutate('systemSharing.create', { data: input })).status).toBe(403);
    // A share with change does not allow re-sharing
    const reshare = await as['other-installer'].mutate('systemSharing.create', {
      data: { system_cuid: system[DEMO_SYSTEMS.workshop], company_cuid: company[THIRD], change: true },
    });
    expect(reshare.status).toBe(403);
    // A system the caller cannot see is NOT_FOUND
    const hidden = await as['other-installer'].mutate('systemSharing.create', { data: { ...input, company_cuid: company[THIRD] } });
    expect(hidden.status).toBe(404);
    expect(hidden.error?.message).toBe('System not found');
    const own = await as.installer.mutate('systemSharing.create', { data: { ...input, company_cuid: company[DEMO_COMPANY_NAME] } });
    expect(own.status).toBe(400);
    expect(own.error?.data.fieldErrors).toEqual([{ path: 'data.company_cuid', message: expect.any(String) }]);
    const missing = await as.installer.mutate('systemSharing.create', { data: { ...input, company_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' } });
    expect(missing.status).toBe(404);
    expect(missing.error?.message).toBe('Company not found');
    const bad = await as.installer.mutate('systemSharing.create', { data: { ...input, change: 'yes', membership_cuid: 'forged' } });
    expect(bad.status).toBe(400);
    expect(bad.error?.data.fieldErrors?.map((e) => e.path).sort()).toEqual(['data', 'data.change'].sort());
    expect(await shares()).toEqual(before);

    const visibleBefore = (await as.other.query('system.getList', list())).data.total;
    const ok = await as.installer.mutate('systemSharing.create', { data: input });
    expect(ok.status).toBe(200);
    expect(ok.data.data).toMatchObject({
      id: id(DEMO_SYSTEMS.farm, OTHER_COMPANY_NAME),
      change: false,
      company_name: OTHER_COMPANY_NAME,
      system_name: DEMO_SYSTEMS.farm,
    });
    const [{ membership_cuid }] = await t.db.dataSource.query(
      `SELECT m.membership_cuid FROM company_membership m JOIN "user" u ON u.user_cuid = m.user_cuid WHERE u.email = 'installer@demo.local'`,
    );
    expect(ok.data.data.membership_cuid).toBe(membership_cuid);
    const again = await as.installer.mutate('systemSharing.create', { data: input });
    expect(again.status).toBe(409);
    // The receiving company now sees the farm
    expect((await as.other.query('system.getOne', { id: system[DEMO_SYSTEMS.farm] })).status).toBe(200);
    // … and counts it at once (cached list totals are dropped by a share write)
    expect((await as.other.query('system.getList', list())).data.total).toBe(visibleBefore + 1);
  });

  it('update: only the owner side changes the change flag', async () => {
    const farmOther = id(DEMO_SYSTEMS.farm, OTHER_COMPANY_NAME);
    const clinicDemo = id(DEMO_SYSTEMS.clinic, DEMO_COMPANY_NAME);
    // The receiving side (demo installer on the clinic share) may not give itself change
    expect((await as.installer.mutate('systemSharing.update', { id: clinicDemo, data: { change: true } })).status).toBe(403);
    expect((await as['other-installer'].mutate('systemSharing.update', { id: farmOther, data: { change: true } })).status).toBe(403);
    expect((await as['third-installer'].mutate('systemSharing.update', { id: clinicDemo, data: { change: true } })).status).toBe(404);
    expect((await as.installer.mutate('systemSharing.update', { id: farmOther, data: { change: 'maybe' } })).status).toBe(400);
    expect(
      await t.db.dataSource.query(`SELECT change FROM system_sharing WHERE system_cuid = $1 AND company_cuid = $2`, [
        system[DEMO_SYSTEMS.clinic],
        company[DEMO_COMPANY_NAME],
      ]),
    ).toEqual([{ change: false }]);
    // react-admin sends the whole record: only `change` is taken
    const res = await as.installer.mutate('systemSharing.update', {
      id: farmOther,
      data: { id: farmOther, change: true, company_cuid: company[THIRD], company_name: 'x', membership_cuid: 'y' },
    });
    expect(res.status).toBe(200);
    expect(res.data.data).toMatchObject({ change: true, company_cuid: company[OTHER_COMPANY_NAME] });
    expect((await as['other-installer'].mutate('systemSharing.update', { id: clinicDemo, data: { change: true } })).status).toBe(200);
    expect((await as['other-installer'].mutate('systemSharing.update', { id: clinicDemo, data: { change: false } })).status).toBe(200);
  });

  it('delete and deleteMany: owner side only, all or nothing', async () => {
    const before = await shares();
    const farmOther = id(DEMO_SYSTEMS.farm, OTHER_COMPANY_NAME);
    const clinicDemo = id(DEMO_SYSTEMS.clinic, DEMO_COMPANY_NAME);
    expect((await as.installer.mutate('systemSharing.delete', { id: clinicDemo })).status).toBe(403);
    expect((await as['other-installer'].mutate('systemSharing.delete', { id: id(DEMO_SYSTEMS.farm, THIRD) })).status).toBe(404);
    expect((await as.expert.mutate('systemSharing.delete', { id: farmOther })).status).toBe(403);
    expect((await as.installer.mutate('systemSharing.deleteMany', { ids: [farmOther, clinicDemo] })).status).toBe(403);
    expect(await shares()).toEqual(before);
    const gone = await as.installer.mutate('systemSharing.deleteMany', { ids: [farmOther, id(DEMO_SYSTEMS.farm, THIRD)] });
    expect(gone.status).toBe(200);
    expect(gone.data.data.sort()).toEqual([farmOther, id(DEMO_SYSTEMS.farm, THIRD)].sort());
    expect((await as.other.query('system.getOne', { id: system[DEMO_SYSTEMS.farm] })).status).toBe(404);
    // A superuser changes any share
    const removed = await as.superuser.mutate('systemSharing.delete', { id: id(DEMO_SYSTEMS.workshop, OTHER_COMPANY_NAME) });
    expect(removed.status).toBe(200);
    expect(removed.data.data.system_name).toBe(DEMO_SYSTEMS.workshop);
    expect(await shares()).toHaveLength(1);
  });
});
