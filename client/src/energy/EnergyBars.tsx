import { Alert, Box, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { messageOf } from '../trpc';
import { useEnergy } from './api';
import { barLayout, formatKwh, periodLabel } from './format';

/**
 * PV energy as bars with a total: one system (`system_cuid`, telemetry.energy) or the caller's whole
 * fleet (fleet.energy), per day or per month, over a range. Plain SVG bars (one <rect> per period,
 * each with its value as a <title>) and a visually hidden table with every value for screen readers.
 */
export interface EnergyBarsProps {
  /** One system; absent → the fleet (optionally one company's). */
  system_cuid?: string;
  company_cuid?: string;
  granularity: 'day' | 'month';
  from: Date;
  to: Date;
  height?: number;
}

/** In `sx` a size of 1 means 100 %, hence the pixels spelled out. */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export default function EnergyBars(props: EnergyBarsProps) {
  const { system_cuid, company_cuid, granularity, from, to } = props;
  const height = props.height ?? 220;
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const energy = useEnergy({ system_cuid, company_cuid, granularity, from, to });

  if (energy.isError && !energy.data) {
    return (
      <Alert severity="error" data-testid="energy-bars-error">
        {translate('portal.energy.load_failed', { message: messageOf(energy.error) })}
      </Alert>
    );
  }
  const periods = energy.data?.periods ?? [];
  const total = energy.data?.total_kwh ?? 0;
  const chartHeight = Math.max(60, height - 48);
  const layout = barLayout(
    periods.map((p) => p.kwh),
    chartHeight,
  );
  const caption = translate(granularity === 'day' ? 'portal.energy.caption_day' : 'portal.energy.caption_month');

  return (
    <Box
      data-testid="energy-bars"
      data-granularity={granularity}
      data-total={total}
      data-periods={periods.length}
      data-loading={energy.isFetching ? 'true' : 'false'}
      sx={{ position: 'relative', minHeight: height }}
    >
      <Typography variant="body2" sx={{ mb: 0.5 }} data-testid="energy-total">
        {translate('portal.energy.total', { kwh: formatKwh(total, locale) })}
      </Typography>
      {energy.isPending ? (
        <Box sx={{ height: chartHeight }} />
      ) : periods.length === 0 || periods.every((p) => p.kwh === null) ? (
        <Typography color="text.secondary" sx={{ height: chartHeight }} data-testid="energy-empty">
          {translate('portal.energy.empty')}
        </Typography>
      ) : (
        <svg
          width="100%"
          height={chartHeight}
          viewBox={`0 0 ${Math.max(1, periods.length) * 10} ${chartHeight}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`${caption}: ${translate('portal.energy.total', { kwh: formatKwh(total, locale) })}`}
        >
          {layout.map((b, i) => (
            <rect
              key={periods[i].label}
              x={i * 10 + 1}
              width={8}
              y={chartHeight - b}
              height={b}
              fill={periods[i].kwh === null ? 'transparent' : '#f9a825'}
              data-testid="energy-bar"
              data-kwh={periods[i].kwh ?? ''}
            >
              <title>{`${periodLabel(periods[i].label, granularity, locale)}: ${periods[i].kwh === null ? '—' : formatKwh(periods[i].kwh, locale)}`}</title>
            </rect>
          ))}
        </svg>
      )}
      {periods.length > 0 && (
        <Box sx={{ display: 'flex', justifyContent: 'space-between' }} aria-hidden="true">
          <Typography variant="caption" color="text.secondary">
            {periodLabel(periods[0].label, granularity, locale)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {periodLabel(periods[periods.length - 1].label, granularity, locale)}
          </Typography>
        </Box>
      )}
      <Box component="table" sx={visuallyHidden} data-testid="energy-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{translate(granularity === 'day' ? 'portal.energy.day' : 'portal.energy.month')}</th>
            <th scope="col">kWh</th>
          </tr>
        </thead>
        <tbody>
          {periods.map((p) => (
            <tr key={p.label}>
              <th scope="row">{periodLabel(p.label, granularity, locale)}</th>
              <td>{p.kwh === null ? '—' : formatKwh(p.kwh, locale)}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
