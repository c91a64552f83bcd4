import { DEMO_COMPANY_NAME, DEMO_CONTROLLER_ID, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/database/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const list = (filter: Record<string, unknown> = {}) => ({ pagination: { page: 1, perPage: 100 }, filter });

describe('fleet: controllers and devices', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const company: Record<string, string> = {};
  const system: Record<string, string> = {};
  let controllerType: string;

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    await addMember(t.db.dataSource, 'other-superuser@demo.local', OTHER_COMPANY_NAME, 0);
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other-installer', 'other-superuser']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (const c of await t.db.dataSource.query(`SELECT company_cuid, name FROM company`)) company[c.name] = c.company_cuid;
    for (const s of await t.db.dataSource.query(`SELECT system_cuid, name FROM system`)) system[s.name] = s.system_cuid;
    [{ controllertype_cuid: controllerType }] = await t.db.dataSource.query(`SELECT controllertype_cuid FROM controller_type LIMIT 1`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('controllers: Experts see their company\'s, Basic users none; installers configure, only level 0 adds', async () => {
    const seen = await as.expert.query('controller.getList', list());
    expect(seen.data.data.map((c: { controller_id: string }) => c.controller_id)).toContain(DEMO_CONTROLLER_ID);
    expect((await as.basic.query('controller.getList', list())).status).toBe(403);
    expect((await as['other-installer'].query('controller.getOne', { id: DEMO_CONTROLLER_ID })).status).toBe(404);
    const renamed = await as.installer.mutate('controller.update', { id: DEMO_CONTROLLER_ID, data: { sw_version: 'v3.50', ssh_port: 2222 } });
    expect(renamed.data.data).toMatchObject({ sw_version: 'v3.50', ssh_port: 2222 });
    expect((await as.installer.mutate('controller.update', { id: DEMO_CONTROLLER_ID, data: { ssh_port: 70000 } })).status).toBe(400);
    const add = { controller_id: 'farm-ctrl-2', controllertype_cuid: controllerType, company_cuid: company[DEMO_COMPANY_NAME], name: 'Second gateway', system_cuid: system[DEMO_SYSTEMS.farm] };
    expect((await as.installer.mutate('controller.create', { data: add })).status).toBe(403);
    expect((await as.superuser.mutate('controller.create', { data: add })).status).toBe(200);
    const badId = await as.superuser.mutate('controller.create', { data: { ...add, controller_id: 'has spaces/+#' } });
    expect(badId.status).toBe(400);
  });

  it('a controller cannot be put on another company\'s system, not even by a superuser of that other company', async () => {
    const res = await as['other-superuser'].mutate('controller.create', {
      data: { controller_id: 'x-ctrl', controllertype_cuid: controllerType, company_cuid: company[OTHER_COMPANY_NAME], name: 'x', system_cuid: system[DEMO_SYSTEMS.farm] },
    });
    expect(res.status).toBe(404);
    expect(res.error?.message).toBe('System not found');
  });

  it('devices: visible with their system; a device cannot be hung on a foreign controller', async () => {
    const devices = await as.expert.query('entity.getList', list({ system_cuid: system[DEMO_SYSTEMS.farm] }));
    expect(devices.data.total).toBe(4);
    expect((await as['other-installer'].query('entity.getList', list({ system_cuid: system[DEMO_SYSTEMS.farm] }))).data.total).toBe(0);
    const [{ controller_id: foreignController }] = await t.db.dataSource.query(
      `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, name) VALUES ('other-ctrl', $1, $2, 'Other gateway') RETURNING controller_id`,
      [controllerType, company[OTHER_COMPANY_NAME]],
    );
    const hijack = await as.installer.mutate('entity.create', {
      data: { name: 'Meter', entitytype_id: 'victron-multiplus-ii', system_cuid: system[DEMO_SYSTEMS.farm], controller_id: foreignController },
    });
    expect(hijack.status).toBe(404);
    expect(hijack.error?.message).toBe('Controller not found');
    const ok = await as.installer.mutate('entity.create', {
      data: { name: 'Meter', entitytype_id: 'victron-multiplus-ii', system_cuid: system[DEMO_SYSTEMS.farm], controller_id: DEMO_CONTROLLER_ID, config: { address: 7 } },
    });
    expect(ok.status).toBe(200);
    expect(ok.data.data.config).toEqual({ address: 7 });
    // Moving a device to a system the caller cannot see is refused like a missing system
    const moved = await as.installer.mutate('entity.update', { id: ok.data.data.id, data: { system_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' } });
    expect(moved.status).toBe(404);
    expect((await as.expert.mutate('entity.delete', { id: ok.data.data.id })).status).toBe(403);
    expect((await as.installer.mutate('entity.delete', { id: ok.data.data.id })).status).toBe(200);
  });
});
