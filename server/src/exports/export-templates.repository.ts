import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';
import type { Queryable } from '../database/repository';
import { SqlParams } from '../database/sql-params';
import type { SystemJob } from '../common/system-job';
import { type Caller, systemSharesSql, visibleSystemSql } from '../tenancy/visibility';

type Shares = { company_cuid: string; change: boolean }[];

/** A template as a run reads it (config still unchecked). */
export interface RunTemplateRow {
  template_cuid: string;
  name: string;
  system_cuid: string;
  system_name: string;
  company_cuid: string;
  timezone: string;
  config: unknown;
}

/** A device column a template may name: the device of the system and a parameter its type logs. */
export interface ColumnSourceRow {
  entity_cuid: string;
  device: string;
  parameter_id: string;
  description: string | null;
  unit: string | null;
}

/**
 * The SQL of export templates' checks and charges (export-template.resource.ts): the devices a
 * config names, the recipients a company may mail, the system a schedule is charged through, the
 * company a template's schedule is charged to, and the companies of channel ids (what a reader may
 * see of a schedule's recipients).
 */
export const exportTemplatesSql = {
  /** The devices of the system among `entityIds`, with the parameters their types log. */
  async devicesOf(tx: EntityManager, system_cuid: string, entityIds: string[]): Promise<{ entity_cuid: string; parameters: string[] }[]> {
    if (!entityIds.length) return [];
    return await tx.query<{ entity_cuid: string; parameters: string[] }[]>(
      `SELECT e.entity_cuid, array_remove(array_agg(a.parameter_id), NULL) AS parameters
         FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         LEFT JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
        WHERE e.entity_cuid = ANY($1::varchar[]) AND COALESCE(e.system_cuid, c.system_cuid) = $2
        GROUP BY e.entity_cuid`,
      [entityIds, system_cuid],
    );
  },

  /** Those of `recipients` that are verified, active email channels of `company_cuid`. */
  async mailableChannels(tx: EntityManager, recipients: string[], company_cuid: string): Promise<Set<string>> {
    const rows = await tx.query<{ channel_cuid: string }[]>(
      `SELECT nc.channel_cuid
         FROM notification_channel nc
         JOIN email_notification_channel ec ON ec.channel_cuid = nc.channel_cuid
        WHERE nc.channel_cuid = ANY($1::varchar[]) AND nc.source = 'EMAIL' AND nc.status = 'ACTIVE'
          AND ec.verified_at IS NOT NULL AND nc.company_cuid = $2`,
      [recipients, company_cuid],
    );
    return new Set(rows.map((r) => r.channel_cuid));
  },

  /** A system's owner and the companies it is shared with (chargedCompany's input). */
  async systemOf(tx: EntityManager, system_cuid: string): Promise<{ company_cuid: string; shares: { company_cuid: string; change: boolean }[] } | undefined> {
    const [row] = await tx.query<{ company_cuid: string; shares: { company_cuid: string; change: boolean }[] }[]>(
      `SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1`,
      [system_cuid],
    );
    return row;
  },

  /** The company a stored template's schedule is charged to (none recorded → the system's owner). */
  async chargeOf(tx: EntityManager, template_cuid: string): Promise<string | undefined> {
    const [row] = await tx.query<{ company_cuid: string }[]>(
      `SELECT COALESCE(t.charged_company_cuid, s.company_cuid) AS company_cuid
         FROM system_data_export_template t JOIN system s ON s.system_cuid = t.system_cuid WHERE t.template_cuid = $1`,
      [template_cuid],
    );
    return row?.company_cuid;
  },

  async setCharge(tx: EntityManager, template_cuid: string, company_cuid: string): Promise<void> {
    await tx.query(`UPDATE system_data_export_template SET charged_company_cuid = $2 WHERE template_cuid = $1`, [template_cuid, company_cuid]);
  },

  /** The company of each of the channel ids (unknown ids are left out). */
  async channelCompanies(manager: EntityManager, channel_cuids: string[]): Promise<Map<string, string>> {
    if (!channel_cuids.length) return new Map();
    const rows = await manager.query<{ channel_cuid: string; company_cuid: string }[]>(
      `SELECT channel_cuid, company_cuid FROM notification_channel WHERE channel_cuid = ANY($1::varchar[])`,
      [channel_cuids],
    );
    return new Map(rows.map((r) => [r.channel_cuid, r.company_cuid]));
  },
};

/**
 * The SQL of running a template (exports.service.ts): the template or a system's templates for a
 * caller who sees its system, a template for the scheduler (its job, no caller), and the device
 * columns a template may name. The caller (or the job) comes first.
 */
@Injectable()
export class ExportTemplatesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** A template of a system the caller sees, with what the policy needs to judge `exports.run` there. */
  async visible(caller: Caller, template_cuid: string): Promise<(RunTemplateRow & { shares: Shares }) | undefined> {
    const p = new SqlParams([template_cuid]);
    const [row] = await this.ds.query<(RunTemplateRow & { shares: Shares })[]>(
      `SELECT t.template_cuid, t.name, t.system_cuid, t.config, s.name AS system_name, s.company_cuid, s.timezone, ${systemSharesSql('s')} AS shares
         FROM system_data_export_template t
         JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.template_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}`,
      p.values,
    );
    return row;
  }

  /** A system the caller sees: its owner and shares. */
  async visibleSystem(caller: Caller, system_cuid: string): Promise<{ company_cuid: string; shares: Shares } | undefined> {
    const p = new SqlParams([system_cuid]);
    const [system] = await this.ds.query<{ company_cuid: string; shares: Shares }[]>(
      `SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}`,
      p.values,
    );
    return system;
  }

  /** The templates of a system the caller sees, by name, at most `limit`. */
  async ofSystem(caller: Caller, system_cuid: string, limit: number): Promise<{ template_cuid: string; name: string; config: unknown }[]> {
    const p = new SqlParams([system_cuid]);
    return await this.ds.query<{ template_cuid: string; name: string; config: unknown }[]>(
      `SELECT t.template_cuid, t.name, t.config FROM system_data_export_template t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}
        ORDER BY t.name, t.template_cuid LIMIT ${Math.trunc(limit)}`,
      p.values,
    );
  }

  /** For the scheduler (no caller): a template by id, charged to the company that set its schedule (else the system's owner). */
  async forJob(_job: SystemJob, template_cuid: string, tx: Queryable = this.ds): Promise<(RunTemplateRow & { charged_company_cuid: string }) | undefined> {
    const [row] = (await tx.query(
      `SELECT t.template_cuid, t.name, t.system_cuid, t.config, s.name AS system_name, s.company_cuid, s.timezone,
              COALESCE(t.charged_company_cuid, s.company_cuid) AS charged_company_cuid
         FROM system_data_export_template t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.template_cuid = $1`,
      [template_cuid],
    )) as (RunTemplateRow & { charged_company_cuid: string })[];
    return row;
  }

  /**
   * Unscoped (a template already reached, by the caller or the scheduler): the devices of the
   * system among `entity_cuids`, one row per parameter their types log, with its description and unit.
   */
  async columnSources(_reached: Caller | SystemJob, system_cuid: string, entity_cuids: string[], tx: Queryable = this.ds): Promise<ColumnSourceRow[]> {
    return (await tx.query(
      `SELECT e.entity_cuid, e.name AS device, lp.parameter_id, lp.description, u.unit
         FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
         JOIN log_parameter lp ON lp.parameter_id = a.parameter_id
         LEFT JOIN unit u ON u.unit_cuid = lp.unit_cuid
        WHERE e.entity_cuid = ANY($1::varchar[]) AND COALESCE(e.system_cuid, c.system_cuid) = $2`,
      [entity_cuids, system_cuid],
    )) as ColumnSourceRow[];
  }
}
