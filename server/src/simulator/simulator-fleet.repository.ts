import type { DataSource } from 'typeorm';
import type { SystemJob } from '../common/system-job';

/** One (controller, device) of the fleet to drive, with what the device logs. */
export interface FleetDeviceRow {
  controller_id: string;
  company_cuid: string;
  system_cuid: string | null;
  entity_cuid: string;
  parameters: string[];
}

/** A new simulated system with its controller and devices. */
export interface NewSimulatedSystem {
  system_cuid: string;
  company_cuid: string;
  name: string;
  controller: { controller_id: string; controllertype_cuid: string; name: string };
  devices: { entity_cuid: string; name: string; entitytype_id: string }[];
}

/**
 * The SQL of the simulator (a tool job, first parameter, never a person's request): the fleet it
 * generates in its own company, the controllers it drives, and the API tokens it sends with. The
 * simulator acts for whichever company owns a controller it drives (as that controller would).
 */
export class SimulatorFleetRepository {
  constructor(private readonly ds: DataSource) {}

  /** Revokes the company's earlier tokens of this description, then stores a new one (its SHA-256 hash). */
  async replaceToken(_job: SystemJob, company_cuid: string, description: string, token: { token_cuid: string; token_hash: string }): Promise<void> {
    await this.ds.query(`UPDATE auth_token SET revoked_at = now() WHERE company_cuid = $1 AND description = $2 AND revoked_at IS NULL`, [
      company_cuid,
      description,
    ]);
    await this.ds.query(`INSERT INTO auth_token (token_cuid, description, company_cuid, token_hash) VALUES ($1, $2, $3, $4)`, [
      token.token_cuid,
      description,
      company_cuid,
      token.token_hash,
    ]);
  }

  /** Those of the entity types that exist. */
  async existingEntityTypes(_job: SystemJob, ids: string[]): Promise<string[]> {
    const rows = await this.ds.query<{ entitytype_id: string }[]>(`SELECT entitytype_id FROM entity_type WHERE entitytype_id = ANY($1::varchar[])`, [ids]);
    return rows.map((r) => r.entitytype_id);
  }

  /** The first controller type of the catalogue (by model), if any. */
  async firstControllerType(_job: SystemJob): Promise<string | undefined> {
    const [row] = await this.ds.query<{ controllertype_cuid: string }[]>(`SELECT controllertype_cuid FROM controller_type ORDER BY model LIMIT 1`);
    return row?.controllertype_cuid;
  }

  /** The company with this name, if any. */
  async companyByName(_job: SystemJob, name: string): Promise<string | undefined> {
    const [row] = await this.ds.query<{ company_cuid: string }[]>(`SELECT company_cuid FROM company WHERE name = $1`, [name]);
    return row?.company_cuid;
  }

  async insertCompany(_job: SystemJob, company_cuid: string, name: string): Promise<void> {
    await this.ds.query(`INSERT INTO company (company_cuid, name) VALUES ($1, $2)`, [company_cuid, name]);
  }

  async controllerExists(_job: SystemJob, controller_id: string): Promise<boolean> {
    const [row] = await this.ds.query<unknown[]>(`SELECT 1 FROM controller WHERE controller_id = $1`, [controller_id]);
    return !!row;
  }

  /** A system (time zone Africa/Nairobi) with its controller and devices, in one transaction. */
  async insertSystem(_job: SystemJob, s: NewSimulatedSystem): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query(`INSERT INTO system (system_cuid, company_cuid, name, timezone) VALUES ($1, $2, $3, 'Africa/Nairobi')`, [
        s.system_cuid,
        s.company_cuid,
        s.name,
      ]);
      await m.query(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ($1, $2, $3, $4, $5)`, [
        s.controller.controller_id,
        s.controller.controllertype_cuid,
        s.company_cuid,
        s.system_cuid,
        s.controller.name,
      ]);
      for (const d of s.devices) {
        await m.query(`INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ($1, $2, $3, $4, $5)`, [
          d.entity_cuid,
          d.name,
          s.controller.controller_id,
          d.entitytype_id,
          s.system_cuid,
        ]);
      }
    });
  }

  /** Controllers (these ids, or those whose id matches `pattern`; null: any) with their devices and what each logs, by controller and device. */
  async fleetDevices(_job: SystemJob, controllers: string[] | null, pattern: string | null): Promise<FleetDeviceRow[]> {
    return await this.ds.query<FleetDeviceRow[]>(
      `SELECT c.controller_id, c.company_cuid, c.system_cuid, e.entity_cuid, array_agg(a.parameter_id ORDER BY a.parameter_id) AS parameters
         FROM controller c
         JOIN entity e ON e.controller_id = c.controller_id
         JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
        WHERE ($1::varchar[] IS NULL OR c.controller_id = ANY($1::varchar[]))
          AND ($2::text IS NULL OR c.controller_id ~ $2)
        GROUP BY c.controller_id, c.company_cuid, c.system_cuid, e.entity_cuid
        ORDER BY c.controller_id, e.entity_cuid`,
      [controllers, pattern],
    );
  }

  /** What each controller runs: its reported configuration, else the desired one. */
  async controllerConfigs(_job: SystemJob, ids: string[]): Promise<{ controller_id: string; config: Record<string, unknown> | null }[]> {
    return await this.ds.query<{ controller_id: string; config: Record<string, unknown> | null }[]>(
      `SELECT controller_id, coalesce(reported_config, config) AS config FROM controller WHERE controller_id = ANY($1::varchar[])`,
      [ids],
    );
  }

  /** What each device of the controllers runs: its reported configuration, else the desired one. */
  async deviceConfigs(
    _job: SystemJob,
    controllerIds: string[],
  ): Promise<{ entity_cuid: string; controller_id: string; config: Record<string, unknown> | null }[]> {
    return await this.ds.query<{ entity_cuid: string; controller_id: string; config: Record<string, unknown> | null }[]>(
      `SELECT entity_cuid, controller_id, coalesce(reported_config, config) AS config FROM entity WHERE controller_id = ANY($1::varchar[])`,
      [controllerIds],
    );
  }

  /** The latest 5-minute data of these devices (where the embedded simulator's history resumes). */
  async lastDataAt(_job: SystemJob, entity_cuids: string[]): Promise<Date | null> {
    const [{ last }] = await this.ds.query<{ last: Date | null }[]>(
      `SELECT max(r.last_ts) AS last FROM parameter_rollup_5m r WHERE r.entity_cuid = ANY($1::varchar[])`,
      [entity_cuids],
    );
    return last;
  }
}
