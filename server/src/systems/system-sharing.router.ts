import { z } from 'zod';
import { ZRefCuid } from '../common/zod-fields';
import { ZDeleteManyParams, ZDeleteParams, ZGetListParams, ZGetManyParams, ZGetManyReferenceParams, ZGetOneParams } from '../crud/crud.schema';
import { procedure, router } from '../trpc/trpc';
import type { SystemSharingService } from './system-sharing.service';

export const ZSystemShare = z.object({
  id: z.string(),
  system_cuid: z.string(),
  company_cuid: z.string(),
  membership_cuid: z.string().nullable(),
  change: z.boolean(),
  company_name: z.string(),
  system_name: z.string(),
  owner_company_cuid: z.string(),
});

const ZShareCreate = z.object({ system_cuid: ZRefCuid, company_cuid: ZRefCuid, change: z.boolean().default(false) }).strict();
const ZShareUpdate = z.object({ change: z.boolean() }).partial().strict();
const ZId = z.union([z.string().min(1).max(80), z.number()]).transform(String);

/** react-admin sends whole records on update: only `change` is editable. */
const pickChange = (raw: unknown) =>
  raw && typeof raw === 'object'
    ? { ...raw, data: Object.fromEntries(Object.entries(((raw as { data?: unknown }).data ?? {}) as Record<string, unknown>).filter(([k]) => k === 'change')) }
    : raw;

/** `systemSharing.*`: react-admin's calls over shares (id `${system_cuid}:${company_cuid}`). */
export function systemSharingRouter(shares: SystemSharingService) {
  return router({
    getList: procedure
      .meta({ perm: 'systems.view' })
      .input(ZGetListParams)
      .output(z.object({ data: z.array(ZSystemShare), total: z.number() }))
      .query(({ ctx, input }) => shares.getList(ctx.actor, input)),
    getOne: procedure
      .meta({ perm: 'systems.view' })
      .input(ZGetOneParams)
      .output(z.object({ data: ZSystemShare }))
      .query(({ ctx, input }) => shares.getOne(ctx.actor, input.id)),
    getMany: procedure
      .meta({ perm: 'systems.view' })
      .input(ZGetManyParams)
      .output(z.object({ data: z.array(ZSystemShare) }))
      .query(({ ctx, input }) => shares.getMany(ctx.actor, input.ids)),
    getManyReference: procedure
      .meta({ perm: 'systems.view' })
      .input(ZGetManyReferenceParams)
      .output(z.object({ data: z.array(ZSystemShare), total: z.number() }))
      .query(({ ctx, input }) => shares.getList(ctx.actor, input, { target: input.target, id: input.id })),
    create: procedure
      .meta({ perm: 'systems.share' })
      .input(z.object({ data: ZShareCreate, meta: z.unknown().optional() }))
      .output(z.object({ data: ZSystemShare }))
      .mutation(({ ctx, input }) => shares.create(ctx.actor, input.data)),
    update: procedure
      .meta({ perm: 'systems.share' })
      .input(z.preprocess(pickChange, z.object({ id: ZId, data: ZShareUpdate, previousData: z.unknown().optional(), meta: z.unknown().optional() })))
      .output(z.object({ data: ZSystemShare }))
      .mutation(({ ctx, input }) => shares.update(ctx.actor, input.id, input.data)),
    delete: procedure
      .meta({ perm: 'systems.share' })
      .input(ZDeleteParams.extend({ id: ZId }))
      .output(z.object({ data: ZSystemShare }))
      .mutation(async ({ ctx, input }) => ({ data: (await shares.delete(ctx.actor, [input.id]))[0] })),
    deleteMany: procedure
      .meta({ perm: 'systems.share' })
      .input(ZDeleteManyParams.extend({ ids: z.array(ZId).min(1).max(1000) }))
      .output(z.object({ data: z.array(z.string()) }))
      .mutation(async ({ ctx, input }) => ({ data: (await shares.delete(ctx.actor, input.ids)).map((r) => r.id) })),
    /** What the caller may do with each visible share, so screens hide what the server refuses. */
    access: procedure
      .meta({ perm: 'systems.view' })
      .input(ZGetManyParams)
      .output(z.object({ data: z.record(z.string(), z.object({ edit: z.boolean(), delete: z.boolean() })) }))
      .query(({ ctx, input }) => shares.access(ctx.actor, input.ids)),
  });
}
