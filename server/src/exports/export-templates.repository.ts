import type { EntityManager } from 'typeorm';
import { systemSharesSql } from '../tenancy/visibility';

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
    return (await tx.query(
      `SELECT e.entity_cuid, array_remove(array_agg(a.parameter_id), NULL) AS parameters
         FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         LEFT JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
        WHERE e.entity_cuid = ANY($1::varchar[]) AND COALESCE(e.system_cuid, c.system_cuid) = $2
        GROUP BY e.entity_cuid`,
      [entityIds, system_cuid],
    )) as { entity_cuid: string; parameters: string[] }[];
  },

  /** Those of `recipients` that are verified, active email channels of `company_cuid`. */
  async mailableChannels(tx: EntityManager, recipients: string[], company_cuid: string): Promise<Set<string>> {
    const rows = (await tx.query(
      `SELECT nc.channel_cuid
         FROM notification_channel nc
         JOIN email_notification_channel ec ON ec.channel_cuid = nc.channel_cuid
        WHERE nc.channel_cuid = ANY($1::varchar[]) AND nc.source = 'EMAIL' AND nc.status = 'ACTIVE'
          AND ec.verified_at IS NOT NULL AND nc.company_cuid = $2`,
      [recipients, company_cuid],
    )) as { channel_cuid: string }[];
    return new Set(rows.map((r) => r.channel_cuid));
  },

  /** A system's owner and the companies it is shared with (chargedCompany's input). */
  async systemOf(tx: EntityManager, system_cuid: string): Promise<{ company_cuid: string; shares: { company_cuid: string; change: boolean }[] } | undefined> {
    const [row] = (await tx.query(`SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1`, [system_cuid])) as {
      company_cuid: string;
      shares: { company_cuid: string; change: boolean }[];
    }[];
    return row;
  },

  /** The company a stored template's schedule is charged to (none recorded → the system's owner). */
  async chargeOf(tx: EntityManager, template_cuid: string): Promise<string | undefined> {
    const [row] = (await tx.query(
      `SELECT COALESCE(t.charged_company_cuid, s.company_cuid) AS company_cuid
         FROM system_data_export_template t JOIN system s ON s.system_cuid = t.system_cuid WHERE t.template_cuid = $1`,
      [template_cuid],
    )) as { company_cuid: string }[];
    return row?.company_cuid;
  },

  async setCharge(tx: EntityManager, template_cuid: string, company_cuid: string): Promise<void> {
    await tx.query(`UPDATE system_data_export_template SET charged_company_cuid = $2 WHERE template_cuid = $1`, [template_cuid, company_cuid]);
  },

  /** The company of each of the channel ids (unknown ids are left out). */
  async channelCompanies(manager: EntityManager, channel_cuids: string[]): Promise<Map<string, string>> {
    if (!channel_cuids.length) return new Map();
    const rows = (await manager.query(`SELECT channel_cuid, company_cuid FROM notification_channel WHERE channel_cuid = ANY($1::varchar[])`, [channel_cuids])) as {
      channel_cuid: string;
      company_cuid: string;
    }[];
    return new Map(rows.map((r) => [r.channel_cuid, r.company_cuid]));
  },
};
