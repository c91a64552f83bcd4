import type { DataSource } from 'typeorm';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import type { MediumWorld } from './world';

/**
 * Alert rows for the repository tests: the demo farm (demo company, not shared) with its battery
 * and controller, and a system of the other company that nobody shares ("Other private"), with a
 * battery and a controller of its own.
 */
export interface AlertWorld {
  farm: string;
  battery: string;
  privateSystem: string;
  privateBattery: string;
  privateController: string;
}

export async function alertWorld(w: MediumWorld): Promise<AlertWorld> {
  const ds = w.ds;
  const [farm] = await ds.query<{ system_cuid: string }[]>(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]);
  const [battery] = await ds.query<{ entity_cuid: string }[]>(`SELECT entity_cuid FROM entity WHERE system_cuid = $1 AND entitytype_id = 'pylontech-us5000'`, [
    farm.system_cuid,
  ]);
  const privateSystem = newCuid();
  await ds.query(`INSERT INTO system (system_cuid, company_cuid, name, timezone) VALUES ($1, $2, 'Other private', 'Europe/Paris')`, [privateSystem, w.other]);
  const privateController = `other-ctrl-${privateSystem.slice(0, 6)}`;
  await ds.query(
    `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name)
     SELECT $1, controllertype_cuid, $2, $3, 'Other controller' FROM controller WHERE controller_id = $4`,
    [privateController, w.other, privateSystem, DEMO_CONTROLLER_ID],
  );
  const privateBattery = newCuid();
  await ds.query(`INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ($1, 'Other battery', $2, 'pylontech-us5000', $3)`, [
    privateBattery,
    privateController,
    privateSystem,
  ]);
  return { farm: farm.system_cuid, battery: battery.entity_cuid, privateSystem, privateBattery, privateController };
}

/** An active (unless said) trigger with the given rule; answers its key. */
export async function addRuleTrigger(
  ds: DataSource,
  system_cuid: string,
  args: object,
  opts: { is_active?: boolean; assignment_cuid?: string; name?: string } = {},
): Promise<string> {
  const trigger_cuid = newCuid();
  await ds.query(
    `INSERT INTO notification_trigger (trigger_cuid, system_cuid, name, severity_level, message, release_message, is_active, args, assignment_cuid)
     VALUES ($1, $2, $3, 'WARNING', 'Low {value}', 'Back {value}', $4, $5, $6)`,
    [trigger_cuid, system_cuid, opts.name ?? 'Rule', opts.is_active ?? true, JSON.stringify(args), opts.assignment_cuid ?? null],
  );
  return trigger_cuid;
}

export const lowBattery = (entity_cuid: string) => ({ kind: 'threshold', entity_cuid, parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 30 });
