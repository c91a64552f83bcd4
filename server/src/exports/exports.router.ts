import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { ExportJobsService } from './export-jobs.service';
import { ExportsService } from './exports.service';
import { ZExportJob, ZExportJobId, ZExportJobList, ZExportRunInput, ZExportTemplates, ZExportTemplatesInput } from './exports.schema';
import { z } from 'zod';
import { translate } from '../common/messages/translate';
import type { Locale } from '../common/locale';
import { contextLocale } from '../trpc/context-locale';
import type { TExportJob } from './exports.schema';

/** A job's stored texts (its error, what its mail did not reach) in the caller's language. */
const said = (job: TExportJob, locale: Locale): TExportJob => ({
  ...job,
  error: job.error === null ? null : translate(job.error, locale),
  mail_error: job.mail_error === null ? null : translate(job.mail_error, locale),
});

/** exportJob: background data exports of the caller (start, progress, list, cancel). Files: GET /api/exports/jobs/<id>/file. */
export const exportJobRoutes = declareRoutes({ jobs: ExportJobsService, exports: ExportsService }, ({ jobs, exports }) =>
  router({
    start: procedure
      .meta({ perm: 'exports.run' })
      .input(ZExportRunInput)
      .output(ZExportJob)
      .mutation(({ ctx, input }) => jobs.start(ctx.actor, input)),
    get: procedure
      .meta({ perm: 'exports.run' })
      .input(ZExportJobId)
      .output(ZExportJob)
      .query(async ({ ctx, input }) => said(await jobs.get(ctx.actor, input.id), contextLocale(ctx))),
    list: procedure
      .meta({ perm: 'exports.run' })
      .input(z.object({}).strict().optional())
      .output(ZExportJobList)
      .query(async ({ ctx }) => ({ data: (await jobs.list(ctx.actor)).map((j) => said(j, contextLocale(ctx))) })),
    /** The templates of a system the caller may run (Basic users included: exports.run is level 3). */
    templates: procedure
      .meta({ perm: 'exports.run' })
      .input(ZExportTemplatesInput)
      .output(ZExportTemplates)
      .query(async ({ ctx, input }) => ({ data: await exports.templatesOf(ctx.actor, input.system_cuid) })),
    cancel: procedure
      .meta({ perm: 'exports.run' })
      .input(ZExportJobId)
      .output(ZExportJob)
      .mutation(({ ctx, input }) => jobs.cancel(ctx.actor, input.id)),
  }),
);
