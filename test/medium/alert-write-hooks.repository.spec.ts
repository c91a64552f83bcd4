import { SqlAlertWriteHooksRepository } from '../../server/src/alerts/engine/alert-write-hooks.repository';
import { ALERT_WRITES_JOB as JOB } from '../../server/src/alerts/engine/job-identity';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { addRuleTrigger, alertWorld, type AlertWorld, lowBattery } from './alert-fixtures';
import { mediumWorld, type MediumWorld } from './world';

/** alert-write-hooks.repository.ts on a real database: the rule checks, template sync and autocreation. */
describe('alert write hooks repository (database)', () => {
  let w: MediumWorld;
  let a: AlertWorld;
  let repo: SqlAlertWriteHooksRepository;
  let template: string;

  beforeAll(async () => {
    w = await mediumWorld();
    a = await alertWorld(w);
    repo = new SqlAlertWriteHooksRepository(w.ds);
    template = newCuid();
    await w.ds.query(
      `INSERT INTO notification_template_assignment (assignment_cuid, name, severity_level, message, release_message, args, autocreate_triggers, entitytype_id)
       VALUES ($1, 'Low battery', 'ERROR', 'Low {value}', NULL, $2, TRUE, 'pylontech-us5000')`,
      [template, JSON.stringify({ kind: 'threshold', parameter_id: 'battery_soc', op: 'below', value: 15 })],
    );
  });
  afterAll(() => w?.db.close());

  it('a device or controller of another company\'s system is not "in" this system', async () => {
    expect(await repo.deviceTypeInSystem(JOB, a.battery, a.farm)).toBe('pylontech-us5000');
    expect(await repo.deviceTypeInSystem(JOB, a.privateBattery, a.farm)).toBeUndefined();
    expect(await repo.deviceTypeInSystem(JOB, a.battery, a.privateSystem)).toBeUndefined();
    expect(await repo.controllerInSystem(JOB, DEMO_CONTROLLER_ID, a.farm)).toBe(true);
    expect(await repo.controllerInSystem(JOB, a.privateController, a.farm)).toBe(false);
    expect(await repo.typeLogsParameter(JOB, 'pylontech-us5000', 'battery_soc')).toBe(true);
    expect(await repo.typeLogsParameter(JOB, 'pylontech-us5000', 'pv_power')).toBe(false);
  });

  it('systemsOfTriggers (those the caller sees), markCustomized (only triggers made from a template) and restartJudgement write only the triggers named', async () => {
    const hand = await addRuleTrigger(w.ds, a.farm, lowBattery(a.battery));
    const made = await addRuleTrigger(w.ds, a.farm, lowBattery(a.battery), { assignment_cuid: template });
    const foreign = await addRuleTrigger(w.ds, a.privateSystem, lowBattery(a.privateBattery), { assignment_cuid: template });
    const demo = await w.actor('installer@demo.local');
    const other = await w.actor('other@demo.local');
    expect((await repo.systemsOfTriggers(demo, [hand, made])).sort()).toEqual([a.farm]);
    expect((await repo.systemsOfTriggers(demo, [hand, foreign])).sort()).toEqual([a.farm]);
    expect((await repo.systemsOfTriggers(other, [hand, foreign])).sort()).toEqual([a.privateSystem]);
    expect(await repo.systemVisible(demo, a.farm)).toBe(true);
    expect(await repo.systemVisible(demo, a.privateSystem)).toBe(false);
    expect(await repo.systemVisible(other, a.farm)).toBe(false);
    await repo.markCustomized(JOB, [hand, made]);
    const customized = await w.ds.query<{ trigger_cuid: string; c: boolean }[]>(
      `SELECT trigger_cuid, customized_at IS NOT NULL AS c FROM notification_trigger WHERE trigger_cuid = ANY($1) ORDER BY trigger_cuid`,
      [[hand, made, foreign]],
    );
    expect(Object.fromEntries(customized.map((r) => [r.trigger_cuid, r.c]))).toEqual({ [hand]: false, [made]: true, [foreign]: false });
    await w.ds.query(
      `INSERT INTO notification_trigger_status (trigger_cuid, pending_state, pending_since) VALUES ($1, 'TRIGGERED', now()), ($2, 'TRIGGERED', now())`,
      [hand, foreign],
    );
    await repo.restartJudgement(JOB, [hand]);
    const statuses = await w.ds.query<{ trigger_cuid: string; pending_state: string | null; due: boolean; via: string | null }[]>(
      `SELECT trigger_cuid, pending_state::text, next_execution IS NOT NULL AS due, next_execution_trigger::text AS via FROM notification_trigger_status WHERE trigger_cuid = ANY($1)`,
      [[hand, foreign]],
    );
    expect(statuses.find((s) => s.trigger_cuid === hand)).toEqual({ trigger_cuid: hand, pending_state: null, due: true, via: 'TIMER' });
    expect(statuses.find((s) => s.trigger_cuid === foreign)).toEqual({ trigger_cuid: foreign, pending_state: 'TRIGGERED', due: false, via: null });
    await w.ds.query(`DELETE FROM notification_trigger WHERE trigger_cuid = ANY($1)`, [[hand, made, foreign]]);
  });

  it('templates: read by key, their types, and the autocreate templates of devices', async () => {
    expect((await repo.templates(JOB, [template, 'nope'])).map((t) => t.assignment_cuid)).toEqual([template]);
    expect(await repo.template(JOB, template)).toMatchObject({
      name: 'Low battery',
      severity_level: 'ERROR',
      autocreate_triggers: true,
      entitytype_id: 'pylontech-us5000',
    });
    expect(await repo.template(JOB, 'nope')).toBeUndefined();
    expect(await repo.entityTypesOfTemplates(JOB, [template])).toEqual(['pylontech-us5000']);
    expect(await repo.autocreateTemplatesFor(JOB, [a.battery])).toEqual([template]);
    expect(await repo.autocreateTemplatesFor(JOB, [])).toEqual([]);
  });

  it("devicesWithoutTrigger keeps to the devices given (another company's device stays out), insertTemplated makes them, then none is missing", async () => {
    const tpl = { assignment_cuid: template, entitytype_id: 'pylontech-us5000' };
    expect((await repo.devicesWithoutTrigger(JOB, tpl)).map((d) => d.entity_cuid).sort()).toEqual([a.battery, a.privateBattery].sort());
    const mine = await repo.devicesWithoutTrigger(JOB, tpl, [a.battery]);
    expect(mine).toEqual([{ entity_cuid: a.battery, name: 'Battery bank', system_cuid: a.farm }]);
    const trigger_cuid = newCuid();
    await repo.transaction(JOB, (tx) =>
      repo.insertTemplated(JOB, tx, { assignment_cuid: template, severity_level: 'ERROR', message: 'Low {value}', release_message: null }, [
        { trigger_cuid, args: { ...lowBattery(a.battery), value: 15 }, name: 'Low battery – Battery bank', system_cuid: a.farm, charged_company_cuid: w.demo },
      ]),
    );
    expect(await repo.devicesWithoutTrigger(JOB, tpl, [a.battery])).toEqual([]);
    expect(await repo.linkedTriggers(JOB, template)).toEqual([
      { trigger_cuid, args: expect.objectContaining({ entity_cuid: a.battery }), device: 'Battery bank' },
    ]);
    await repo.updateTemplated(JOB, trigger_cuid, {
      name: 'Renamed',
      message: 'M',
      release_message: 'R',
      severity_level: 'CRITICAL',
      args: { ...lowBattery(a.battery), value: 10 },
    });
    const [row] = await w.ds.query<Record<string, unknown>[]>(
      `SELECT name, message, release_message, severity_level::text, args->>'value' AS value, is_active, charged_company_cuid FROM notification_trigger WHERE trigger_cuid = $1`,
      [trigger_cuid],
    );
    expect(row).toEqual({
      name: 'Renamed',
      message: 'M',
      release_message: 'R',
      severity_level: 'CRITICAL',
      value: '10',
      is_active: true,
      charged_company_cuid: w.demo,
    });
  });
});
