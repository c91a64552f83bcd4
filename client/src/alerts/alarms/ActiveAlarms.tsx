import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import { Alert, Box, CircularProgress, Link, Table, TableBody, TableCell, TableHead, TableRow, TableSortLabel, Tooltip, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import { NOTIFICATION_SEVERITIES } from '../../../../shared/common/enums';
import { SeverityChip } from '../setup/severity';
import { messageOf } from '../../trpc';
import { AlarmRowMenu } from './AlarmRowMenu';
import { formatDeviceTime, showValue, useActiveAlarms, type ActiveAlarm } from './api';
import { SystemPrefetch } from '../../systems/prefetch';

/** Read by screen readers, not shown. In `sx` a size of 1 means 100 %: with 1 the hidden text was as wide as the screen (a phone scrolled sideways). */
export const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
type SortField = 'severity' | 'since';

const rank = (s: string) => NOTIFICATION_SEVERITIES.indexOf(s as (typeof NOTIFICATION_SEVERITIES)[number]);

export function sortAlarms(rows: readonly ActiveAlarm[], field: SortField, order: 'asc' | 'desc'): ActiveAlarm[] {
  const sign = order === 'asc' ? 1 : -1;
  const since = (a: ActiveAlarm) => (a.since ? new Date(a.since).getTime() : 0);
  return [...rows].sort((a, b) =>
    field === 'severity'
      ? sign * (rank(a.severity_level) - rank(b.severity_level)) || since(b) - since(a)
      : sign * (since(a) - since(b)) || rank(b.severity_level) - rank(a.severity_level),
  );
}

/** Triggers now TRIGGERED: of one system (its Alarms tab) or of every system the user sees (the fleet screen). */
export function ActiveAlarmsTable({ system_cuid }: { system_cuid?: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [sort, setSort] = useState<{ field: SortField; order: 'asc' | 'desc' }>({ field: 'severity', order: 'desc' });
  const query = useActiveAlarms(system_cuid);
  const rows = useMemo(() => sortAlarms(query.data ?? [], sort.field, sort.order), [query.data, sort]);
  const sortBy = (field: SortField) => setSort((s) => ({ field, order: s.field === field && s.order === 'desc' ? 'asc' : 'desc' }));

  if (query.isPending) return <CircularProgress size={20} aria-label={translate('portal.app.loading')} />;
  if (query.isError) return <Alert severity="error">{translate('portal.alarms.load_failed', { message: messageOf(query.error) })}</Alert>;
  if (!rows.length)
    return (
      <Typography color="text.secondary" data-testid="active-alarms-empty" sx={{ py: 2 }}>
        {translate('portal.alarms.none_active')}
      </Typography>
    );
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" data-testid="active-alarms" aria-label={translate('portal.alarms.active_title')}>
        <TableHead>
          <TableRow>
            <TableCell sortDirection={sort.field === 'severity' ? sort.order : false}>
              <TableSortLabel
                active={sort.field === 'severity'}
                direction={sort.field === 'severity' ? sort.order : 'desc'}
                onClick={() => sortBy('severity')}
                data-testid="sort-severity"
              >
                {translate('portal.alarms.col.severity')}
              </TableSortLabel>
            </TableCell>
            <TableCell>{translate('portal.alarms.col.trigger')}</TableCell>
            {!system_cuid && <TableCell>{translate('portal.alarms.col.system')}</TableCell>}
            <TableCell>{translate('portal.alarms.col.message')}</TableCell>
            <TableCell sortDirection={sort.field === 'since' ? sort.order : false}>
              <TableSortLabel
                active={sort.field === 'since'}
                direction={sort.field === 'since' ? sort.order : 'desc'}
                onClick={() => sortBy('since')}
                data-testid="sort-since"
              >
                {translate('portal.alarms.col.since')}
              </TableSortLabel>
            </TableCell>
            <TableCell>{translate('portal.alarms.col.last_value')}</TableCell>
            <TableCell>{translate('portal.alarms.col.state')}</TableCell>
            <TableCell align="right">
              <Box component="span" sx={VISUALLY_HIDDEN}>
                {translate('portal.alarms.col.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((a) => (
            <TableRow
              key={a.trigger_cuid}
              data-testid="active-alarm"
              data-trigger={a.trigger_cuid}
              data-severity={a.severity_level}
              data-muted={a.muted || undefined}
            >
              <TableCell>
                <SeverityChip severity={a.severity_level} />
              </TableCell>
              <TableCell>{a.trigger_name}</TableCell>
              {!system_cuid && (
                <TableCell>
                  <SystemPrefetch id={a.system_cuid}>
                    {(ref) => (
                      <Link ref={ref} component={RouterLink} to={`/systems/${encodeURIComponent(a.system_cuid)}/alarms`}>
                        {a.system_name}
                      </Link>
                    )}
                  </SystemPrefetch>
                </TableCell>
              )}
              <TableCell sx={{ maxWidth: 420 }}>{a.message}</TableCell>
              <TableCell>
                <time dateTime={a.since ? new Date(a.since).toISOString() : undefined}>{formatDeviceTime(a.since, a.timezone, locale ?? 'en')}</time>
              </TableCell>
              <TableCell>{showValue(a.last_value)}</TableCell>
              <TableCell>
                {a.muted && (
                  <Tooltip
                    title={
                      a.muted_until
                        ? translate('portal.alarms.muted_until', {
                            until: formatDeviceTime(a.muted_until, Intl.DateTimeFormat().resolvedOptions().timeZone, locale ?? 'en'),
                          })
                        : translate('portal.alarms.muted_forever')
                    }
                  >
                    <NotificationsOffIcon fontSize="small" aria-label={translate('portal.alarms.muted_label')} data-testid="alarm-muted" />
                  </Tooltip>
                )}
                {a.acknowledged && (
                  <Typography component="span" variant="caption" sx={{ ml: 1 }} data-testid="alarm-acknowledged">
                    {translate('portal.alarms.acknowledged_short')}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">
                <AlarmRowMenu alarm={a} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
