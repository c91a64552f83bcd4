import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import type { MediumWorld } from './world';

/** The demo systems' ids by short name, and a device of the farm (the battery). */
export async function demoSystems(w: MediumWorld): Promise<{ farm: string; workshop: string; clinic: string; battery: string }> {
  const byName = Object.fromEntries(
    (await w.ds.query<{ system_cuid: string; name: string }[]>(`SELECT system_cuid, name FROM system`)).map((s) => [s.name, s.system_cuid]),
  );
  const farm = byName[DEMO_SYSTEMS.farm];
  const [{ entity_cuid: battery }] = await w.ds.query<{ entity_cuid: string }[]>(
    `SELECT e.entity_cuid FROM entity e JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
      WHERE e.system_cuid = $1 AND a.parameter_id = 'battery_soc'`,
    [farm],
  );
  return { farm, workshop: byName[DEMO_SYSTEMS.workshop], clinic: byName[DEMO_SYSTEMS.clinic], battery };
}
