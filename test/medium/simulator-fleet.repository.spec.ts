import { systemJob } from '../../server/src/common/system-job';
import { SimulatorFleetRepository } from '../../server/src/simulator/simulator-fleet.repository';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { mediumWorld, type MediumWorld } from './world';
import { demoSystems } from './world-systems';

/** simulator-fleet.repository.ts on a real database: the fleet the simulator drives and makes, and its tokens. */
describe('simulator fleet repository (database)', () => {
  let w: MediumWorld;
  let repo: SimulatorFleetRepository;
  const job = systemJob('test-simulator');
  const live = async (company_cuid: string) =>
    (
      await w.ds.query<{ token_cuid: string }[]>(`SELECT token_cuid FROM auth_token WHERE company_cuid = $1 AND revoked_at IS NULL ORDER BY token_cuid`, [
        company_cuid,
      ])
    ).map((t) => t.token_cuid);

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new SimulatorFleetRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  it('fleetDevices: a controller by id or pattern, each device with what it logs; configurations; latest data', async () => {
    const s = await demoSystems(w);
    const rows = await repo.fleetDevices(job, [DEMO_CONTROLLER_ID], null);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.controller_id === DEMO_CONTROLLER_ID && r.company_cuid === w.demo && r.system_cuid === s.farm)).toBe(true);
    expect(rows.find((r) => r.entity_cuid === s.battery)?.parameters).toContain('battery_soc');
    expect(await repo.fleetDevices(job, null, '^demo-ctrl-')).toEqual(rows);
    expect(await repo.fleetDevices(job, null, '^nothing$')).toEqual([]);
    expect((await repo.controllerConfigs(job, [DEMO_CONTROLLER_ID])).map((c) => c.controller_id)).toEqual([DEMO_CONTROLLER_ID]);
    expect(new Set((await repo.deviceConfigs(job, [DEMO_CONTROLLER_ID])).map((d) => d.entity_cuid))).toEqual(new Set(rows.map((r) => r.entity_cuid)));
    expect(await repo.lastDataAt(job, [s.battery])).toBeNull();
  });

  it("replaceToken revokes only that company's earlier tokens of that description; another company's stay", async () => {
    await repo.replaceToken(job, w.other, 'Simulator', { token_cuid: 'other1', token_hash: 'a'.repeat(64) });
    await repo.replaceToken(job, w.demo, 'Simulator', { token_cuid: 'demo1', token_hash: 'b'.repeat(64) });
    await repo.replaceToken(job, w.demo, 'Other use', { token_cuid: 'demo2', token_hash: 'c'.repeat(64) });
    await repo.replaceToken(job, w.demo, 'Simulator', { token_cuid: 'demo3', token_hash: 'd'.repeat(64) });
    expect(await live(w.demo)).toEqual(expect.arrayContaining(['demo2', 'demo3']));
    expect(await live(w.demo)).not.toContain('demo1');
    expect(await live(w.other)).toContain('other1');
  });

  it('insertSystem and the catalogue reads: a system with its controller and devices, all or nothing', async () => {
    const [{ entitytype_id }] = await w.ds.query<{ entitytype_id: string }[]>(`SELECT entitytype_id FROM entity_type LIMIT 1`);
    expect(await repo.existingEntityTypes(job, [entitytype_id, 'nothing'])).toEqual([entitytype_id]);
    const controllertype_cuid = (await repo.firstControllerType(job))!;
    expect(controllertype_cuid).toEqual(expect.any(String));
    expect(await repo.companyByName(job, 'Simulated Fleet')).toBeUndefined();
    await repo.insertCompany(job, 'simco', 'Simulated Fleet');
    expect(await repo.companyByName(job, 'Simulated Fleet')).toBe('simco');
    const system = {
      system_cuid: 'simsys1',
      company_cuid: 'simco',
      name: 'Simulated system 0001',
      controller: { controller_id: 'sim-ctrl-0001', controllertype_cuid, name: 'Simulated controller 1' },
      devices: [{ entity_cuid: 'simdev1', name: 'Device', entitytype_id }],
    };
    await repo.insertSystem(job, system);
    expect(await repo.controllerExists(job, 'sim-ctrl-0001')).toBe(true);
    // A second system whose device type is missing leaves nothing behind.
    await expect(
      repo.insertSystem(job, {
        ...system,
        system_cuid: 'simsys2',
        controller: { ...system.controller, controller_id: 'sim-ctrl-0002' },
        devices: [{ entity_cuid: 'simdev2', name: 'D', entitytype_id: 'nothing' }],
      }),
    ).rejects.toThrow();
    expect(await repo.controllerExists(job, 'sim-ctrl-0002')).toBe(false);
  });
});
