import { formatDateTime, formatNumber } from '../i18n/format';
import { Chip, Link, Typography } from '@mui/material';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import { formatKwh } from '../energy/format';
import { STATE_COLOURS, STATE_ORDER } from '../map/pins';
import { ageLabel } from './chart-time';
import { useSystemPrefetch } from './prefetch';
import { hasOwnEntry, ownEntry } from '../../../shared/common/own-entry';
import { useNow } from '../kit/useNow';

/** The state columns of the systems and controllers lists (issue 13 "Lists that tell the state"). */

type State = (typeof STATE_ORDER)[number];

export const STATE_CHOICES = STATE_ORDER.map((id) => ({ id, name: `portal.fleet_state.${id}` }));
export const OFFLINE_FOR_CHOICES = [
  { id: 1, name: 'portal.lists.offline_1h' },
  { id: 24, name: 'portal.lists.offline_1d' },
  { id: 168, name: 'portal.lists.offline_7d' },
];

/** The system's name as a real link to its monitoring page (the row's keyboard way in). */
export function SystemNameLink() {
  const record = useRecordContext<{ id: string; name: string }>();
  const translate = useTranslate();
  const prefetch = useSystemPrefetch<HTMLAnchorElement>(record ? String(record.id) : undefined);
  if (!record) return null;
  return (
    <Link
      ref={prefetch}
      component={RouterLink}
      to={`/systems/${encodeURIComponent(String(record.id))}`}
      onClick={(e) => e.stopPropagation()}
      title={translate('portal.lists.open_system', { name: record.name })}
      data-testid="system-link"
    >
      {record.name}
    </Link>
  );
}

export function StateChip({ state }: { state: State }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={translate(`portal.fleet_state.${state}`)}
      data-testid="state-chip"
      data-state={state}
      sx={{ bgcolor: ownEntry(STATE_COLOURS, state), color: '#fff', fontWeight: 500 }}
    />
  );
}

export function StateField({ source = 'online_state' }: { source?: string }) {
  const record = useRecordContext<Record<string, unknown>>();
  const state = record?.[source] as State | undefined;
  return state && hasOwnEntry(STATE_COLOURS, state) ? <StateChip state={state} /> : null;
}

export function LastContactField({ source = 'last_contact' }: { source?: string }) {
  const record = useRecordContext<Record<string, unknown>>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const now = useNow();
  const raw = record?.[source] as Date | string | null | undefined;
  if (raw === undefined) return null;
  if (raw === null)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('portal.lists.never')}
      </Typography>
    );
  const t = new Date(raw).getTime();
  return (
    <Typography variant="body2" component="span" title={formatDateTime(t, locale)} data-testid="last-contact">
      {ageLabel(t, Math.max(now, t), locale)}
    </Typography>
  );
}

export function ActiveAlarmsField() {
  const record = useRecordContext<{ active_alarms?: number }>();
  if (record?.active_alarms === undefined) return null;
  return record.active_alarms > 0 ? (
    <Chip size="small" color="error" label={record.active_alarms} data-testid="active-alarms" />
  ) : (
    <span data-testid="active-alarms">0</span>
  );
}

export function SocField() {
  const record = useRecordContext<{ soc?: number | null }>();
  const [locale] = useLocaleState();
  if (record?.soc === undefined || record.soc === null) return null;
  return <span data-testid="soc">{formatNumber(record.soc, locale, { maximumFractionDigits: 0 })} %</span>;
}

export function EnergyTodayField() {
  const record = useRecordContext<{ energy_today_kwh?: number | null }>();
  const [locale] = useLocaleState();
  if (record?.energy_today_kwh === undefined || record.energy_today_kwh === null) return null;
  return <span data-testid="energy-today">{formatKwh(record.energy_today_kwh, locale)}</span>;
}
