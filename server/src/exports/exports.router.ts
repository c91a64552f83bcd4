import { Injectable, Optional } from '@nestjs/common';
import { procedure, router } from '../trpc/trpc';
import { ExportJobsService } from './export-jobs.service';
import { ZExportJob, ZExportJobId, ZExportJobList, ZExportRunInput } from './exports.schema';
import { z } from 'zod';

/** exportJob: background data exports of the caller (start, progress, list, cancel). Files: GET /api/exports/jobs/<id>/file. */
@Injectable()
export class ExportJobRouter {
  constructor(@Optional() jobs?: ExportJobsService) {
    this.router = router({
      start: procedure
        .meta({ perm: 'exports.run' })
        .input(ZExportRunInput)
        .output(ZExportJob)
        .mutation(({ ctx, input }) => jobs!.start(ctx.actor, input)),
      get: procedure
        .meta({ perm: 'exports.run' })
        .input(ZExportJobId)
        .output(ZExportJob)
        .query(({ ctx, input }) => jobs!.get(ctx.actor, input.id)),
      list: procedure
        .meta({ perm: 'exports.run' })
        .input(z.object({}).strict().optional())
        .output(ZExportJobList)
        .query(async ({ ctx }) => ({ data: await jobs!.list(ctx.actor) })),
      cancel: procedure
        .meta({ perm: 'exports.run' })
        .input(ZExportJobId)
        .output(ZExportJob)
        .mutation(({ ctx, input }) => jobs!.cancel(ctx.actor, input.id)),
    });
  }

  readonly router;
}
