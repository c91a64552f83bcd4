import { StatusRepository } from '../../server/src/control/status/status.repository';
import { controlWorld, type ControlWorld } from './control-world';
import { mediumWorld, type MediumWorld } from './world';

/** status.repository.ts on a real database: a system's status rows and mutes, and who sees them. */
describe('status repository (database)', () => {
  let w: MediumWorld;
  let c: ControlWorld;
  let repo: StatusRepository;

  beforeAll(async () => {
    w = await mediumWorld();
    c = await controlWorld(w);
    repo = new StatusRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  const day = 24 * 3600_000;

  it('devices, parameters, controllers and history of a visible system', async () => {
    const basic = await w.actor('basic@demo.local');
    const devices = await repo.devices(basic, c.farm);
    expect(devices.map((d) => d.entity_cuid)).toContain(c.demoDevice);
    expect(devices[0]).toEqual(expect.objectContaining({ kind: 'Device', controller_id: c.demoController }));
    expect((await repo.parameters(basic, c.farm)).length).toBeGreaterThan(0);
    expect(await repo.controllers(basic, c.farm)).toEqual([expect.objectContaining({ controller_id: c.demoController, online_state: 'ONLINE' })]);
    await w.ds.query(
      `INSERT INTO controller_online_state_history (controller_id, "timestamp", online_state) VALUES ($1, now() - interval '1 hour', 'ONLINE')`,
      [c.demoController],
    );
    const history = await repo.history(basic, c.farm, new Date(Date.now() - day), new Date(), 100);
    expect(history).toEqual([expect.objectContaining({ controller_id: c.demoController, online_state: 'ONLINE' })]);
    expect(await repo.history(basic, c.farm, new Date(Date.now() - day), new Date(), 0)).toEqual([]);
  });

  it("a caller of company B reads nothing of the demo farm, and the demo company nothing of company B's system", async () => {
    const other = await w.actor('other@demo.local');
    const from = new Date(Date.now() - day);
    expect(await repo.devices(other, c.farm)).toEqual([]);
    expect(await repo.parameters(other, c.farm)).toEqual([]);
    expect(await repo.controllers(other, c.farm)).toEqual([]);
    expect(await repo.history(other, c.farm, from, new Date(), 100)).toEqual([]);
    expect(await repo.mutes(other, c.farm, undefined, 100)).toEqual([]);
    const basic = await w.actor('basic@demo.local');
    expect(await repo.devices(basic, c.otherSystem)).toEqual([]);
    expect(await repo.controllers(basic, c.otherSystem)).toEqual([]);
    await repo.transaction(async (tx) => {
      expect(await repo.lockVisibleDevice(other, tx, c.demoDevice)).toBeUndefined();
      expect(await repo.lockVisibleDevice(basic, tx, c.otherDevice)).toBeUndefined();
    });
  });

  it("mutes: insert, replace the running one, end; lists by state; a mute of the farm is not company B's to lock", async () => {
    const installer = await w.actor('installer@demo.local');
    const until = new Date(Date.now() + day);
    await repo.transaction(async (tx) => {
      const device = await repo.lockVisibleDevice(installer, tx, c.demoDevice);
      expect(device).toMatchObject({ entity_cuid: c.demoDevice, system_cuid: c.farm, timezone: expect.any(String) });
      expect(await repo.endRunningMutes(installer, tx, c.demoDevice)).toBe(0);
      await repo.insertMute(installer, tx, { mute_cuid: 'medium-mute-1', entity_cuid: c.demoDevice, system_cuid: c.farm, until, reason: 'test' });
    });
    await repo.transaction(async (tx) => {
      expect(await repo.endRunningMutes(installer, tx, c.demoDevice)).toBe(1);
      await repo.insertMute(installer, tx, { mute_cuid: 'medium-mute-2', entity_cuid: c.demoDevice, system_cuid: c.farm, until, reason: null });
      expect(await repo.oneMute(installer, tx, 'medium-mute-2')).toMatchObject({
        active: true,
        created_by: installer.user_cuid,
        created_by_name: expect.any(String),
      });
    });
    expect((await repo.mutes(installer, c.farm, true, 100)).map((m) => m.mute_cuid)).toEqual(['medium-mute-2']);
    expect((await repo.mutes(installer, c.farm, false, 100)).map((m) => m.mute_cuid)).toEqual(['medium-mute-1']);
    expect((await repo.mutes(installer, c.farm, undefined, 1)).length).toBe(1);

    const other = await w.actor('other@demo.local');
    await repo.transaction(async (tx) => {
      expect(await repo.lockVisibleMute(other, tx, 'medium-mute-2')).toBeUndefined();
      expect(await repo.lockVisibleMute(installer, tx, 'medium-mute-2')).toMatchObject({ system_cuid: c.farm, ended_at: null });
      await repo.endMute(installer, tx, 'medium-mute-2');
      await repo.writeChangelog(installer, tx, [
        { system_cuid: c.farm, kind: 'MUTE', title: 'medium', message: null, user_cuid: installer.user_cuid, ref: 'medium-mute-2' },
      ]);
    });
    expect(await repo.mutes(installer, c.farm, true, 100)).toEqual([]);
    expect(await w.ds.query(`SELECT 1 FROM system_changelog WHERE ref = 'medium-mute-2'`)).toHaveLength(1);
  });
});
