import { z } from 'zod';
import { boundedJson } from '../common/zod-fields';

/**
 * A dashboard's `meta`: a time range for the whole dashboard and a list of widgets placed on a
 * grid (grid units, 12 columns). Each widget's settings depend on its `type`. Every list, string
 * and number is bounded; the whole layout is a bounded JSON value (DASHBOARD_META_MAX_BYTES).
 *
 * Pure zod without server imports beyond the JSON bounds: the browser uses the same types.
 */

/** Largest dashboard layout, as JSON text (bytes): layouts are larger than other JSON fields. */
export const DASHBOARD_META_MAX_BYTES = 100_000;

/** Columns of the dashboard grid. */
export const GRID_COLUMNS = 12;
/** Tallest widget and lowest row a widget may start on (grid rows). */
export const GRID_MAX_HEIGHT = 24;
export const GRID_MAX_ROW = 500;
export const MAX_WIDGETS = 40;
export const MAX_SERIES = 8;
export const MARKDOWN_MAX_CHARS = 10_000;

export const RANGE_PRESETS = ['today', 'yesterday', 'last_24h', 'last_7d', 'this_month', 'last_month', 'this_year', 'custom'] as const;
export type TRangePreset = (typeof RANGE_PRESETS)[number];

export const WIDGET_TYPES = ['kpi', 'timeseries', 'energy', 'fleet_status', 'alarms', 'map', 'latest', 'markdown'] as const;
export type TWidgetType = (typeof WIDGET_TYPES)[number];

/** KPI tiles: fleet figures (fleet.overview / fleet.energy) or a device parameter's latest value. */
export const KPI_METRICS = [
  'systems_total',
  'systems_online',
  'systems_offline',
  'systems_unstable',
  'in_alarm',
  'low_soc',
  'stale',
  'energy_today',
  'energy_month',
  'energy_range',
  'parameter',
] as const;
export type TKpiMetric = (typeof KPI_METRICS)[number];

const ZCuid = z.string().trim().min(1, 'Required').max(32);
const ZParameterId = z.string().trim().min(1, 'Required').max(64);
const ZTitle = z.string().trim().max(120);

export const ZDashboardRange = z
  .object({
    preset: z.enum(RANGE_PRESETS),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.preset !== 'custom') return;
    if (!r.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'Required for a custom range' });
    if (!r.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Required for a custom range' });
    if (r.from && r.to && Date.parse(r.from) >= Date.parse(r.to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must be after the start' });
  });
export type TDashboardRange = z.infer<typeof ZDashboardRange>;

const ZKpiSettings = z
  .object({
    metric: z.enum(KPI_METRICS),
    system_cuid: ZCuid.optional(),
    entity_cuid: ZCuid.optional(),
    parameter_id: ZParameterId.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.metric !== 'parameter') return;
    for (const key of ['system_cuid', 'entity_cuid', 'parameter_id'] as const)
      if (!s[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'Required for a device parameter' });
  });

const ZSeries = z.object({ entity_cuid: ZCuid, parameter_id: ZParameterId }).strict();

const settingsOf = {
  kpi: ZKpiSettings,
  timeseries: z
    .object({ system_cuid: ZCuid, series: z.array(ZSeries).min(1, 'Choose at least one parameter').max(MAX_SERIES, `At most ${MAX_SERIES} series`) })
    .strict(),
  energy: z.object({ system_cuid: ZCuid.optional(), granularity: z.enum(['day', 'month']) }).strict(),
  fleet_status: z.object({}).strict(),
  alarms: z.object({}).strict(),
  map: z.object({}).strict(),
  latest: z.object({ system_cuid: ZCuid, entity_cuid: ZCuid }).strict(),
  markdown: z.object({ text: z.string().max(MARKDOWN_MAX_CHARS, `At most ${MARKDOWN_MAX_CHARS} characters`) }).strict(),
} as const;

const placement = {
  id: z.string().trim().min(1).max(40),
  x: z
    .number()
    .int()
    .min(0)
    .max(GRID_COLUMNS - 1),
  y: z.number().int().min(0).max(GRID_MAX_ROW),
  w: z.number().int().min(1).max(GRID_COLUMNS),
  h: z.number().int().min(1).max(GRID_MAX_HEIGHT),
  title: ZTitle.optional(),
};

const widget = <T extends TWidgetType>(type: T) => z.object({ ...placement, type: z.literal(type), settings: settingsOf[type] }).strict();

export const ZWidget = z
  .discriminatedUnion('type', [
    widget('kpi'),
    widget('timeseries'),
    widget('energy'),
    widget('fleet_status'),
    widget('alarms'),
    widget('map'),
    widget('latest'),
    widget('markdown'),
  ])
  .superRefine((w, ctx) => {
    if (w.x + w.w > GRID_COLUMNS) ctx.addIssue({ code: 'custom', path: ['w'], message: `The widget must fit in ${GRID_COLUMNS} columns` });
  });
export type TWidget = z.infer<typeof ZWidget>;

export const ZDashboardLayout = z
  .object({
    range: ZDashboardRange.default({ preset: 'last_7d' }),
    widgets: z
      .array(ZWidget)
      .max(MAX_WIDGETS, `At most ${MAX_WIDGETS} widgets`)
      .default([])
      .superRefine((widgets, ctx) => {
        const seen = new Set<string>();
        widgets.forEach((w, i) => {
          if (seen.has(w.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'Widget ids must be unique' });
          seen.add(w.id);
        });
      }),
  })
  .strict();
export type TDashboardLayout = z.infer<typeof ZDashboardLayout>;

/** `meta` as a mutation receives it: the layout behind the JSON bounds. */
export const ZDashboardMeta = boundedJson(ZDashboardLayout, { maxBytes: DASHBOARD_META_MAX_BYTES });

/** The systems and devices a layout names, with the path of each (for NOT_FOUND on the field). */
export function layoutReferences(layout: TDashboardLayout): { path: (string | number)[]; system_cuid: string; entity_cuid?: string }[] {
  const refs: { path: (string | number)[]; system_cuid: string; entity_cuid?: string }[] = [];
  layout.widgets.forEach((w, i) => {
    const at = ['widgets', i, 'settings'];
    switch (w.type) {
      case 'kpi':
        if (w.settings.system_cuid) refs.push({ path: [...at, 'system_cuid'], system_cuid: w.settings.system_cuid });
        if (w.settings.system_cuid && w.settings.entity_cuid)
          refs.push({ path: [...at, 'entity_cuid'], system_cuid: w.settings.system_cuid, entity_cuid: w.settings.entity_cuid });
        return;
      case 'timeseries':
        refs.push({ path: [...at, 'system_cuid'], system_cuid: w.settings.system_cuid });
        w.settings.series.forEach((s, j) =>
          refs.push({ path: [...at, 'series', j, 'entity_cuid'], system_cuid: w.settings.system_cuid, entity_cuid: s.entity_cuid }),
        );
        return;
      case 'energy':
        if (w.settings.system_cuid) refs.push({ path: [...at, 'system_cuid'], system_cuid: w.settings.system_cuid });
        return;
      case 'latest':
        refs.push({ path: [...at, 'system_cuid'], system_cuid: w.settings.system_cuid });
        refs.push({ path: [...at, 'entity_cuid'], system_cuid: w.settings.system_cuid, entity_cuid: w.settings.entity_cuid });
        return;
      default:
        return;
    }
  });
  return refs;
}
