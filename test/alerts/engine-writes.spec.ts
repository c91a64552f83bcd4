import type { HttpClient } from '../factories/http-client';
import { type AlertTestApp, startAlertApp } from './support';

/**
 * Trigger and template writes: rules are checked (field errors on args.<field>), may only name
 * devices, parameters and controllers of the trigger's own system (NOT_FOUND otherwise), and
 * templates with autocreate_triggers make and keep in step one trigger per device of their type,
 * leaving hand-edited ones alone.
 */
describe('alert trigger writes and template autocreation', () => {
  let t: AlertTestApp;
  let installer: HttpClient;
  let superuser: HttpClient;
  let farm: string;
  let clinicBattery: string;

  beforeAll(async () => {
    t = await startAlertApp();
    installer = await t.client('installer@demo.local');
    superuser = await t.client('superuser@demo.local');
    [{ system_cuid: farm }] = await t.query(`SELECT system_cuid FROM entity WHERE entity_cuid = $1`, [t.demo.battery]);
    // A device of the other company's clinic.
    const [{ controllertype_cuid }] = await t.query(`SELECT controllertype_cuid FROM controller LIMIT 1`);
    await t.query(
      `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ('other-ctrl-1', $1, $2, $3, 'Clinic')`,
      [controllertype_cuid, t.demo.otherCompany, t.demo.clinic],
    );
    clinicBattery = 'clinicbattery00000000001';
    await t.query(
      `INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ($1, 'Clinic battery', 'other-ctrl-1', 'pylontech-us5000', $2)`,
      [clinicBattery, t.demo.clinic],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (args: unknown, client = installer) =>
    client.mutate('notificationTrigger.create', { data: { name: 'Rule', message: 'm', system_cuid: farm, args } });
  const threshold = (over: Record<string, unknown> = {}) => ({
    kind: 'threshold',
    entity_cuid: t.demo.battery,
    parameter_id: 'battery_soc',
    op: 'below',
    value: 20,
    ...over,
  });

  it('refuses a rule that does not parse, with the field named under args', async () => {
    const bad = await create(threshold({ value: 'low' }));
    expect(bad.error?.data.code).toBe('BAD_REQUEST');
    expect(bad.error?.data.fieldErrors?.map((f) => f.path)).toEqual(['args.value']);
    const wrongSide = await create(threshold({ release_value: 10 }));
    expect(wrongSide.error?.data.code).toBe('BAD_REQUEST');
    expect(wrongSide.error?.data.fieldErrors?.map((f) => f.path)).toEqual(['args.release_value']);
    const empty = await create({});
    expect(empty.error?.data.code).toBe('BAD_REQUEST');
    expect(await t.query(`SELECT 1 FROM notification_trigger`)).toEqual([]);
  });

  it("answers NOT_FOUND for another company's device, a parameter the device does not log, or a controller of another system", async () => {
    const foreign = await create(threshold({ entity_cuid: clinicBattery }));
    expect(foreign.error?.data.code).toBe('NOT_FOUND');
    const missing = await create(threshold({ entity_cuid: 'nosuchdevice000000000001' }));
    expect(missing.error?.data.code).toBe('NOT_FOUND');
    expect(missing.error?.message).toBe(foreign.error?.message);
    const parameter = await create(threshold({ parameter_id: 'pv_power' }));
    expect(parameter.error?.data.code).toBe('NOT_FOUND');
    const controller = await create({ kind: 'offline', controller_id: 'other-ctrl-1' });
    expect(controller.error?.data.code).toBe('NOT_FOUND');
    // An update naming a foreign device is refused the same way.
    const ok = await create(threshold());
    expect(ok.error).toBeUndefined();
    const id = ok.data.data.trigger_cuid;
    const update = await installer.mutate('notificationTrigger.update', { id, data: { args: threshold({ entity_cuid: clinicBattery }) } });
    expect(update.error?.data.code).toBe('NOT_FOUND');
    const [stored] = await t.query(`SELECT args FROM notification_trigger WHERE trigger_cuid = $1`, [id]);
    expect(stored.args.entity_cuid).toBe(t.demo.battery);
    // The engine indexed the new trigger on this instance at once.
    expect(t.engine.size).toBe(1);
    await installer.mutate('notificationTrigger.delete', { id });
    expect(t.engine.size).toBe(0);
  });

  it('a template with autocreate_triggers makes a trigger per device of its type, new devices included, and keeps them in step except hand-edited ones', async () => {
    const devices = await t.query<{ entity_cuid: string; system_cuid: string }>(
      `SELECT entity_cuid, system_cuid FROM entity WHERE entitytype_id = 'pylontech-us5000' AND system_cuid IS NOT NULL`,
    );
    expect(devices.length).toBeGreaterThanOrEqual(2);
    const badTemplate = await superuser.mutate('notificationTemplateAssignment.create', {
      data: {
        name: 'Low battery',
        message: 'x',
        entitytype_id: 'pylontech-us5000',
        autocreate_triggers: true,
        args: { kind: 'threshold', parameter_id: 'pv_power', op: 'below', value: 20 },
      },
    });
    expect(badTemplate.error?.data.code).toBe('NOT_FOUND');
    const created = await superuser.mutate('notificationTemplateAssignment.create', {
      data: {
        name: 'Low battery',
        message: '{device} low: {value} {unit}',
        severity_level: 'WARNING',
        entitytype_id: 'pylontech-us5000',
        autocreate_triggers: true,
        args: { kind: 'threshold', parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 25 },
      },
    });
    expect(created.error).toBeUndefined();
    const tpl = created.data.data.assignment_cuid as string;
    const triggersOf = () =>
      t.query<{
        trigger_cuid: string;
        name: string;
        message: string;
        severity_level: string;
        args: Record<string, unknown>;
        system_cuid: string;
        customized_at: Date | null;
      }>(
        `SELECT trigger_cuid, name, message, severity_level::text AS severity_level, args, system_cuid, customized_at FROM notification_trigger WHERE assignment_cuid = $1 ORDER BY args->>'entity_cuid'`,
        [tpl],
      );
    let triggers = await triggersOf();
    expect(triggers.map((x) => [x.args.entity_cuid, x.system_cuid]).sort()).toEqual(devices.map((d) => [d.entity_cuid, d.system_cuid]).sort());
    expect(triggers[0]).toMatchObject({ message: '{device} low: {value} {unit}', severity_level: 'WARNING', customized_at: null });
    expect(triggers[0].args).toMatchObject({ kind: 'threshold', parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 25, for_seconds: 0 });
    expect(t.engine.size).toBe(devices.length);

    // A new device of the type gets its trigger.
    const device = await installer.mutate('entity.create', {
      data: { name: 'Second battery', controller_id: 'demo-ctrl-1', entitytype_id: 'pylontech-us5000', system_cuid: farm },
    });
    expect(device.error).toBeUndefined();
    const newDevice = device.data.data.entity_cuid as string;
    triggers = await triggersOf();
    expect(triggers.map((x) => x.args.entity_cuid)).toContain(newDevice);
    expect(triggers.find((x) => x.args.entity_cuid === newDevice)!.name).toBe('Low battery – Second battery');

    // A hand edit marks the trigger customized.
    const mine = triggers.find((x) => x.args.entity_cuid === t.demo.battery)!;
    const edit = await installer.mutate('notificationTrigger.update', { id: mine.trigger_cuid, data: { message: 'my own words' } });
    expect(edit.error).toBeUndefined();
    // Pausing is not editing.
    const other = triggers.find((x) => x.args.entity_cuid === newDevice)!;
    await installer.mutate('notificationTrigger.update', { id: other.trigger_cuid, data: { is_active: false } });

    // The template changes: its triggers follow, except the customized one.
    const changed = await superuser.mutate('notificationTemplateAssignment.update', {
      id: tpl,
      data: {
        message: 'Battery {device} at {value}',
        severity_level: 'CRITICAL',
        args: { kind: 'threshold', parameter_id: 'battery_soc', op: 'below', value: 15 },
      },
    });
    expect(changed.error).toBeUndefined();
    triggers = await triggersOf();
    for (const x of triggers) {
      if (x.trigger_cuid === mine.trigger_cuid) {
        expect(x).toMatchObject({ message: 'my own words', severity_level: 'WARNING' });
        expect(x.customized_at).not.toBeNull();
        expect(x.args.value).toBe(20);
      } else {
        expect(x).toMatchObject({ message: 'Battery {device} at {value}', severity_level: 'CRITICAL', customized_at: null });
        expect(x.args).toMatchObject({ value: 15, entity_cuid: expect.any(String) });
        expect(x.args.release_value).toBeUndefined();
      }
    }

    // Autocreate off: the triggers stay; a new device gets none.
    await superuser.mutate('notificationTemplateAssignment.update', { id: tpl, data: { autocreate_triggers: false } });
    const third = await installer.mutate('entity.create', {
      data: { name: 'Third battery', controller_id: 'demo-ctrl-1', entitytype_id: 'pylontech-us5000', system_cuid: farm },
    });
    expect(third.error).toBeUndefined();
    expect((await triggersOf()).length).toBe(triggers.length);

    // The template deleted: its triggers stay, detached, as ordinary triggers.
    const del = await superuser.mutate('notificationTemplateAssignment.delete', { id: tpl });
    expect(del.error).toBeUndefined();
    const ids = triggers.map((x) => x.trigger_cuid);
    const left = await t.query(`SELECT assignment_cuid FROM notification_trigger WHERE trigger_cuid = ANY($1::varchar[])`, [ids]);
    expect(left.map((r) => r.assignment_cuid)).toEqual(ids.map(() => null));
  });
});
