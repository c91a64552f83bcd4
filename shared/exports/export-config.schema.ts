import { z } from 'zod';
import { boundedJson, ZRefCuid, ZTimezone } from '../common/zod-fields';

/** Most columns one template may hold (a wider sheet is a second template). */
export const EXPORT_MAX_COLUMNS = 50;
export const EXPORT_MAX_RECIPIENTS = 20;

export const EXPORT_RESOLUTIONS = ['raw', '5m', '1h', '1d'] as const;
export const EXPORT_AGGREGATES = ['avg', 'min', 'max', 'last'] as const;
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const EXPORT_DECIMALS = ['.', ','] as const;
export const EXPORT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;

export type TExportResolution = (typeof EXPORT_RESOLUTIONS)[number];
export type TExportAggregate = (typeof EXPORT_AGGREGATES)[number];
export type TExportFormat = (typeof EXPORT_FORMATS)[number];
export type TExportDecimal = (typeof EXPORT_DECIMALS)[number];
export type TExportFrequency = (typeof EXPORT_FREQUENCIES)[number];

/** One column of the file: a parameter the device logs, with an optional label and the aggregate of a rollup bucket. */
export const ZExportColumn = z
  .object({
    entity_cuid: ZRefCuid,
    parameter_id: z.string().trim().min(1, 'Required').max(64),
    label: z.string().trim().max(120).optional(),
    aggregate: z.enum(EXPORT_AGGREGATES).default('avg'),
  })
  .strict();

/** A scheduled export: the previous period, mailed as a link to email channels of the system's company. */
export const ZExportSchedule = z
  .object({
    frequency: z.enum(EXPORT_FREQUENCIES),
    recipients: z.array(ZRefCuid).min(1, 'Pick at least one email channel').max(EXPORT_MAX_RECIPIENTS),
  })
  .strict();

/**
 * SystemDataExportTemplate.config (spec §3.3), typed: the columns (devices of the template's own
 * system), the resolution, the default format and decimal separator (',' writes ';' between
 * fields), the default time zone (else the system's) and an optional schedule.
 */
export const ZExportConfigShape = z
  .object({
    columns: z.array(ZExportColumn).max(EXPORT_MAX_COLUMNS, `At most ${EXPORT_MAX_COLUMNS} columns`).default([]),
    resolution: z.enum(EXPORT_RESOLUTIONS).default('raw'),
    format: z.enum(EXPORT_FORMATS).default('csv'),
    decimal: z.enum(EXPORT_DECIMALS).default('.'),
    timezone: ZTimezone.optional(),
    schedule: ZExportSchedule.nullable().optional(),
  })
  .strict();

export const ZExportConfig = boundedJson(ZExportConfigShape, { maxBytes: 32 * 1024 });
export type TExportConfig = z.infer<typeof ZExportConfigShape>;
export type TExportColumn = z.infer<typeof ZExportColumn>;
