import { CommandsRepository } from '../../server/src/control/commands/commands.repository';
import { StepUpsRepository } from '../../server/src/control/commands/step-ups.repository';
import { systemJob } from '../../server/src/common/system-job';
import { controlWorld, type ControlWorld } from './control-world';
import { mediumWorld, type MediumWorld } from './world';

/** commands.repository.ts and step-ups.repository.ts on a real database: the rows, and who sees them. */
describe('commands repository (database)', () => {
  let w: MediumWorld;
  let c: ControlWorld;
  let repo: CommandsRepository;
  let stepUps: StepUpsRepository;

  beforeAll(async () => {
    w = await mediumWorld();
    c = await controlWorld(w);
    repo = new CommandsRepository(w.ds);
    stepUps = new StepUpsRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  const newCommand = (command_id: string, controller_id: string, company_cuid: string) => ({
    command_id,
    controller_id,
    company_cuid,
    system_cuid: null,
    kind: 'restart',
    payload: { delay_s: 1 },
    dangerous: true,
    not_after: new Date(Date.now() + 60_000),
  });

  it('visibleController: the controller with its declared commands, shares and zone for its company; nothing for company B', async () => {
    const installer = await w.actor('installer@demo.local');
    const row = await repo.visibleController(installer, c.demoController);
    expect(row).toMatchObject({
      controller_id: c.demoController,
      company_cuid: w.demo,
      system_cuid: c.farm,
      shares: expect.any(Array),
      timezone: expect.any(String),
    });
    expect(await repo.visibleController(await w.actor('superuser@demo.local'), c.otherController)).toMatchObject({ company_cuid: w.other });
    const other = await w.actor('other@demo.local');
    expect(await repo.visibleController(other, c.demoController)).toBeUndefined();
    expect(await repo.visibleController(installer, c.otherController)).toBeUndefined();
  });

  it('insert stores a PENDING command requested by the caller, once per id; record reads it back', async () => {
    const installer = await w.actor('installer@demo.local');
    const first = await repo.transaction((tx) => repo.insert(installer, tx, newCommand('medium-cmd-1', c.demoController, w.demo)));
    const again = await repo.transaction((tx) => repo.insert(installer, tx, newCommand('medium-cmd-1', c.demoController, w.demo)));
    expect([first, again]).toEqual([true, false]);
    expect(await repo.record(installer, 'medium-cmd-1')).toMatchObject({
      id: 'medium-cmd-1',
      controller_name: 'Demo Farm Cerbo GX',
      status: 'PENDING',
      requested_by: installer.user_cuid,
      requester_name: expect.any(String),
      payload: { delay_s: 1 },
      dangerous: true,
    });
    expect(await repo.record(installer, 'nope')).toBeUndefined();
  });

  it("configEntities, lastApply, entityKinds and deviceType answer for the caller's controller only, never company B's", async () => {
    const installer = await w.actor('installer@demo.local');
    const other = await w.actor('other@demo.local');
    await repo.transaction((tx) =>
      repo.insert(installer, tx, { ...newCommand('medium-apply-a', c.demoController, w.demo), kind: 'apply_config', payload: {} }),
    );
    await repo.transaction((tx) => repo.insert(other, tx, { ...newCommand('medium-apply-b', c.otherController, w.other), kind: 'apply_config', payload: {} }));

    const entities = await repo.configEntities(installer, c.demoController);
    expect(entities.map((e) => e.entity_cuid)).toContain(c.demoDevice);
    expect(entities.every((e) => e.kind === 'Device' && e.entity_cuid !== c.otherDevice)).toBe(true);
    expect((await repo.lastApply(installer, c.demoController))?.command_id).toBe('medium-apply-a');
    expect(await repo.entityKinds(installer, c.demoController, [c.demoDevice, c.otherDevice])).toEqual([{ entity_cuid: c.demoDevice, kind: 'Device' }]);
    expect(await repo.deviceType(installer, c.demoController, c.demoDevice)).toEqual(expect.any(String));

    // Company B asks about the demo controller: nothing; and the demo company about company B's.
    expect(await repo.configEntities(other, c.demoController)).toEqual([]);
    expect(await repo.lastApply(other, c.demoController)).toBeUndefined();
    expect(await repo.entityKinds(other, c.demoController, [c.demoDevice])).toEqual([]);
    expect(await repo.deviceType(other, c.demoController, c.demoDevice)).toBeUndefined();
    expect(await repo.configEntities(installer, c.otherController)).toEqual([]);
    expect(await repo.lastApply(installer, c.otherController)).toBeUndefined();
  });

  it('typeLogsParameter reads the catalogue', async () => {
    const installer = await w.actor('installer@demo.local');
    const type = (await repo.deviceType(installer, c.demoController, c.demoDevice))!;
    const [assigned] = await w.ds.query<{ parameter_id: string }[]>(
      `SELECT parameter_id FROM entity_type_log_parameter_assignment WHERE entitytype_id = $1 LIMIT 1`,
      [type],
    );
    expect(await repo.typeLogsParameter(installer, type, assigned.parameter_id)).toBe(true);
    expect(await repo.typeLogsParameter(installer, type, 'no-such-parameter')).toBe(false);
  });

  it("the desired configuration of the controller and of its own devices is locked and written in the caller's transaction", async () => {
    const installer = await w.actor('installer@demo.local');
    await repo.transaction(async (tx) => {
      await repo.lockController(installer, tx, c.demoController);
      const ctrl = await repo.lockControllerConfig(installer, tx, c.demoController);
      await repo.writeControllerConfig(installer, tx, c.demoController, { ...ctrl!.config, medium: 1 });
      const dev = await repo.lockDeviceConfig(installer, tx, c.demoController, c.demoDevice);
      await repo.writeDeviceConfig(installer, tx, c.demoDevice, { ...dev!.config, medium: 2 });
      // A device of another controller is not "on" this one.
      expect(await repo.lockDeviceConfig(installer, tx, c.demoController, c.otherDevice)).toBeUndefined();
    });
    expect((await repo.visibleController(installer, c.demoController))?.config).toMatchObject({ medium: 1 });
    expect((await repo.configEntities(installer, c.demoController)).find((e) => e.entity_cuid === c.demoDevice)?.config).toMatchObject({ medium: 2 });
  });

  it('step-ups: recent only for the same session and user; the sweep forgets old ones', async () => {
    const installer = await w.actor('installer@demo.local');
    const other = await w.actor('other@demo.local');
    expect(await stepUps.signIn(installer)).toMatchObject({ email: 'installer@demo.local', password: expect.any(String) });
    await stepUps.record(installer, { sid: 'medium-sid' });
    expect(await stepUps.recent(installer, { sid: 'medium-sid' }, 300)).toBe(true);
    expect(await stepUps.recent(installer, { sid: 'another-sid' }, 300)).toBe(false);
    // Another company's user presenting the same session id gets nothing from it.
    expect(await stepUps.recent(other, { sid: 'medium-sid' }, 300)).toBe(false);
    await w.ds.query(`UPDATE session_step_up SET verified_at = now() - interval '10 minutes' WHERE sid = 'medium-sid'`);
    expect(await stepUps.recent(installer, { sid: 'medium-sid' }, 300)).toBe(false);
    await stepUps.sweep(systemJob('medium'), 300);
    expect(await w.ds.query(`SELECT 1 FROM session_step_up WHERE sid = 'medium-sid'`)).toEqual([]);
  });
});
