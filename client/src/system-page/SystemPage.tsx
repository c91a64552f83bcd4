import { localText } from '../i18n/localText';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Tab,
  Tabs,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { Title, useCanAccess, useLocaleState, useTranslate } from 'react-admin';
import { usePageTitle } from '../theme/brand';
import { httpStatusOf, messageOf } from '../trpc';
import { type Device, type Latest, useMySystemDashboards, useSystemLatest, useSystemSeries } from './api';
import { fullLabel, pointsForWidth, presetRange, RANGE_PRESETS, type RangePreset, type TimeRange } from '../systems/chart-time';
import type { ChartParameter } from '../systems/SystemChart';
// Energy, site and settings link (issue 13).
import { EnergyCard, SiteCard } from '../systems/SystemHome';
import { Header, LatestValues } from './LatestValues';

// uPlot comes with the chart, in its own chunk: the page's header and cards do not wait for it.
const SystemChart = lazy(() => import('../systems/SystemChart'));
const SystemChangelog = lazy(() => import('./SystemChangelog'));
const SystemAlarms = lazy(() => import('../alerts/alarms/SystemAlarms'));
const SystemStatus = lazy(() => import('../status/SystemStatus'));
const SystemDashboard = lazy(() => import('../dashboards/SystemDashboard'));

/** /systems/:id (and /systems/:id/changelog): header, latest values per device, charts. */
export default function SystemPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const translate = useTranslate();
  const tab = location.pathname.endsWith('/changelog')
    ? 'changelog'
    : location.pathname.endsWith('/alarms')
      ? 'alarms'
      : location.pathname.endsWith('/status')
        ? 'status'
        : location.pathname.endsWith('/dashboard')
          ? 'dashboard'
          : 'overview';
  // The status view (spec §6: system status view 2).
  const { canAccess: canSeeStatus } = useCanAccess({ resource: 'systemStatus', action: 'show' });
  // The system's own dashboards made for the user (issue 13 §2).
  const dashboards = useMySystemDashboards(id);
  const hasDashboard = (dashboards.data?.length ?? 0) > 0;

  const latest = useSystemLatest(id);
  usePageTitle(latest.data?.name ?? translate('portal.system.list_title'));

  if (latest.isPending) {
    return (
      <Box sx={{ p: 3 }} role="status">
        <CircularProgress size={24} aria-label={translate('portal.app.loading')} />
      </Box>
    );
  }
  // A failed refetch keeps what was loaded on screen (the offline banner says why it is old).
  if (latest.isError && !latest.data) {
    const status = httpStatusOf(latest.error);
    const notFound = status === 404 || status === 403;
    return (
      <Box sx={{ p: 3 }} data-testid={notFound ? 'system-not-found' : 'system-error'}>
        <Title title="portal.system.list_title" />
        <Alert severity={notFound ? 'warning' : 'error'} sx={{ mb: 2 }}>
          {notFound ? translate('portal.system.not_found') : translate('portal.system.load_failed', { message: messageOf(latest.error) })}
        </Alert>
        <Button component={RouterLink} to="/system" variant="outlined">
          {translate('portal.system.back')}
        </Button>
      </Box>
    );
  }
  const data = latest.data;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="system-page" data-system={data.system_cuid}>
      <Title title={data.name} />
      <Header data={data} />
      <Tabs value={tab} sx={{ mb: 2 }} aria-label={data.name}>
        <Tab value="overview" label={translate('portal.system.tab_overview')} component={RouterLink} to={`/systems/${encodeURIComponent(id)}`} />
        <Tab value="changelog" label={translate('portal.system.tab_changelog')} component={RouterLink} to={`/systems/${encodeURIComponent(id)}/changelog`} />
        <Tab
          value="alarms"
          label={translate('portal.alarms.system_tab')}
          component={RouterLink}
          to={`/systems/${encodeURIComponent(id)}/alarms`}
          data-testid="tab-alarms"
        />
        {canSeeStatus && (
          <Tab
            value="status"
            label={translate('portal.status.tab')}
            component={RouterLink}
            to={`/systems/${encodeURIComponent(id)}/status`}
            data-testid="tab-status"
          />
        )}
        {hasDashboard && (
          <Tab
            value="dashboard"
            label={translate('portal.dashboards.system_tab')}
            component={RouterLink}
            to={`/systems/${encodeURIComponent(id)}/dashboard`}
            data-testid="tab-dashboard"
          />
        )}
      </Tabs>
      {tab === 'changelog' ? (
        <Suspense fallback={<CircularProgress size={24} />}>
          <SystemChangelog systemCuid={id} timezone={data.timezone} />
        </Suspense>
      ) : tab === 'alarms' ? (
        <Suspense fallback={<CircularProgress size={24} />}>
          <SystemAlarms systemCuid={id} />
        </Suspense>
      ) : tab === 'dashboard' && dashboards.data ? (
        <Suspense fallback={<CircularProgress size={24} />}>
          <SystemDashboard dashboards={dashboards.data} />
        </Suspense>
      ) : tab === 'status' && canSeeStatus ? (
        <Suspense fallback={<CircularProgress size={24} />}>
          <SystemStatus systemCuid={id} timezone={data.timezone} />
        </Suspense>
      ) : (
        <>
          <LatestValues data={data} />
          {/* Energy and site (issue 13) */}
          <Box sx={{ display: 'grid', gap: 2, mb: 3, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
            <EnergyCard systemCuid={data.system_cuid} timezone={data.timezone} />
            <SiteCard data={data} />
          </Box>
          <ChartPanel data={data} />
        </>
      )}
    </Box>
  );
}

function defaultParameters(device: Device | undefined): string[] {
  if (!device || device.parameters.length === 0) return [];
  return [(device.parameters.find((p) => p.value !== null) ?? device.parameters[0]).parameter_id];
}

function ChartPanel({ data }: { data: Latest }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const devices = data.devices.filter((d) => d.parameters.length > 0);
  const [deviceId, setDeviceId] = useState(() => (devices.find((d) => d.parameters.some((p) => p.value !== null)) ?? devices[0])?.entity_cuid ?? '');
  const device = devices.find((d) => d.entity_cuid === deviceId);
  const [parameterIds, setParameterIds] = useState<string[]>(() => defaultParameters(device));
  const [preset, setPreset] = useState<RangePreset>('24h');
  const [range, setRange] = useState<TimeRange>(() => presetRange('24h', Date.now()));
  const [zoom, setZoom] = useState<TimeRange | null>(null);
  const [width, setWidth] = useState(0);
  const shown = zoom ?? range;
  const points = pointsForWidth(width);

  const series = useSystemSeries({
    entity_cuid: deviceId,
    parameter_ids: parameterIds,
    from: shown.from,
    to: shown.to,
    points,
    timezone: data.timezone,
    enabled: deviceId !== '' && parameterIds.length > 0 && width > 0,
  });

  const chartParameters: ChartParameter[] = useMemo(
    () =>
      parameterIds.flatMap((pid) => {
        const p = device?.parameters.find((x) => x.parameter_id === pid);
        return p ? [{ parameter_id: pid, label: localText(p, 'description', locale) ?? pid, unit: p.unit }] : [];
      }),
    [device, parameterIds, locale],
  );
  const labels = useMemo(() => ({ avg: translate('portal.system.avg'), min: 'min', max: 'max', time: translate('portal.system.time') }), [translate]);
  const onZoom = useCallback((from: number, to: number) => setZoom({ from, to }), []);
  const onWidth = useCallback((w: number) => setWidth(Math.round(w / 10) * 10), []);

  // While a new range loads, the previous answer stays drawn (keepPreviousData).
  const answer = series.data;
  const chartSeries = useMemo(() => (answer ? answer.series.filter((s) => parameterIds.includes(s.parameter_id)) : []), [answer, parameterIds]);
  const pointCount = chartSeries.reduce((n, s) => n + s.points.length, 0);

  const choosePreset = (p: RangePreset) => {
    setPreset(p);
    setRange(presetRange(p, Date.now()));
    setZoom(null);
  };

  return (
    <Card component="section" variant="outlined" aria-labelledby="chart-heading" data-testid="chart-panel">
      <CardContent>
        <Typography id="chart-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
          {translate('portal.system.chart')}
        </Typography>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' }, flexWrap: 'wrap' }} useFlexGap>
          <FormControl size="small" sx={{ minWidth: 220 }}>
            <InputLabel id="chart-device-label">{translate('portal.system.device')}</InputLabel>
            <Select
              labelId="chart-device-label"
              label={translate('portal.system.device')}
              value={deviceId}
              data-testid="chart-device"
              onChange={(e) => {
                const next = String(e.target.value);
                setDeviceId(next);
                setParameterIds(defaultParameters(devices.find((d) => d.entity_cuid === next)));
                setZoom(null);
              }}
            >
              {devices.map((d) => (
                <MenuItem key={d.entity_cuid} value={d.entity_cuid}>
                  {d.name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <ToggleButtonGroup
            size="small"
            value={preset}
            exclusive
            aria-label={translate('portal.system.range')}
            onChange={(_e, v: RangePreset | null) => v && choosePreset(v)}
          >
            {RANGE_PRESETS.map((p) => (
              <ToggleButton key={p} value={p} data-testid={`range-${p}`} aria-pressed={preset === p && !zoom}>
                {translate(`portal.system.presets.${p}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Button size="small" variant="outlined" disabled={!zoom} onClick={() => setZoom(null)} data-testid="reset-zoom">
            {translate('portal.system.reset_zoom')}
          </Button>
        </Stack>
        {device && (
          <ToggleButtonGroup
            size="small"
            value={parameterIds}
            aria-label={translate('portal.system.parameters')}
            onChange={(_e, v: string[]) => {
              setParameterIds(v.slice(0, 12));
            }}
            sx={{ flexWrap: 'wrap', mb: 2 }}
          >
            {device.parameters.map((p) => (
              <ToggleButton key={p.parameter_id} value={p.parameter_id} data-testid={`chart-parameter-${p.parameter_id}`} sx={{ textTransform: 'none' }}>
                {localText(p, 'description', locale) ?? p.parameter_id}
                {p.unit ? ` (${p.unit})` : ''}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="chart-caption">
          {zoom
            ? translate('portal.system.zoomed', { from: fullLabel(zoom.from, locale, data.timezone), to: fullLabel(zoom.to, locale, data.timezone) })
            : `${fullLabel(range.from, locale, data.timezone)} – ${fullLabel(range.to, locale, data.timezone)}`}
          {' · '}
          {translate('portal.system.timezone_caption', { tz: data.timezone })}
          {' · '}
          {translate('portal.system.zoom_hint')}
        </Typography>
        {parameterIds.length === 0 ? (
          <Alert severity="info">{translate('portal.system.pick_parameter')}</Alert>
        ) : (
          <Box
            data-testid="system-chart"
            data-points={pointCount}
            data-series={chartSeries.length}
            data-requested-points={points}
            data-from={shown.from}
            data-to={shown.to}
            data-zoomed={zoom ? 'true' : 'false'}
            data-loading={series.isFetching ? 'true' : 'false'}
            data-resolution={answer?.resolution ?? ''}
            sx={{ position: 'relative', minHeight: 360 }}
          >
            {series.isError && <Alert severity="error">{translate('portal.system.chart_failed', { message: messageOf(series.error) })}</Alert>}
            <Suspense fallback={<Typography color="text.secondary">{translate('portal.system.chart_loading')}</Typography>}>
              <SystemChart
                parameters={chartParameters}
                series={chartSeries}
                from={shown.from}
                to={shown.to}
                timeZone={data.timezone}
                locale={locale}
                labels={labels}
                onZoom={onZoom}
                onWidth={onWidth}
              />
            </Suspense>
            {answer && pointCount === 0 && !series.isFetching && (
              <Typography color="text.secondary" data-testid="chart-empty" sx={{ position: 'absolute', top: 140, width: '100%', textAlign: 'center' }}>
                {translate('portal.system.chart_empty')}
              </Typography>
            )}
            <Typography variant="caption" color="text.secondary">
              {translate('portal.system.points', { smart_count: pointCount })}
              {answer ? ` · ${answer.resolution}` : ''}
            </Typography>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
