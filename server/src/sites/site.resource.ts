import { z } from 'zod';
import type { ResourceDefinition } from '../crud/resource';
import { ZName, ZRefCuid } from '../../../shared/common/zod-fields';
import { resourceAccess } from '../../../shared/access/resources';

const ZLat = z.number().min(-90).max(90).nullable();
const ZLong = z.number().min(-180).max(180).nullable();

export const ZSite = z.object({ site_cuid: z.string(), name: z.string(), lat: z.number().nullable(), long: z.number().nullable(), company_cuid: z.string() });

export const siteResource: ResourceDefinition<typeof ZSite, z.ZodObject, z.ZodObject> = {
  name: 'site',
  table: 'site',
  key: 'site_cuid',
  generatedKey: true,
  record: ZSite,
  create: z.object({ name: ZName, lat: ZLat.optional(), long: ZLong.optional(), company_cuid: ZRefCuid }),
  update: z.object({ name: ZName, lat: ZLat, long: ZLong }).partial(),
  ...resourceAccess('site'),
  scope: { kind: 'company', column: 'company_cuid' },
  search: ['name'],
  filters: ['company_cuid'],
  sorts: ['name', 'lat', 'long'],
  defaultSort: { field: 'name', order: 'ASC' },
};
