import { z } from 'zod';
import { ZDeleteManyParams, ZDeleteParams } from '../crud/crud.schema';
import { accessProcedure, readProcedures } from '../crud/procedures';
import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { ZHostedFile } from './files.schema';
import { FilesService } from './files.service';

/**
 * The `hostedFile` resource for react-admin: list, show and delete. There is no create or update:
 * a file arrives through `POST /api/files` (multipart) and never changes under its id.
 */
export const hostedFileRoutes = declareRoutes({ files: FilesService }, ({ files }) =>
  router({
    ...readProcedures({
      perm: 'files.view',
      record: ZHostedFile,
      source: {
        getList: (actor, input, reference) => files.getList(actor, input, reference),
        getOne: (actor, id) => files.getOne(actor, id),
        getMany: (actor, ids) => files.getMany(actor, ids),
      },
    }),
    delete: procedure
      .meta({ perm: 'files.delete' })
      .input(ZDeleteParams)
      .output(z.object({ data: ZHostedFile }))
      .mutation(({ ctx, input }) => files.delete(ctx.actor, input.id)),
    deleteMany: procedure
      .meta({ perm: 'files.delete' })
      .input(ZDeleteManyParams)
      .output(z.object({ data: z.array(z.string()) }))
      .mutation(({ ctx, input }) => files.deleteMany(ctx.actor, input.ids)),
    /** What an upload may be (FILES_MAX_BYTES, FILES_ALLOWED_TYPES), so a form can say so before sending. */
    limits: procedure
      .meta({ perm: 'files.view' })
      .input(z.void())
      .output(z.object({ maxBytes: z.number().int(), allowedTypes: z.array(z.string()) }))
      .query(() => files.limits()),
    /** Per visible file: may the caller delete it (edit is always false: files are replaced, not edited). */
    access: accessProcedure('files.view', (actor, ids) => files.access(actor, ids)),
  }),
);
