import { z } from 'zod';
import { ZRefCuid, ZTimezone } from '../../../shared/common/zod-fields';
import { EXPORT_DECIMALS, EXPORT_FORMATS, ZExportConfigShape } from '../../../shared/exports/export-config.schema';
import { EXPORT_JOB_STATUSES } from './export-job.entity';

/** The dates an export accepts: 1970-01-01 to the end of 9999 (UTC), what PostgreSQL, the time zones and the file's cells all hold. */
export const EXPORT_FIRST_DATE = new Date(Date.UTC(1970, 0, 1));
export const EXPORT_LAST_DATE = new Date(Date.UTC(10000, 0, 1) - 1);
const inRange = (d: Date): boolean => d.getTime() >= EXPORT_FIRST_DATE.getTime() && d.getTime() <= EXPORT_LAST_DATE.getTime();
const ZExportDate = z.coerce
  .date({ message: 'A date and time' })
  .refine((d) => Number.isNaN(d.getTime()) || inRange(d), { message: 'A date between the years 1970 and 9999' });

/** One run of a template: range [from, to), and the file's format, zone and decimal (else the template's defaults). */
export const ZExportRunInput = z
  .object({
    template_cuid: ZRefCuid,
    from: ZExportDate,
    to: ZExportDate,
    format: z.enum(EXPORT_FORMATS).optional(),
    timezone: ZTimezone.optional(),
    decimal: z.enum(EXPORT_DECIMALS).optional(),
  })
  .strict()
  // Only once both dates are valid (zod runs this refine beside a field's own refusal).
  .refine((v) => !inRange(v.from) || !inRange(v.to) || v.from.getTime() < v.to.getTime(), { path: ['to'], message: 'The end comes after the start' });
export type TExportRunInput = z.infer<typeof ZExportRunInput>;

/** The query string of GET /api/exports/stream (all strings). */
export const ZExportStreamQuery = z
  .object({
    template_cuid: ZRefCuid,
    from: z.string().min(1, 'Required').max(40),
    to: z.string().min(1, 'Required').max(40),
    format: z.enum(EXPORT_FORMATS).optional(),
    timezone: z.string().max(64).optional(),
    decimal: z.enum(EXPORT_DECIMALS).optional(),
  })
  .strict();

export const ZExportJobId = z.object({ id: ZRefCuid }).strict();

export const ZExportJob = z.object({
  id: z.string(),
  system_cuid: z.string(),
  system_name: z.string().nullable(),
  template_cuid: z.string().nullable(),
  template_name: z.string().nullable(),
  status: z.enum(EXPORT_JOB_STATUSES),
  rows_done: z.number().int(),
  rows_total: z.number().int().nullable(),
  bytes: z.number().int().nullable(),
  file_name: z.string(),
  format: z.enum(EXPORT_FORMATS),
  from: z.date(),
  to: z.date(),
  timezone: z.string(),
  scheduled: z.boolean(),
  error: z.string().nullable(),
  /** A scheduled job whose mail did not reach every recipient (a spent mail budget): what was not sent, else null. */
  mail_error: z.string().nullable(),
  /** A QUEUED job's place in its company's line (1 = next; companies take turns), else null. */
  queue_position: z.number().int().nullable(),
  created_at: z.date(),
  finished_at: z.date().nullable(),
  expires_at: z.date().nullable(),
  /** The download address (relative), once DONE and not expired. */
  download_url: z.string().nullable(),
});
export type TExportJob = z.infer<typeof ZExportJob>;
export const ZExportJobList = z.object({ data: z.array(ZExportJob) });

/** `exportJob.templates`: the templates of a system the caller may run (without the schedule). */
export const ZExportTemplatesInput = z.object({ system_cuid: ZRefCuid }).strict();
export const ZExportTemplates = z.object({
  data: z.array(z.object({ template_cuid: z.string(), name: z.string(), config: ZExportConfigShape.omit({ schedule: true }) })),
});
