import { z } from 'zod';
import { DOCUMENTATION_TYPES } from '../../../shared/common/enums';
import type { ResourceDefinition } from '../crud/resource';
import { setDocumentationAuthor } from './documentation.repository';
import { resourceAccess } from '../../../shared/access/resources';

type Def = ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject>;

/** Documentation in Markdown (spec §6: admin view 3, admin actions 0); versions via is_active. */
export const documentationResource: Def = {
  name: 'documentation',
  table: 'documentation',
  key: 'cuid',
  generatedKey: true,
  record: z.object({
    cuid: z.string(),
    content: z.string(),
    user_cuid: z.string().nullable(),
    created_at: z.date(),
    documentation_type: z.enum(DOCUMENTATION_TYPES),
    is_active: z.boolean(),
  }),
  create: z.object({ content: z.string().max(200_000), documentation_type: z.enum(DOCUMENTATION_TYPES), is_active: z.boolean().default(true) }),
  update: z.object({ content: z.string().max(200_000), is_active: z.boolean() }).partial(),
  ...resourceAccess('documentation'),
  scope: { kind: 'global' },
  search: ['content'],
  filters: ['documentation_type', 'is_active', 'user_cuid'],
  sorts: ['created_at', 'documentation_type', 'is_active'],
  defaultSort: { field: 'created_at', order: 'DESC' },
  selectExpressions: { documentation_type: 't.documentation_type::text' },
  afterCreate: async (tx, actor, row) => {
    await setDocumentationAuthor(tx, row.cuid, actor.user_cuid);
  },
};
