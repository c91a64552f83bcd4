import { Inject, Injectable, Optional } from '@nestjs/common';
import type { LogParameterTypeValue } from '../../../shared/common/enums';
import { systemJob } from '../common/system-job';
import { SharedSignals, SIGNAL_TOPICS } from '../database/shared-signals';
import { ControllerDirectoryRepository } from './controller-directory.repository';
import { type TelemetrySettings, TELEMETRY_SETTINGS } from './telemetry.config';

export interface DirectoryEntity {
  entity_cuid: string;
  entitytype_id: string;
  system_cuid: string | null;
  /** Zone of the entity's system (or the controller's system), UTC without one: day rollups use it. */
  timezone: string;
  /** Log parameters of the entity's type, with their types. */
  parameters: ReadonlyMap<string, LogParameterTypeValue>;
}

export interface DirectoryController {
  controller_id: string;
  company_cuid: string;
  system_cuid: string | null;
  entities: ReadonlyMap<string, DirectoryEntity>;
  loadedAt: number;
}

/** Tables a directory entry is read from: a write to one, on any instance, drops the directory. */
const DIRECTORY_TABLES = new Set(['controller', 'entity', 'system', 'entity_type', 'entity_type_log_parameter_assignment', 'log_parameter']);

/** Ingest reads for an authenticated controller, not for a user. */
const JOB = systemJob('telemetry.ingest');

/**
 * What ingest needs to check a row, cached per controller: controller → company, system,
 * entities → allowed parameters. Entries live `TELEMETRY_CACHE_TTL_MS`; an unknown entity or
 * parameter forces one reload when the entry is older than a few seconds (a device added a moment
 * ago is accepted without waiting for the TTL). Unknown controllers are cached too (negative).
 * A write to the tables it reads, on any instance (SharedSignals `table`), drops it at once: a
 * controller moved or deleted on one instance is judged anew by the others' next message.
 */
@Injectable()
export class ControllerDirectoryService {
  private readonly controllers = new Map<string, Promise<DirectoryController | null>>();
  private readonly loadedAt = new Map<string, number>();
  private parameters: { at: number; ids: Promise<Set<string>> } | undefined;
  private readonly ttl: number;
  /** Reload at most this often on a miss. */
  private readonly missReloadMs: number;

  constructor(
    private readonly rows: ControllerDirectoryRepository,
    @Inject(TELEMETRY_SETTINGS) settings: TelemetrySettings,
    @Optional() signals?: SharedSignals,
  ) {
    this.ttl = settings.ingest.cacheTtlMs;
    this.missReloadMs = Math.min(2000, this.ttl);
    signals?.on(SIGNAL_TOPICS.table, (table) => {
      if (table === null || DIRECTORY_TABLES.has(table)) this.invalidate();
    });
  }

  /** The controller with its entities, or null when it does not exist. */
  async controller(controller_id: string): Promise<DirectoryController | null> {
    const at = this.loadedAt.get(controller_id);
    if (at === undefined || Date.now() - at >= this.ttl) return this.reload(controller_id);
    return this.controllers.get(controller_id)!;
  }

  /** Reloads the entry if it is older than the miss interval (a row named something unknown). */
  async refreshOnMiss(controller_id: string): Promise<DirectoryController | null> {
    const at = this.loadedAt.get(controller_id) ?? 0;
    if (Date.now() - at >= this.missReloadMs) return this.reload(controller_id);
    return this.controllers.get(controller_id)!;
  }

  invalidate(controller_id?: string): void {
    if (controller_id === undefined) {
      this.controllers.clear();
      this.loadedAt.clear();
      this.parameters = undefined;
    } else {
      this.controllers.delete(controller_id);
      this.loadedAt.delete(controller_id);
    }
  }

  /** Every log parameter id of the catalogue (to tell "unknown" from "not assigned"). */
  async knownParameters(forceFresh = false): Promise<Set<string>> {
    const now = Date.now();
    const limit = forceFresh ? this.missReloadMs : this.ttl;
    if (!this.parameters || now - this.parameters.at >= limit) {
      const ids = this.rows.parameterIds(JOB).then((list) => new Set(list));
      this.parameters = { at: now, ids };
      ids.catch(() => (this.parameters = undefined));
    }
    return this.parameters.ids;
  }

  /** For entities not on the controller: which of them sit on another controller of the same company. */
  async sameCompanyElsewhere(company_cuid: string, entity_cuids: string[]): Promise<Map<string, string | null>> {
    if (!entity_cuids.length) return new Map();
    const rows = await this.rows.sameCompanyElsewhere(JOB, company_cuid, entity_cuids);
    return new Map(rows.map((r) => [r.entity_cuid, r.controller_id]));
  }

  private reload(controller_id: string): Promise<DirectoryController | null> {
    const loading = this.load(controller_id);
    this.controllers.set(controller_id, loading);
    this.loadedAt.set(controller_id, Date.now());
    loading.catch(() => {
      // A failed load is not cached.
      if (this.controllers.get(controller_id) === loading) this.invalidate(controller_id);
    });
    return loading;
  }

  private async load(controller_id: string): Promise<DirectoryController | null> {
    const rows = await this.rows.controllerRows(JOB, controller_id);
    if (!rows.length) return null;
    const entities = new Map<string, DirectoryEntity & { parameters: Map<string, LogParameterTypeValue> }>();
    for (const r of rows) {
      if (!r.entity_cuid || !r.entitytype_id) continue;
      let e = entities.get(r.entity_cuid);
      if (!e) {
        e = {
          entity_cuid: r.entity_cuid,
          entitytype_id: r.entitytype_id,
          system_cuid: r.entity_system_cuid ?? r.system_cuid,
          timezone: r.entity_timezone ?? r.controller_timezone ?? 'UTC',
          parameters: new Map(),
        };
        entities.set(r.entity_cuid, e);
      }
      if (r.parameter_id && r.parameter_type) e.parameters.set(r.parameter_id, r.parameter_type);
    }
    return {
      controller_id: rows[0].controller_id,
      company_cuid: rows[0].company_cuid,
      system_cuid: rows[0].system_cuid,
      entities,
      loadedAt: Date.now(),
    };
  }
}
