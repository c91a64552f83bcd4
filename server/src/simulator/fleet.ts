import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { newCuid } from '../common/ids';
import type { SimController } from './simulator';

export const SIMULATOR_TOKEN_DESCRIPTION = 'Simulator';
export const SIMULATED_COMPANY = 'Simulated Fleet';

/** Device types of the demo catalogue a generated controller gets, one device each. */
const GENERATED_DEVICES = [
  { name: 'Inverter/charger', type: 'victron-multiplus-ii' },
  { name: 'Battery bank', type: 'pylontech-us5000' },
  { name: 'PV charger', type: 'victron-smartsolar-mppt-250-100' },
  { name: 'Backup genset', type: 'diesel-genset' },
];

/**
 * An API token for a company, written the way AuthTokenService writes them (`ppt_<id>_<secret>`,
 * SHA-256 stored). Earlier simulator tokens of that company are revoked, so restarts do not pile
 * them up.
 */
export async function issueSimulatorToken(ds: DataSource, company_cuid: string, description = SIMULATOR_TOKEN_DESCRIPTION): Promise<string> {
  const token_cuid = newCuid();
  const secret = `ppt_${token_cuid}_${randomBytes(32).toString('base64url')}`;
  await ds.query(`UPDATE auth_token SET revoked_at = now() WHERE company_cuid = $1 AND description = $2 AND revoked_at IS NULL`, [
    company_cuid,
    description,
  ]);
  await ds.query(`INSERT INTO auth_token (token_cuid, description, company_cuid, token_hash) VALUES ($1, $2, $3, $4)`, [
    token_cuid,
    description,
    company_cuid,
    createHash('sha256').update(secret).digest('hex'),
  ]);
  return secret;
}

/** Adds `count` controllers (sim-ctrl-0001 …), each in its own system with four devices, to the "Simulated Fleet" company. */
export async function generateControllers(ds: DataSource, count: number): Promise<void> {
  const types = (await ds.query(`SELECT entitytype_id FROM entity_type WHERE entitytype_id = ANY($1::varchar[])`, [
    GENERATED_DEVICES.map((d) => d.type),
  ])) as { entitytype_id: string }[];
  if (types.length !== GENERATED_DEVICES.length) {
    throw new Error('Generating controllers needs the demo catalogue (npm run seed, or SEED_DEMO=true)');
  }
  const [controllerType] = (await ds.query(`SELECT controllertype_cuid FROM controller_type ORDER BY model LIMIT 1`)) as { controllertype_cuid: string }[];
  if (!controllerType) throw new Error('Generating controllers needs a controller type in the catalogue');
  let [company] = (await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [SIMULATED_COMPANY])) as { company_cuid: string }[];
  if (!company) {
    company = { company_cuid: newCuid() };
    await ds.query(`INSERT INTO company (company_cuid, name) VALUES ($1, $2)`, [company.company_cuid, SIMULATED_COMPANY]);
  }
  for (let i = 1; i <= count; i++) {
    const controller_id = `sim-ctrl-${String(i).padStart(4, '0')}`;
    const [exists] = (await ds.query(`SELECT 1 FROM controller WHERE controller_id = $1`, [controller_id])) as unknown[];
    if (exists) continue;
    const system_cuid = newCuid();
    await ds.transaction(async (m) => {
      await m.query(`INSERT INTO system (system_cuid, company_cuid, name, timezone) VALUES ($1, $2, $3, 'Africa/Nairobi')`, [
        system_cuid,
        company.company_cuid,
        `Simulated system ${String(i).padStart(4, '0')}`,
      ]);
      await m.query(
        `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ($1, $2, $3, $4, $5)`,
        [controller_id, controllerType.controllertype_cuid, company.company_cuid, system_cuid, `Simulated controller ${i}`],
      );
      for (const d of GENERATED_DEVICES) {
        await m.query(
          `INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ($1, $2, $3, $4, $5)`,
          [newCuid(), d.name, controller_id, d.type, system_cuid],
        );
      }
    });
  }
}

/**
 * The controllers to drive, with their devices and what those log, and a fresh token per company.
 * `controllers`: these ids; else every controller whose id matches `pattern` and that has devices.
 */
export async function loadFleet(ds: DataSource, select: { controllers?: string[]; pattern?: string; limit?: number } = {}): Promise<SimController[]> {
  const rows = (await ds.query(
    `SELECT c.controller_id, c.company_cuid, c.system_cuid, e.entity_cuid, array_agg(a.parameter_id ORDER BY a.parameter_id) AS parameters
       FROM controller c
       JOIN entity e ON e.controller_id = c.controller_id
       JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
      WHERE ($1::varchar[] IS NULL OR c.controller_id = ANY($1::varchar[]))
        AND ($2::text IS NULL OR c.controller_id ~ $2)
      GROUP BY c.controller_id, c.company_cuid, c.system_cuid, e.entity_cuid
      ORDER BY c.controller_id, e.entity_cuid`,
    [select.controllers ?? null, select.pattern ?? null],
  )) as { controller_id: string; company_cuid: string; system_cuid: string | null; entity_cuid: string; parameters: string[] }[];
  const byController = new Map<string, SimController & { company_cuid: string }>();
  for (const r of rows) {
    let c = byController.get(r.controller_id);
    if (!c) {
      if (select.limit !== undefined && byController.size >= select.limit) continue;
      c = { controller_id: r.controller_id, company_cuid: r.company_cuid, token: '', system_cuid: r.system_cuid, entities: [] };
      byController.set(r.controller_id, c);
    }
    c.entities.push({ entity_cuid: r.entity_cuid, parameters: r.parameters });
  }
  // What each runs at start: its reported configuration, else the desired one (commands change it in memory).
  const ids = [...byController.keys()];
  if (ids.length) {
    const controllers = (await ds.query(`SELECT controller_id, coalesce(reported_config, config) AS config FROM controller WHERE controller_id = ANY($1::varchar[])`, [
      ids,
    ])) as { controller_id: string; config: Record<string, unknown> | null }[];
    for (const r of controllers) byController.get(r.controller_id)!.config = { controller: r.config ?? {}, devices: {} };
    const devices = (await ds.query(
      `SELECT entity_cuid, controller_id, coalesce(reported_config, config) AS config FROM entity WHERE controller_id = ANY($1::varchar[])`,
      [ids],
    )) as { entity_cuid: string; controller_id: string; config: Record<string, unknown> | null }[];
    for (const d of devices) {
      const c = byController.get(d.controller_id)!;
      (c.config ??= { controller: {}, devices: {} }).devices[d.entity_cuid] = d.config ?? {};
    }
  }
  const tokens = new Map<string, string>();
  for (const c of byController.values()) {
    if (!tokens.has(c.company_cuid)) tokens.set(c.company_cuid, await issueSimulatorToken(ds, c.company_cuid));
    c.token = tokens.get(c.company_cuid)!;
  }
  return [...byController.values()].map(({ company_cuid: _company, ...c }) => c);
}
