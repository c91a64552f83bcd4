import { DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

/** `<resource>.access`: what screens ask before showing edit and delete (the §6 target rules). */
describe('generated CRUD: access per record', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const system: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    for (const who of ['superuser', 'installer', 'basic', 'other-installer']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (const s of await t.db.dataSource.query(`SELECT system_cuid, name FROM system`)) system[s.name] = s.system_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  const access = async (who: string) =>
    (await as[who].query('system.access', { ids: [system[DEMO_SYSTEMS.farm], system[DEMO_SYSTEMS.workshop], system[DEMO_SYSTEMS.clinic], 'unknown-id'] })).data
      .data as Record<string, { edit: boolean; delete: boolean }>;

  it('an installer may change their own systems, not one shared read-only with them', async () => {
    const a = await access('installer');
    expect(a[system[DEMO_SYSTEMS.farm]]).toEqual({ edit: true, delete: true });
    expect(a[system[DEMO_SYSTEMS.workshop]]).toEqual({ edit: true, delete: true });
    expect(a[system[DEMO_SYSTEMS.clinic]]).toEqual({ edit: false, delete: false });
    expect(a['unknown-id']).toBeUndefined();
  });

  it('an installer of the other company may change (not delete) the system shared with change, and sees nothing else', async () => {
    const a = await access('other-installer');
    expect(Object.keys(a).sort()).toEqual([system[DEMO_SYSTEMS.workshop], system[DEMO_SYSTEMS.clinic]].sort());
    expect(a[system[DEMO_SYSTEMS.workshop]]).toEqual({ edit: true, delete: false });
    expect(a[system[DEMO_SYSTEMS.clinic]]).toEqual({ edit: true, delete: true });
  });

  it('a Basic member sees their systems but may change none; a superuser all', async () => {
    const basic = await access('basic');
    expect(Object.values(basic)).toHaveLength(3);
    expect(Object.values(basic).every((x) => !x.edit && !x.delete)).toBe(true);
    const su = await access('superuser');
    expect(Object.values(su).every((x) => x.edit && x.delete)).toBe(true);
  });

  it('bad ids answer 400', async () => {
    expect((await as.basic.query('system.access', { ids: 'x' })).status).toBe(400);
  });
});
