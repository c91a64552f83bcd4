import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import type { TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/** Signs each demo user in (`installer` → installer@demo.local …) on the app. */
export async function signIn(t: TestApp, who: readonly string[]): Promise<Record<string, HttpClient>> {
  const as: Record<string, HttpClient> = {};
  for (const name of who) {
    as[name] = new HttpClient(t.baseUrl);
    const r = await as[name].login(`${name}@demo.local`);
    if (r.status !== 200) throw new Error(`${name} could not sign in: ${r.status}`);
  }
  return as;
}

/** The demo controller's battery (a device logging battery_soc) and its system: what the export tests export. */
export async function demoBattery(t: TestApp): Promise<{ entity_cuid: string; system_cuid: string }> {
  const [row] = (await t.db.dataSource.query(
    `SELECT e.entity_cuid, COALESCE(e.system_cuid, c.system_cuid) AS system_cuid FROM entity e JOIN controller c ON c.controller_id = e.controller_id
      WHERE e.controller_id = $1 AND e.entitytype_id IN (SELECT entitytype_id FROM entity_type_log_parameter_assignment WHERE parameter_id = 'battery_soc') LIMIT 1`,
    [DEMO_CONTROLLER_ID],
  )) as { entity_cuid: string; system_cuid: string }[];
  return row;
}
