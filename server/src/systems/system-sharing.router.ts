import { z } from 'zod';
import { ZRefCuid } from '../../../shared/common/zod-fields';
import { accessProcedure, readProcedures, removeProcedures } from '../crud/procedures';
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
    ...readProcedures({
      perm: 'systems.view',
      record: ZSystemShare,
      source: {
        getList: (actor, input, reference) => shares.getList(actor, input, reference),
        getOne: (actor, id) => shares.getOne(actor, id),
        getMany: (actor, ids) => shares.getMany(actor, ids),
      },
    }),
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
    ...removeProcedures({
      perm: 'systems.share',
      record: ZSystemShare,
      id: ZId,
      remove: (actor, ids) => shares.delete(actor, ids),
      idOf: (r) => r.id,
    }),
    /** What the caller may do with each visible share, so screens hide what the server refuses. */
    access: accessProcedure('systems.view', (actor, ids) => shares.access(actor, ids)),
  });
}
