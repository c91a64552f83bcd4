import { DEMO_COMPANY_NAME, DEMO_CONTROLLER_ID, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
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

  it("controllers: Experts see their company's, Basic users none; installers configure, only level 0 adds", async () => {
    const seen = await as.expert.query('controller.getList', list());
    expect(seen.data.data.map((c: { controller_id: string }) => c.controller_id)).toContain(DEMO_CONTROLLER_ID);
    expect((await as.basic.query('controller.getList', list())).status).toBe(403);
    expect((await as['other-installer'].query('controller.getOne', { id: DEMO_CONTROLLER_ID })).status).toBe(404);
    const renamed = await as.installer.mutate('controller.update', { id: DEMO_CONTROLLER_ID, data: { sw_version: 'v3.50', ssh_port: 2222 } });
    expect(renamed.data.data).toMatchObject({ sw_version: 'v3.50', ssh_port: 2222 });
    expect((await as.installer.mutate('controller.update', { id: DEMO_CONTROLLER_ID, data: { ssh_port: 70000 } })).status).toBe(400);
    const add = {
      controller_id: 'farm-ctrl-2',
      controllertype_cuid: controllerType,
      company_cuid: company[DEMO_COMPANY_NAME],
      name: 'Second gateway',
      system_cuid: system[DEMO_SYSTEMS.farm],
    };
    expect((await as.installer.mutate('controller.create', { data: add })).status).toBe(403);
    expect((await as.superuser.mutate('controller.create', { data: add })).status).toBe(200);
    const badId = await as.superuser.mutate('controller.create', { data: { ...add, controller_id: 'has spaces/+#' } });
    expect(badId.status).toBe(400);
  });

  it("a controller cannot be put on another company's system, not even by a superuser of that other company", async () => {
    const res = await as['other-superuser'].mutate('controller.create', {
      data: {
        controller_id: 'x-ctrl',
        controllertype_cuid: controllerType,
        company_cuid: company[OTHER_COMPANY_NAME],
        name: 'x',
        system_cuid: system[DEMO_SYSTEMS.farm],
      },
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
      data: {
        name: 'Meter',
        entitytype_id: 'victron-multiplus-ii',
        system_cuid: system[DEMO_SYSTEMS.farm],
        controller_id: DEMO_CONTROLLER_ID,
        config: { address: 7 },
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.data.data.config).toEqual({ address: 7 });
    // Moving a device to a system the caller cannot see is refused like a missing system
    const moved = await as.installer.mutate('entity.update', { id: ok.data.data.id, data: { system_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' } });
    expect(moved.status).toBe(404);
    expect((await as.expert.mutate('entity.delete', { id: ok.data.data.id })).status).toBe(403);
    expect((await as.installer.mutate('entity.delete', { id: ok.data.data.id })).status).toBe(200);
  });

  describe("a share with change edits in place (the owner's data stays the owner's)", () => {
    // The demo company shares its workshop with the other company, with change; the farm is not shared.
    let device: string;
    let otherDevice: string;
    const where = async (id: string) => (await t.db.dataSource.query(`SELECT system_cuid, controller_id, name FROM entity WHERE entity_cuid = $1`, [id]))[0];

    beforeAll(async () => {
      [{ entity_cuid: device }] = await t.db.dataSource.query(
        `INSERT INTO entity (entity_cuid, name, entitytype_id, system_cuid) VALUES ('workshopdevice0000000001', 'Workshop meter', 'victron-multiplus-ii', $1) RETURNING entity_cuid`,
        [system[DEMO_SYSTEMS.workshop]],
      );
      [{ entity_cuid: otherDevice }] = await t.db.dataSource.query(
        `INSERT INTO entity (entity_cuid, name, entitytype_id, system_cuid) VALUES ('clinicdevice000000000001', 'Clinic meter', 'victron-multiplus-ii', $1) RETURNING entity_cuid`,
        [system[DEMO_SYSTEMS.clinic]],
      );
    });

    it("the receiver edits the owner's device in place", async () => {
      const renamed = await as['other-installer'].mutate('entity.update', { id: device, data: { name: 'Workshop meter (checked)' } });
      expect(renamed.status).toBe(200);
      expect((await where(device)).name).toBe('Workshop meter (checked)');
    });

    it("the receiver cannot move the owner's device into its own system, nor its own device into the owner's; the owner still sees theirs", async () => {
      const out = await as['other-installer'].mutate('entity.update', { id: device, data: { system_cuid: system[DEMO_SYSTEMS.clinic] } });
      expect(out.status).toBe(403);
      const outMany = await as['other-installer'].mutate('entity.updateMany', { ids: [device], data: { system_cuid: system[DEMO_SYSTEMS.clinic] } });
      expect(outMany.status).toBe(403);
      expect((await where(device)).system_cuid).toBe(system[DEMO_SYSTEMS.workshop]);
      expect((await as.expert.query('entity.getOne', { id: device })).status).toBe(200);
      const into = await as['other-installer'].mutate('entity.update', { id: otherDevice, data: { system_cuid: system[DEMO_SYSTEMS.workshop] } });
      expect(into.status).toBe(403);
      expect((await where(otherDevice)).system_cuid).toBe(system[DEMO_SYSTEMS.clinic]);
    });

    it("the receiver cannot delete the owner's system (nor change its owner company); the owner can still move devices between its own systems", async () => {
      expect((await as['other-installer'].mutate('system.delete', { id: system[DEMO_SYSTEMS.workshop] })).status).toBe(403);
      expect((await as['other-installer'].mutate('system.deleteMany', { ids: [system[DEMO_SYSTEMS.workshop]] })).status).toBe(403);
      const owner = await as['other-installer'].mutate('system.update', {
        id: system[DEMO_SYSTEMS.workshop],
        data: { company_cuid: company[OTHER_COMPANY_NAME], name: 'Demo Workshop Solar' },
      });
      expect(owner.status).toBe(200);
      const [row] = await t.db.dataSource.query(`SELECT company_cuid FROM system WHERE system_cuid = $1`, [system[DEMO_SYSTEMS.workshop]]);
      expect(row.company_cuid).toBe(company[DEMO_COMPANY_NAME]);
      expect((await where(device)).system_cuid).toBe(system[DEMO_SYSTEMS.workshop]);
      // the owner's installer moves the device to the farm and back
      expect((await as.installer.mutate('entity.update', { id: device, data: { system_cuid: system[DEMO_SYSTEMS.farm] } })).status).toBe(200);
      expect((await as.installer.mutate('entity.update', { id: device, data: { system_cuid: system[DEMO_SYSTEMS.workshop] } })).status).toBe(200);
    });

    it('a controller of another system answers exactly like a missing one (no binding, nothing learnt), for the receiver and the owner', async () => {
      for (const who of ['other-installer', 'installer', 'superuser']) {
        const foreignSystem = await as[who].mutate('entity.update', { id: device, data: { controller_id: DEMO_CONTROLLER_ID } });
        const missing = await as[who].mutate('entity.update', { id: device, data: { controller_id: 'no-such-controller' } });
        expect({ who, status: foreignSystem.status, message: foreignSystem.error?.message, fields: foreignSystem.error?.data.fieldErrors }).toEqual({
          who,
          status: missing.status,
          message: missing.error?.message,
          fields: missing.error?.data.fieldErrors,
        });
        expect(foreignSystem.status).toBe(404);
        const created = await as[who].mutate('entity.create', {
          data: { name: 'Sneaky', entitytype_id: 'victron-multiplus-ii', system_cuid: system[DEMO_SYSTEMS.workshop], controller_id: DEMO_CONTROLLER_ID },
        });
        expect([who, created.status, created.error?.message]).toEqual([who, 404, missing.error?.message]);
      }
      expect((await where(device)).controller_id).toBeNull();
      const [{ n }] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM entity WHERE name = 'Sneaky'`);
      expect(n).toBe(0);
      // a controller of the same system binds (the farm's controller to a farm device)
      const farmDevice = await as.installer.mutate('entity.create', {
        data: { name: 'Farm meter', entitytype_id: 'victron-multiplus-ii', system_cuid: system[DEMO_SYSTEMS.farm], controller_id: DEMO_CONTROLLER_ID },
      });
      expect(farmDevice.status).toBe(200);
    });
  });
});
