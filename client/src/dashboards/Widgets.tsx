import { localText } from '../i18n/localText';
import { formatNumber } from '../i18n/format';
import { Box, Chip, CircularProgress, List, ListItem, ListItemText, Typography } from '@mui/material';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useLocaleState, useTranslate } from 'react-admin';
import type { TWidget } from '../../../shared/dashboards/dashboard-layout.schema';
import EnergyBars from '../energy/EnergyBars';
import { MarkdownView } from '../kit/MarkdownField';
import { SiteMap } from '../map';
import { formatValue } from '../systems/chart-time';
import { isUnavailable, useFleetEnergyDays, useLatest, useOverview, useWidgetSeries, type Overview } from './api';
import type { DateRange } from './range';
import { SystemPrefetch } from '../systems/prefetch';

// uPlot comes with the first time-series widget, in its own chunk.
const SystemChart = lazy(() => import('../systems/SystemChart'));

/** The short text of a widget whose data the viewer may not see (never an error toast). */
export function NotAvailable() {
  const translate = useTranslate();
  return (
    <Typography color="text.secondary" data-testid="widget-not-available">
      {translate('portal.dashboards.not_available')}
    </Typography>
  );
}

function Loading() {
  const translate = useTranslate();
  return <CircularProgress size={20} aria-label={translate('portal.dashboards.loading')} />;
}

/** A failed query: "not available" when refused or unseen, the message otherwise. */
function Failed({ error }: { error: unknown }) {
  if (isUnavailable(error)) return <NotAvailable />;
  return (
    <Typography color="error" variant="body2">
      {error instanceof Error ? error.message : String(error)}
    </Typography>
  );
}

/** The body of one widget (its frame and title are the grid's). */
export function WidgetBody({ widget, range }: { widget: TWidget; range: DateRange }) {
  switch (widget.type) {
    case 'kpi':
      return <KpiWidget settings={widget.settings} range={range} />;
    case 'timeseries':
      return <TimeseriesWidget settings={widget.settings} range={range} />;
    case 'energy':
      return <EnergyWidget settings={widget.settings} range={range} />;
    case 'fleet_status':
      return <FleetStatusWidget />;
    case 'alarms':
      return <AlarmsWidget />;
    case 'map':
      return <MapWidget />;
    case 'latest':
      return <LatestWidget settings={widget.settings} />;
    case 'markdown':
      return <MarkdownView text={widget.settings.text} />;
  }
}

type Settings<T extends TWidget['type']> = Extract<TWidget, { type: T }>['settings'];

function Figure({ value, unit, testid }: { value: string; unit?: string | null; testid?: string }) {
  return (
    <Typography variant="h4" component="p" sx={{ fontWeight: 600 }} data-testid={testid ?? 'kpi-value'} data-value={value}>
      {value}
      {unit ? (
        <Typography component="span" variant="h6" sx={{ ml: 0.5 }}>
          {unit}
        </Typography>
      ) : null}
    </Typography>
  );
}

const COUNT_OF: Partial<Record<Settings<'kpi'>['metric'], (o: Overview) => number>> = {
  systems_total: (o) => o.counts.systems,
  systems_online: (o) => o.counts.online,
  systems_offline: (o) => o.counts.offline,
  systems_unstable: (o) => o.counts.unstable,
  in_alarm: (o) => o.counts.in_alarm,
  low_soc: (o) => o.counts.low_soc,
  stale: (o) => o.counts.stale,
  energy_today: (o) => o.energy.today_kwh,
  energy_month: (o) => o.energy.month_kwh,
};

function KpiWidget({ settings, range }: { settings: Settings<'kpi'>; range: DateRange }) {
  if (settings.metric === 'parameter') return <ParameterKpi settings={settings} />;
  if (settings.metric === 'energy_range') return <EnergyRangeKpi range={range} />;
  return <OverviewKpi metric={settings.metric} />;
}

function OverviewKpi({ metric }: { metric: Settings<'kpi'>['metric'] }) {
  const [locale] = useLocaleState();
  const overview = useOverview();
  if (overview.isPending) return <Loading />;
  if (overview.isError) return <Failed error={overview.error} />;
  const value = COUNT_OF[metric]?.(overview.data);
  if (value === undefined) return <NotAvailable />;
  const energy = metric.startsWith('energy');
  return <Figure value={energy ? formatValue(value, locale) : formatNumber(value, locale)} unit={energy ? 'kWh' : null} />;
}

function EnergyRangeKpi({ range }: { range: DateRange }) {
  const [locale] = useLocaleState();
  const energy = useFleetEnergyDays(range);
  if (energy.isPending) return <Loading />;
  if (energy.isError) return <Failed error={energy.error} />;
  return <Figure value={formatValue(energy.data.total_kwh, locale)} unit="kWh" />;
}

function ParameterKpi({ settings }: { settings: Settings<'kpi'> }) {
  const [locale] = useLocaleState();
  const latest = useLatest(settings.system_cuid);
  if (latest.isPending) return <Loading />;
  if (latest.isError) return <Failed error={latest.error} />;
  const device = latest.data.devices.find((d) => d.entity_cuid === settings.entity_cuid);
  const p = device?.parameters.find((x) => x.parameter_id === settings.parameter_id);
  if (!device || !p) return <NotAvailable />;
  return (
    <Box>
      <Figure value={p.text ?? formatValue(p.value, locale)} unit={p.text === null ? p.unit : null} />
      <Typography variant="caption" color="text.secondary">
        {device.name} · {localText(p, 'description', locale) ?? p.parameter_id}
      </Typography>
    </Box>
  );
}

function TimeseriesWidget({ settings, range }: { settings: Settings<'timeseries'>; range: DateRange }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const latest = useLatest(settings.system_cuid);
  const [width, setWidth] = useState(0);
  const [zoom, setZoom] = useState<{ from: number; to: number } | null>(null);
  const shown = zoom ?? { from: range.from.getTime(), to: range.to.getTime() };
  const points = Math.max(50, Math.min(1000, Math.round(width / 2)));
  const byDevice = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const s of settings.series) m.set(s.entity_cuid, [...(m.get(s.entity_cuid) ?? []), s.parameter_id]);
    return [...m.entries()];
  }, [settings.series]);
  const series = useWidgetSeries({ system_cuid: settings.system_cuid, byDevice, from: shown.from, to: shown.to, points, enabled: width > 0 });
  const labels = useMemo(() => ({ avg: 'avg', min: 'min', max: 'max', time: translate('portal.dashboards.from') }), [translate]);
  const onZoom = useCallback((from: number, to: number) => setZoom({ from, to }), []);
  const onWidth = useCallback((w: number) => setWidth(Math.round(w / 10) * 10), []);
  if (latest.isError) return <Failed error={latest.error} />;
  if (series.isError) return <Failed error={series.error} />;
  const devices = latest.data?.devices ?? [];
  // One key per (device, parameter): two devices may log the same parameter.
  const parameters = settings.series.map((s) => {
    const d = devices.find((x) => x.entity_cuid === s.entity_cuid);
    const p = d?.parameters.find((x) => x.parameter_id === s.parameter_id);
    return {
      parameter_id: `${s.entity_cuid}:${s.parameter_id}`,
      label: `${d?.name ?? ''} ${(p && localText(p, 'description', locale)) ?? s.parameter_id}`.trim(),
      unit: p?.unit ?? null,
    };
  });
  const chartSeries = (series.data ?? []).flatMap((answer) =>
    answer.series.map((s) => ({ parameter_id: `${answer.entity_cuid}:${s.parameter_id}`, points: s.points })),
  );
  const count = chartSeries.reduce((n, s) => n + s.points.length, 0);
  return (
    <Box data-testid="widget-timeseries" data-points={count} sx={{ position: 'relative' }}>
      <Suspense fallback={<Loading />}>
        <SystemChart
          parameters={parameters}
          series={chartSeries}
          from={shown.from}
          to={shown.to}
          timeZone={latest.data?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone}
          locale={locale}
          labels={labels}
          onZoom={onZoom}
          onWidth={onWidth}
        />
      </Suspense>
      {series.data && count === 0 && (
        <Typography color="text.secondary" variant="body2">
          {translate('portal.dashboards.no_data')}
        </Typography>
      )}
    </Box>
  );
}

function EnergyWidget({ settings, range }: { settings: Settings<'energy'>; range: DateRange }) {
  return <EnergyBars system_cuid={settings.system_cuid} granularity={settings.granularity} from={range.from} to={range.to} height={180} />;
}

function FleetStatusWidget() {
  const translate = useTranslate();
  const overview = useOverview();
  if (overview.isPending) return <Loading />;
  if (overview.isError) return <Failed error={overview.error} />;
  const c = overview.data.counts;
  const rows: [string, number, string][] = [
    ['systems', c.systems, '#455a64'],
    ['online', c.online, '#2e7d32'],
    ['unstable', c.unstable, '#ed6c02'],
    ['offline', c.offline, '#757575'],
    ['in_alarm', c.in_alarm, '#c62828'],
  ];
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} data-testid="widget-fleet-status">
      {rows.map(([key, n, colour]) => (
        <Chip
          key={key}
          label={`${translate(`portal.dashboards.status.${key}`)}: ${n}`}
          sx={{ bgcolor: colour, color: '#fff', fontWeight: 500 }}
          data-status={key}
          data-count={n}
        />
      ))}
    </Box>
  );
}

function AlarmsWidget() {
  const translate = useTranslate();
  const overview = useOverview();
  if (overview.isPending) return <Loading />;
  if (overview.isError) return <Failed error={overview.error} />;
  const alarms = overview.data.alarms;
  if (!alarms) return <NotAvailable />;
  if (alarms.length === 0) return <Typography color="text.secondary">{translate('portal.dashboards.no_alarms')}</Typography>;
  return (
    <List dense disablePadding data-testid="widget-alarms">
      {alarms.map((a) => (
        <ListItem key={`${a.trigger_cuid}:${a.system_cuid}`} disableGutters>
          <ListItemText
            primary={
              <SystemPrefetch id={a.system_cuid}>
                {(ref) => (
                  <RouterLink ref={ref} to={`/systems/${encodeURIComponent(a.system_cuid)}/alarms`}>
                    {a.system_name}: {a.name}
                  </RouterLink>
                )}
              </SystemPrefetch>
            }
            secondary={a.severity_level}
          />
        </ListItem>
      ))}
    </List>
  );
}

function MapWidget() {
  const overview = useOverview();
  if (overview.isPending) return <Loading />;
  if (overview.isError) return <Failed error={overview.error} />;
  if (!overview.data.pins) return <NotAvailable />;
  return <SiteMap pins={overview.data.pins} height="100%" />;
}

function LatestWidget({ settings }: { settings: Settings<'latest'> }) {
  const [locale] = useLocaleState();
  const latest = useLatest(settings.system_cuid);
  if (latest.isPending) return <Loading />;
  if (latest.isError) return <Failed error={latest.error} />;
  const device = latest.data.devices.find((d) => d.entity_cuid === settings.entity_cuid);
  if (!device) return <NotAvailable />;
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 1, rowGap: 0.5 }} data-testid="widget-latest">
      {device.parameters.map((p) => (
        <Box key={p.parameter_id} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {localText(p, 'description', locale) ?? p.parameter_id}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600, textAlign: 'right' }}>
            {p.text ?? formatValue(p.value, locale)}
            {p.value !== null && p.text === null && p.unit ? ` ${p.unit}` : ''}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
