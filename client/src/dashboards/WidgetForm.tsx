import { localText } from '../i18n/localText';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import {
  GRID_COLUMNS,
  KPI_METRICS,
  MARKDOWN_MAX_CHARS,
  MAX_SERIES,
  type TWidget,
  type TWidgetType,
  WIDGET_TYPES,
} from '../../../shared/dashboards/dashboard-layout.schema';
import { useDashboardSystems, useLatest } from './api';

type Draft = {
  type: TWidgetType;
  title: string;
  metric: (typeof KPI_METRICS)[number];
  system_cuid: string;
  entity_cuid: string;
  parameter_id: string;
  series: { entity_cuid: string; parameter_id: string }[];
  granularity: 'day' | 'month';
  text: string;
};

/** A size that suits each kind of widget when it is added. */
const DEFAULT_SIZE: Record<TWidgetType, { w: number; h: number }> = {
  kpi: { w: 3, h: 2 },
  timeseries: { w: 8, h: 6 },
  energy: { w: 6, h: 5 },
  fleet_status: { w: 4, h: 3 },
  alarms: { w: 4, h: 4 },
  map: { w: 6, h: 7 },
  latest: { w: 4, h: 4 },
  markdown: { w: 4, h: 3 },
};

function draftOf(w: TWidget | undefined): Draft {
  const s = (w?.settings ?? {}) as Partial<Record<string, unknown>>;
  return {
    type: w?.type ?? 'kpi',
    title: w?.title ?? '',
    metric: (s.metric as Draft['metric']) ?? 'energy_today',
    system_cuid: (s.system_cuid as string) ?? '',
    entity_cuid: (s.entity_cuid as string) ?? '',
    parameter_id: (s.parameter_id as string) ?? '',
    series: (s.series as Draft['series']) ?? [],
    granularity: (s.granularity as Draft['granularity']) ?? 'day',
    text: (s.text as string) ?? '',
  };
}

/** The settings of the draft's type, or the name of the first missing field. */
function settingsOf(d: Draft): { settings: TWidget['settings'] } | { missing: string } {
  switch (d.type) {
    case 'kpi':
      if (d.metric !== 'parameter') return { settings: { metric: d.metric } };
      if (!d.system_cuid) return { missing: 'system' };
      if (!d.entity_cuid) return { missing: 'device' };
      if (!d.parameter_id) return { missing: 'parameter' };
      return { settings: { metric: d.metric, system_cuid: d.system_cuid, entity_cuid: d.entity_cuid, parameter_id: d.parameter_id } };
    case 'timeseries':
      if (!d.system_cuid) return { missing: 'system' };
      if (d.series.length === 0) return { missing: 'parameters' };
      return { settings: { system_cuid: d.system_cuid, series: d.series.slice(0, MAX_SERIES) } };
    case 'energy':
      return { settings: d.system_cuid ? { system_cuid: d.system_cuid, granularity: d.granularity } : { granularity: d.granularity } };
    case 'latest':
      if (!d.system_cuid) return { missing: 'system' };
      if (!d.entity_cuid) return { missing: 'device' };
      return { settings: { system_cuid: d.system_cuid, entity_cuid: d.entity_cuid } };
    case 'markdown':
      return { settings: { text: d.text.slice(0, MARKDOWN_MAX_CHARS) } };
    default:
      return { settings: {} };
  }
}

/** A fresh widget id, unique within the dashboard. */
function newId(taken: readonly TWidget[]): string {
  for (;;) {
    const id = `w${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.some((w) => w.id === id)) return id;
  }
}

export interface WidgetFormProps {
  /** The widget being changed; absent → a new one, placed below the others. */
  widget?: TWidget;
  widgets: readonly TWidget[];
  onClose: () => void;
  onSubmit: (widget: TWidget) => void;
}

/** "Add widget" / widget settings: a form per widget type with pickers for systems, devices and parameters. */
export default function WidgetForm({ widget, widgets, onClose, onSubmit }: WidgetFormProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [d, setD] = useState<Draft>(() => draftOf(widget));
  const [missing, setMissing] = useState<string | null>(null);
  const set = (patch: Partial<Draft>) => {
    setMissing(null);
    setD((prev) => ({ ...prev, ...patch }));
  };
  const t = (key: string) => translate(`portal.dashboards.form.${key}`);
  const needsSystem = d.type === 'timeseries' || d.type === 'latest' || d.type === 'energy' || (d.type === 'kpi' && d.metric === 'parameter');
  const needsDevice = d.type === 'latest' || (d.type === 'kpi' && d.metric === 'parameter');

  const systems = useDashboardSystems(needsSystem);
  const latest = useLatest(needsSystem && d.system_cuid ? d.system_cuid : undefined);
  const devices = latest.data?.devices ?? [];
  const device = devices.find((x) => x.entity_cuid === d.entity_cuid);

  const submit = () => {
    const result = settingsOf(d);
    if ('missing' in result) {
      setMissing(result.missing);
      return;
    }
    const size = widget
      ? { x: widget.x, y: widget.y, w: widget.w, h: widget.h }
      : { x: 0, y: widgets.reduce((m, w) => Math.max(m, w.y + w.h), 0), ...DEFAULT_SIZE[d.type] };
    size.w = Math.min(size.w, GRID_COLUMNS - size.x);
    const title = d.title.trim() || undefined;
    onSubmit({ id: widget?.id ?? newId(widgets), type: d.type, ...size, ...(title ? { title } : {}), settings: result.settings } as TWidget);
  };
  const error = (field: string) => (missing === field ? t('required') : undefined);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="widget-form-title">
      <DialogTitle id="widget-form-title">{translate(widget ? 'portal.dashboards.edit_widget' : 'portal.dashboards.add_widget')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="widget-form">
          <TextField
            select
            label={t('type')}
            value={d.type}
            onChange={(e) => set({ type: e.target.value as TWidgetType })}
            disabled={!!widget}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'widget-type' } as object } }}
          >
            {WIDGET_TYPES.map((type) => (
              <MenuItem key={type} value={type} data-testid={`widget-type-${type}`}>
                {translate(`portal.dashboards.types.${type}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('title')}
            value={d.title}
            onChange={(e) => set({ title: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 120, 'data-testid': 'widget-title' } }}
          />
          {d.type === 'kpi' && (
            <TextField
              select
              label={t('metric')}
              value={d.metric}
              onChange={(e) => set({ metric: e.target.value as Draft['metric'] })}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'widget-metric' } as object } }}
            >
              {KPI_METRICS.map((m) => (
                <MenuItem key={m} value={m} data-testid={`widget-metric-${m}`}>
                  {translate(`portal.dashboards.metrics.${m}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
          {needsSystem && (
            <TextField
              select
              label={t('system')}
              value={d.system_cuid}
              onChange={(e) => set({ system_cuid: e.target.value, entity_cuid: '', parameter_id: '', series: [] })}
              error={!!error('system')}
              helperText={error('system')}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'widget-system' } as object } }}
            >
              {d.type === 'energy' && (
                <MenuItem value="">
                  <em>{t('fleet')}</em>
                </MenuItem>
              )}
              {(systems.data?.data ?? []).map((s) => (
                <MenuItem key={String(s.id)} value={String(s.id)}>
                  {String(s.name)}
                </MenuItem>
              ))}
            </TextField>
          )}
          {needsDevice && (
            <TextField
              select
              label={t('device')}
              value={d.entity_cuid}
              disabled={!d.system_cuid}
              onChange={(e) => set({ entity_cuid: e.target.value, parameter_id: '' })}
              error={!!error('device')}
              helperText={error('device') ?? (!d.system_cuid ? t('pick_system') : undefined)}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'widget-device' } as object } }}
            >
              {devices.map((x) => (
                <MenuItem key={x.entity_cuid} value={x.entity_cuid}>
                  {x.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          {d.type === 'kpi' && d.metric === 'parameter' && (
            <TextField
              select
              label={t('parameter')}
              value={d.parameter_id}
              disabled={!device}
              onChange={(e) => set({ parameter_id: e.target.value })}
              error={!!error('parameter')}
              helperText={error('parameter')}
            >
              {(device?.parameters ?? []).map((p) => (
                <MenuItem key={p.parameter_id} value={p.parameter_id}>
                  {localText(p, 'description', locale) ?? p.parameter_id}
                </MenuItem>
              ))}
            </TextField>
          )}
          {d.type === 'timeseries' && d.system_cuid && (
            <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <FormLabel component="legend" error={!!error('parameters')}>
                {t('parameters')}
                {error('parameters') ? ` · ${error('parameters')}` : ''}
              </FormLabel>
              {devices.map((x) => (
                <FormGroup key={x.entity_cuid} aria-label={x.name}>
                  <Typography variant="caption" color="text.secondary" sx={{ mt: 1 }}>
                    {x.name}
                  </Typography>
                  {x.parameters.map((p) => {
                    const on = d.series.some((s) => s.entity_cuid === x.entity_cuid && s.parameter_id === p.parameter_id);
                    return (
                      <FormControlLabel
                        key={p.parameter_id}
                        label={`${localText(p, 'description', locale) ?? p.parameter_id}${p.unit ? ` (${p.unit})` : ''}`}
                        control={
                          <Checkbox
                            checked={on}
                            disabled={!on && d.series.length >= MAX_SERIES}
                            onChange={() =>
                              set({
                                series: on
                                  ? d.series.filter((s) => !(s.entity_cuid === x.entity_cuid && s.parameter_id === p.parameter_id))
                                  : [...d.series, { entity_cuid: x.entity_cuid, parameter_id: p.parameter_id }],
                              })
                            }
                            slotProps={{ input: { 'data-testid': `series-${x.entity_cuid}-${p.parameter_id}` } as object }}
                          />
                        }
                      />
                    );
                  })}
                </FormGroup>
              ))}
            </Box>
          )}
          {d.type === 'energy' && (
            <TextField select label={t('granularity')} value={d.granularity} onChange={(e) => set({ granularity: e.target.value as Draft['granularity'] })}>
              {(['day', 'month'] as const).map((g) => (
                <MenuItem key={g} value={g}>
                  {translate(`portal.dashboards.granularity.${g}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
          {d.type === 'markdown' && (
            <TextField
              label={t('text')}
              value={d.text}
              multiline
              minRows={4}
              onChange={(e) => set({ text: e.target.value })}
              slotProps={{ htmlInput: { maxLength: MARKDOWN_MAX_CHARS, 'data-testid': 'widget-text' } }}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('portal.dashboards.cancel')}</Button>
        <Button variant="contained" onClick={submit} data-testid="widget-submit">
          {t(widget ? 'apply' : 'add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
