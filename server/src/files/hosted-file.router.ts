import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import {
  ZDeleteManyParams,
  ZDeleteParams,
  ZGetListParams,
  ZGetManyParams,
  ZGetManyReferenceParams,
  ZGetOneParams,
} from '../crud/crud.schema';
import { procedure, router } from '../trpc/trpc';
import { ZHostedFile } from './files.schema';
import { FilesService } from './files.service';

/**
 * The `hostedFile` resource for react-admin: list, show and delete. There is no create or update:
 * a file arrives through `POST /api/files` (multipart) and never changes under its id.
 */
@Injectable()
export class HostedFileRouter {
  constructor(private readonly files: FilesService) {}

  readonly router = router({
    getList: procedure
      .meta({ perm: 'files.view' })
      .input(ZGetListParams)
      .output(z.object({ data: z.array(ZHostedFile), total: z.number() }))
      .query(({ ctx, input }) => this.files.getList(ctx.actor, input)),
    getOne: procedure
      .meta({ perm: 'files.view' })
      .input(ZGetOneParams)
      .output(z.object({ data: ZHostedFile }))
      .query(({ ctx, input }) => this.files.getOne(ctx.actor, input.id)),
    getMany: procedure
      .meta({ perm: 'files.view' })
      .input(ZGetManyParams)
      .output(z.object({ data: z.array(ZHostedFile) }))
      .query(({ ctx, input }) => this.files.getMany(ctx.actor, input.ids)),
    getManyReference: procedure
      .meta({ perm: 'files.view' })
      .input(ZGetManyReferenceParams)
      .output(z.object({ data: z.array(ZHostedFile), total: z.number() }))
      .query(({ ctx, input }) => this.files.getList(ctx.actor, input, { target: input.target, id: input.id })),
    delete: procedure
      .meta({ perm: 'files.delete' })
      .input(ZDeleteParams)
      .output(z.object({ data: ZHostedFile }))
      .mutation(({ ctx, input }) => this.files.delete(ctx.actor, input.id)),
    deleteMany: procedure
      .meta({ perm: 'files.delete' })
      .input(ZDeleteManyParams)
      .output(z.object({ data: z.array(z.string()) }))
      .mutation(({ ctx, input }) => this.files.deleteMany(ctx.actor, input.ids)),
    /** What an upload may be (FILES_MAX_BYTES, FILES_ALLOWED_TYPES), so a form can say so before sending. */
    limits: procedure
      .meta({ perm: 'files.view' })
      .input(z.void())
      .output(z.object({ maxBytes: z.number().int(), allowedTypes: z.array(z.string()) }))
      .query(() => this.files.limits()),
    /** Per visible file: may the caller delete it (edit is always false: files are replaced, not edited). */
    access: procedure
      .meta({ perm: 'files.view' })
      .input(ZGetManyParams)
      .output(z.object({ data: z.record(z.string(), z.object({ edit: z.boolean(), delete: z.boolean() })) }))
      .query(({ ctx, input }) => this.files.access(ctx.actor, input.ids)),
  });
}
