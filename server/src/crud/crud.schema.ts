import { z } from 'zod';

/** react-admin's params objects, as the nine data-provider calls send them. */
const ZId = z.union([z.string().trim().min(1).max(64), z.number().int()]).transform(String);
const ZFilterValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null(), z.array(z.union([z.string().max(200), z.number()])).max(1000)]);

/** A page of a list (react-admin's `pagination`): 25 rows of page 1 unless asked. */
export const ZPagination = z
  .object({ page: z.number().int().min(1).max(1_000_000), perPage: z.number().int().min(1).max(1000) })
  .default({ page: 1, perPage: 25 });

export const ZGetListParams = z.object({
  pagination: ZPagination,
  sort: z.object({ field: z.string().max(64), order: z.enum(['ASC', 'DESC', 'asc', 'desc']).transform((o) => o.toUpperCase() as 'ASC' | 'DESC') }).optional(),
  filter: z.record(z.string().max(64), ZFilterValue).default({}),
  meta: z.unknown().optional(),
});
export const ZGetOneParams = z.object({ id: ZId, meta: z.unknown().optional() });
export const ZGetManyParams = z.object({ ids: z.array(ZId).max(1000), meta: z.unknown().optional() });
export const ZGetManyReferenceParams = ZGetListParams.extend({ target: z.string().max(64), id: ZId });
export const ZDeleteParams = z.object({ id: ZId, previousData: z.unknown().optional(), meta: z.unknown().optional() });
export const ZDeleteManyParams = z.object({ ids: z.array(ZId).min(1).max(1000), meta: z.unknown().optional() });

export type TGetListParams = z.infer<typeof ZGetListParams>;
