import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { LogParameterTypeValue } from '../../../shared/common/enums';
import type { SystemJob } from '../common/system-job';
import { DATA_SOURCE } from '../database/database.module';

/** One row per (entity, assigned parameter) of a controller; entity and parameter columns null for a controller without entities. */
export interface DirectoryRow {
  controller_id: string;
  company_cuid: string;
  system_cuid: string | null;
  controller_timezone: string | null;
  entity_cuid: string | null;
  entitytype_id: string | null;
  entity_system_cuid: string | null;
  entity_timezone: string | null;
  parameter_id: string | null;
  parameter_type: LogParameterTypeValue | null;
}

/**
 * The SQL of ingest's controller directory (controller-directory.service.ts caches it): what a
 * controller's messages may name. Ingest runs for an authenticated controller, not a user: the
 * reads take the ingest job's identity first, and `sameCompanyElsewhere` is limited to the
 * controller's own company.
 */
@Injectable()
export class ControllerDirectoryRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** The controller with its company, system, time zones, entities and their types' log parameters; empty when there is no such controller. */
  async controllerRows(_job: SystemJob, controller_id: string): Promise<DirectoryRow[]> {
    return await this.ds.query<DirectoryRow[]>(
      `SELECT c.controller_id, c.company_cuid, c.system_cuid, cs.timezone AS controller_timezone,
              e.entity_cuid, e.entitytype_id, e.system_cuid AS entity_system_cuid, es.timezone AS entity_timezone,
              lp.parameter_id, lp.type AS parameter_type
         FROM controller c
         LEFT JOIN system cs ON cs.system_cuid = c.system_cuid
         LEFT JOIN entity e ON e.controller_id = c.controller_id
         LEFT JOIN system es ON es.system_cuid = e.system_cuid
         LEFT JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
         LEFT JOIN log_parameter lp ON lp.parameter_id = a.parameter_id
        WHERE c.controller_id = $1`,
      [controller_id],
    );
  }

  /** Every log parameter id of the catalogue (the catalogue is everybody's). */
  async parameterIds(_job: SystemJob): Promise<string[]> {
    const rows = await this.ds.query<{ parameter_id: string }[]>(`SELECT parameter_id FROM log_parameter`);
    return rows.map((r) => r.parameter_id);
  }

  /** Of these entities, those of `company_cuid` (on one of its controllers or systems), with the controller they hang on. */
  async sameCompanyElsewhere(_job: SystemJob, company_cuid: string, entity_cuids: string[]): Promise<{ entity_cuid: string; controller_id: string | null }[]> {
    if (!entity_cuids.length) return [];
    return await this.ds.query<{ entity_cuid: string; controller_id: string | null }[]>(
      `SELECT e.entity_cuid, e.controller_id
         FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         LEFT JOIN system s ON s.system_cuid = e.system_cuid
        WHERE e.entity_cuid = ANY($1::varchar[])
          AND (c.company_cuid = $2 OR s.company_cuid = $2)`,
      [entity_cuids, company_cuid],
    );
  }
}
