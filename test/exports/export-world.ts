import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_COMPANY_NAME, DEMO_CONTROLLER_ID, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

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
  const [row] = await t.db.dataSource.query<{ entity_cuid: string; system_cuid: string }[]>(
    `SELECT e.entity_cuid, COALESCE(e.system_cuid, c.system_cuid) AS system_cuid FROM entity e JOIN controller c ON c.controller_id = e.controller_id
      WHERE e.controller_id = $1 AND e.entitytype_id IN (SELECT entitytype_id FROM entity_type_log_parameter_assignment WHERE parameter_id = 'battery_soc') LIMIT 1`,
    [DEMO_CONTROLLER_ID],
  );
  return row;
}

/** Two companies' exports: A (Demo Solar) and B (Other Energy), each with a battery and a template on it. */
export interface TwoCompanyExports {
  t: TestApp;
  as: Record<string, HttpClient>;
  companyA: string;
  companyB: string;
  templateA: string;
  templateB: string;
  /** Where the samples start (days in the past, 09:00 UTC). */
  start: number;
  /** Ends the app and removes the export folder. */
  close(): Promise<void>;
}

const MIN = 60_000;

/**
 * Starts the app with `settings` (exports written to a fresh folder, taken at once), signs in
 * installer, basic, basic2 and other of the demo and company B's installer, gives B's clinic a
 * battery, writes `hours` of one-minute samples of `parameters` for A's and B's battery, and
 * makes a template of those columns for each company.
 */
export async function twoCompanyExports(settings: Record<string, string>, hours: number, parameters: readonly string[]): Promise<TwoCompanyExports> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-exports-'));
  const t = await startTestApp({ EXPORT_POLL_MS: '0', EXPORT_DIR: dir, ...settings });
  const q = <T>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);
  await addMember(t.db.dataSource, 'basic2@demo.local', DEMO_COMPANY_NAME, 3);
  await addMember(t.db.dataSource, 'installer-b@demo.local', OTHER_COMPANY_NAME, 1, true);
  const as = await signIn(t, ['installer', 'basic', 'basic2', 'other', 'installer-b']);
  const company = async (name: string) => (await q<{ company_cuid: string }>(`SELECT company_cuid FROM company WHERE name = $1`, [name]))[0].company_cuid;
  const [companyA, companyB] = [await company(DEMO_COMPANY_NAME), await company(OTHER_COMPANY_NAME)];
  const [{ entity_cuid: batteryA, system_cuid: farm }] = await q<{ entity_cuid: string; system_cuid: string }>(
    `SELECT e.entity_cuid, e.system_cuid FROM entity e WHERE e.controller_id = $1 AND e.entitytype_id = 'pylontech-us5000'`,
    [DEMO_CONTROLLER_ID],
  );
  const [{ system_cuid: clinic, company_cuid: owner }] = await q<{ system_cuid: string; company_cuid: string }>(
    `SELECT system_cuid, company_cuid FROM system WHERE name = $1`,
    [DEMO_SYSTEMS.clinic],
  );
  if (owner !== companyB) throw new Error('the clinic is company B’s');
  const device = await as['installer-b'].mutate<{ data: { id: string } }>('entity.create', {
    data: { name: 'Clinic battery', entitytype_id: 'pylontech-us5000', system_cuid: clinic },
  });
  if (!device.data) throw new Error(`the clinic battery was refused: ${device.text}`);
  const batteryB = device.data.data.id;
  const start = Math.floor(Date.now() / (24 * 60 * MIN)) * 24 * 60 * MIN - 5 * 24 * 60 * MIN + 9 * 60 * MIN;
  const rows = [];
  let index = 0;
  for (const entity_cuid of [batteryA, batteryB]) {
    for (let ts = start; ts < start + hours * 60 * MIN; ts += MIN) {
      for (const parameter_id of parameters) {
        rows.push({ seg: 0, row: { index: index++, entity_cuid, parameter_id, ts: new Date(ts), min: null, max: null, value: 50 + (ts % 7), tz: 'UTC' } });
      }
    }
  }
  await t.app.get(TelemetryWriter).write({ rows, standard: [], states: [] });
  const template = async (who: string, system_cuid: string, entity_cuid: string) => {
    const res = await as[who].mutate<{ data: { template_cuid: string } }>('systemDataExportTemplate.create', {
      data: { name: 'Battery', system_cuid, config: { columns: parameters.map((parameter_id) => ({ entity_cuid, parameter_id })), resolution: 'raw' } },
    });
    if (!res.data) throw new Error(`the template was refused: ${res.text}`);
    return res.data.data.template_cuid;
  };
  return {
    t,
    as,
    companyA,
    companyB,
    templateA: await template('installer', farm, batteryA),
    templateB: await template('installer-b', clinic, batteryB),
    start,
    async close() {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
