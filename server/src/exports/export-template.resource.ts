import { z } from 'zod';
import type { EntityManager } from 'typeorm';
import { ZName, ZRefCuid } from '../common/zod-fields';
import type { ResourceDefinition } from '../crud/resource';
import { fieldErrors } from '../crud/field-error';
import { resourceAccess } from '../access/resources';
import { ZExportConfig, ZExportConfigShape, type TExportConfig } from './export-config.schema';

/**
 * The checks of a template's config that need the database, as field errors on the exact path
 * (`data.config.columns.2.parameter_id` …): every column names a device of THE TEMPLATE'S SYSTEM
 * (a device of another system answers exactly like a missing one: "not a device of this system")
 * and a parameter that device's type logs; every recipient is a verified, active email channel of
 * the system's owner company.
 */
export async function checkExportConfig(tx: EntityManager, system_cuid: string, config: TExportConfig, base: (string | number)[] = ['data', 'config']): Promise<void> {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const entityIds = [...new Set(config.columns.map((c) => c.entity_cuid))];
  const devices = entityIds.length
    ? ((await tx.query(
        `SELECT e.entity_cuid, array_remove(array_agg(a.parameter_id), NULL) AS parameters
           FROM entity e
           LEFT JOIN controller c ON c.controller_id = e.controller_id
           LEFT JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
          WHERE e.entity_cuid = ANY($1::varchar[]) AND COALESCE(e.system_cuid, c.system_cuid) = $2
          GROUP BY e.entity_cuid`,
        [entityIds, system_cuid],
      )) as { entity_cuid: string; parameters: string[] }[])
    : [];
  const byId = new Map(devices.map((d) => [d.entity_cuid, new Set(d.parameters)]));
  config.columns.forEach((c, i) => {
    const params = byId.get(c.entity_cuid);
    if (!params) issues.push({ path: [...base, 'columns', i, 'entity_cuid'], message: 'Not a device of this system' });
    else if (!params.has(c.parameter_id)) issues.push({ path: [...base, 'columns', i, 'parameter_id'], message: 'This device does not log this parameter' });
  });
  const recipients = config.schedule?.recipients ?? [];
  if (recipients.length) {
    const ok = (await tx.query(
      `SELECT nc.channel_cuid
         FROM notification_channel nc
         JOIN email_notification_channel ec ON ec.channel_cuid = nc.channel_cuid
         JOIN system s ON s.system_cuid = $2
        WHERE nc.channel_cuid = ANY($1::varchar[]) AND nc.source = 'EMAIL' AND nc.status = 'ACTIVE'
          AND ec.verified_at IS NOT NULL AND nc.company_cuid = s.company_cuid`,
      [recipients, system_cuid],
    )) as { channel_cuid: string }[];
    const good = new Set(ok.map((r) => r.channel_cuid));
    recipients.forEach((r, i) => {
      if (!good.has(r)) issues.push({ path: [...base, 'schedule', 'recipients', i], message: 'Not a verified, active email channel of the system’s company' });
    });
  }
  if (issues.length) throw fieldErrors(issues, 'The export template is not valid');
}

/** Data export templates of a system (configuration: view with the system, change like the system). */
export const exportTemplateResource: ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject> = {
  name: 'systemDataExportTemplate',
  label: 'Export template',
  table: 'system_data_export_template',
  key: 'template_cuid',
  generatedKey: true,
  record: z.object({ template_cuid: z.string(), name: z.string(), config: z.record(z.string(), z.unknown()), system_cuid: z.string() }),
  create: z.object({ name: ZName, config: ZExportConfig.default(ZExportConfigShape.parse({})), system_cuid: ZRefCuid }),
  update: z.object({ name: ZName, config: ZExportConfig }).partial(),
  ...resourceAccess('systemDataExportTemplate'),
  scope: { kind: 'system', column: 'system_cuid' },
  search: ['name'],
  filters: ['system_cuid'],
  sorts: ['name'],
  defaultSort: { field: 'name', order: 'ASC' },
  beforeWrite: async (tx, _actor, row, current) => {
    // An update that leaves the config alone (a rename) does not re-judge it.
    if (row.config === undefined || (current && row.config === current.config)) return;
    await checkExportConfig(tx, String(row.system_cuid), ZExportConfigShape.parse(row.config));
  },
};
