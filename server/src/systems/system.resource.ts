import { z } from 'zod';
import type { ResourceDefinition } from '../crud/resource';
import { ZIsoDate, ZName, ZOptionalText, ZRefCuid, ZTimezone } from '../common/zod-fields';
import { resourceAccess } from '../access/resources';

export const ZSystem = z.object({
  system_cuid: z.string(),
  company_cuid: z.string(),
  name: z.string(),
  deployment_date: z.string().nullable(),
  asset_number: z.string().nullable(),
  timezone: z.string(),
  site_cuid: z.string().nullable(),
  /**
   * Names of the site and owner company, read with the system: a role that may not read sites or
   * companies (Basic) still sees what the system belongs to, without calling site.* or company.*.
   */
  site_name: z.string().nullable(),
  company_name: z.string().nullable(),
});

export const systemResource: ResourceDefinition<typeof ZSystem, z.ZodObject, z.ZodObject> = {
  name: 'system',
  label: 'System',
  table: 'system',
  key: 'system_cuid',
  generatedKey: true,
  record: ZSystem,
  create: z.object({
    company_cuid: ZRefCuid,
    name: ZName,
    deployment_date: ZIsoDate.nullable().optional(),
    asset_number: ZOptionalText(100),
    timezone: ZTimezone.default('UTC'),
    site_cuid: ZRefCuid.nullable().optional(),
  }),
  // The owner company is not editable: moving a system between companies is not an edit.
  update: z
    .object({
      name: ZName,
      deployment_date: ZIsoDate.nullable(),
      asset_number: ZOptionalText(100),
      timezone: ZTimezone,
      site_cuid: ZRefCuid.nullable(),
    })
    .partial(),
  ...resourceAccess('system'),
  scope: { kind: 'systemSelf' },
  search: ['name', 'asset_number'],
  filters: ['company_cuid', 'site_cuid', 'timezone'],
  sorts: ['name', 'deployment_date', 'asset_number', 'timezone', 'created_at'],
  defaultSort: { field: 'name', order: 'ASC' },
  sameCompanyReferences: [{ column: 'site_cuid', table: 'site', key: 'site_cuid', label: 'Site' }],
  selectExpressions: {
    deployment_date: 't.deployment_date::text',
    site_name: '(SELECT si.name FROM site si WHERE si.site_cuid = t.site_cuid)',
    company_name: '(SELECT c.name FROM company c WHERE c.company_cuid = t.company_cuid)',
  },
};
