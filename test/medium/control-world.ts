import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import type { MediumWorld } from './world';

/** The demo world plus what the control repositories need: company B's own controller with a device, and the demo farm's ids. */
export interface ControlWorld {
  /** The demo company's controller (on the farm) and one of its devices. */
  demoController: string;
  demoDevice: string;
  farm: string;
  /** Company B's controller (no system) and its device (on company B's system). */
  otherController: string;
  otherDevice: string;
  otherSystem: string;
}

export async function controlWorld(w: MediumWorld): Promise<ControlWorld> {
  const [ctrl] = await w.ds.query<{ controllertype_cuid: string; system_cuid: string }[]>(
    `SELECT controllertype_cuid, system_cuid FROM controller WHERE controller_id = $1`,
    [DEMO_CONTROLLER_ID],
  );
  const [device] = await w.ds.query<{ entity_cuid: string; entitytype_id: string }[]>(
    `SELECT entity_cuid, entitytype_id FROM entity WHERE controller_id = $1 ORDER BY name LIMIT 1`,
    [DEMO_CONTROLLER_ID],
  );
  const otherSystem = 'medium-other-system';
  await w.ds.query(`INSERT INTO system (system_cuid, name, company_cuid, timezone) VALUES ($1, 'Other system', $2, 'UTC')`, [otherSystem, w.other]);
  await w.ds.query(
    `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ('other-ctrl-1', $1, $2, $3, 'Other controller')`,
    [ctrl.controllertype_cuid, w.other, otherSystem],
  );
  await w.ds.query(
    `INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ('other-device-1', 'Other device', 'other-ctrl-1', $1, $2)`,
    [device.entitytype_id, otherSystem],
  );
  return {
    demoController: DEMO_CONTROLLER_ID,
    demoDevice: device.entity_cuid,
    farm: ctrl.system_cuid,
    otherController: 'other-ctrl-1',
    otherDevice: 'other-device-1',
    otherSystem,
  };
}
