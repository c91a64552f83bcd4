import { z } from 'zod';
import { ZJsonObject, ZName, ZRefCuid } from '../common/zod-fields';
import type { ResourceDefinition } from '../crud/resource';
import { resourceAccess } from '../access/resources';

/** Data export templates of a system (configuration: view with the system, change like the system). */
export const exportTemplateResource: ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject> = {
  name: 'systemDataExportTemplate',
  label: 'Export template',
  table: 'system_data_export_template',
  key: 'template_cuid',
  generatedKey: true,
  record: z.object({ template_cuid: z.string(), name: z.string(), config: z.record(z.string(), z.unknown()), system_cuid: z.string() }),
  create: z.object({ name: ZName, config: ZJsonObject.default({}), system_cuid: ZRefCuid }),
  update: z.object({ name: ZName, config: ZJsonObject }).partial(),
  ...resourceAccess('systemDataExportTemplate'),
  scope: { kind: 'system', column: 'system_cuid' },
  search: ['name'],
  filters: ['system_cuid'],
  sorts: ['name'],
  defaultSort: { field: 'name', order: 'ASC' },
};
