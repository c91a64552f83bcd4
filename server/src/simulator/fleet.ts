import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { newCuid } from '../common/ids';
import { systemJob } from '../common/system-job';
import type { SimController } from './simulator';
import { SimulatorFleetRepository } from './simulator-fleet.repository';

/** Whose behalf the simulator's SQL runs on. */
const JOB = systemJob('simulator');

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
  await new SimulatorFleetRepository(ds).replaceToken(JOB, company_cuid, description, {
    token_cuid,
    token_hash: createHash('sha256').update(secret).digest('hex'),
  });
  return secret;
}

/** Adds `count` controllers (sim-ctrl-0001 …), each in its own system with four devices, to the "Simulated Fleet" company. */
export async function generateControllers(ds: DataSource, count: number): Promise<void> {
  const repo = new SimulatorFleetRepository(ds);
  const types = await repo.existingEntityTypes(
    JOB,
    GENERATED_DEVICES.map((d) => d.type),
  );
  if (types.length !== GENERATED_DEVICES.length) {
    throw new Error('Generating controllers needs the demo catalogue (npm run seed, or SEED_DEMO=true)');
  }
  const controllertype_cuid = await repo.firstControllerType(JOB);
  if (!controllertype_cuid) throw new Error('Generating controllers needs a controller type in the catalogue');
  let company_cuid = await repo.companyByName(JOB, SIMULATED_COMPANY);
  if (!company_cuid) {
    company_cuid = newCuid();
    await repo.insertCompany(JOB, company_cuid, SIMULATED_COMPANY);
  }
  for (let i = 1; i <= count; i++) {
    const controller_id = `sim-ctrl-${String(i).padStart(4, '0')}`;
    if (await repo.controllerExists(JOB, controller_id)) continue;
    await repo.insertSystem(JOB, {
      system_cuid: newCuid(),
      company_cuid,
      name: `Simulated system ${String(i).padStart(4, '0')}`,
      controller: { controller_id, controllertype_cuid, name: `Simulated controller ${i}` },
      devices: GENERATED_DEVICES.map((d) => ({ entity_cuid: newCuid(), name: d.name, entitytype_id: d.type })),
    });
  }
}

/**
 * The controllers to drive, with their devices and what those log, and a fresh token per company.
 * `controllers`: these ids; else every controller whose id matches `pattern` and that has devices.
 */
export async function loadFleet(ds: DataSource, select: { controllers?: string[]; pattern?: string; limit?: number } = {}): Promise<SimController[]> {
  const repo = new SimulatorFleetRepository(ds);
  const rows = await repo.fleetDevices(JOB, select.controllers ?? null, select.pattern ?? null);
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
    for (const r of await repo.controllerConfigs(JOB, ids)) byController.get(r.controller_id)!.config = { controller: r.config ?? {}, devices: {} };
    for (const d of await repo.deviceConfigs(JOB, ids)) {
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
