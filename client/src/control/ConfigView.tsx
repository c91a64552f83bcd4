import { formatDateTime } from '../i18n/format';
import { useFormat } from '../i18n/useFormat';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useCanAccess, useNotify, useTranslate } from 'react-admin';
import { messageOf } from '../trpc';
import { configQueryKey, configurationTabOf, newCommandId, useApplyControllerConfig, useControllerConfig, type TConfigTarget } from './api';
import { configRows, showValue, type ConfigRow } from './diff';
import { useCommandRunner } from './useCommandRunner';

const CHANGE_COLOURS: Record<ConfigRow['change'], string | undefined> = {
  added: 'success.light',
  removed: 'error.light',
  changed: 'warning.light',
  same: undefined,
};

/** "reported 3 min ago" / "never reported". */
export function ReportedAgo({ at }: { at: Date | null }) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  if (!at) return <span data-testid="reported-ago">{translate('portal.control.config.never_reported')}</span>;
  const minutes = Math.max(0, Math.floor((now - new Date(at).getTime()) / 60_000));
  return (
    <time dateTime={new Date(at).toISOString()} title={formatDateTime(at, locale)} data-testid="reported-ago">
      {minutes < 1 ? translate('portal.control.config.reported_now') : translate('portal.control.config.reported_ago', { smart_count: minutes })}
    </time>
  );
}

/** The desired against the reported configuration of one target, the differences highlighted. */
export function ConfigTable({ target }: { target: TConfigTarget }) {
  const translate = useTranslate();
  const rows = configRows(target.desired, target.reported);
  if (rows.length === 0) return <Typography variant="body2">{translate('portal.control.config.empty')}</Typography>;
  return (
    <Table size="small" aria-label={translate('portal.control.config.table_label', { name: target.name })}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('portal.control.config.key')}</TableCell>
          <TableCell>{translate('portal.control.config.desired')}</TableCell>
          <TableCell>{translate('portal.control.config.reported')}</TableCell>
          <TableCell>{translate('portal.control.config.change')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow
            key={row.path}
            data-testid="config-row"
            data-path={row.path}
            data-change={row.change}
            sx={{ bgcolor: CHANGE_COLOURS[row.change], '& td': { wordBreak: 'break-word' } }}
          >
            <TableCell component="th" scope="row">
              <code>{row.path}</code>
            </TableCell>
            <TableCell>{row.change === 'removed' ? '—' : <code>{showValue(row.desired)}</code>}</TableCell>
            <TableCell>{row.change === 'added' ? '—' : <code>{showValue(row.reported)}</code>}</TableCell>
            <TableCell>{row.change === 'same' ? '' : translate(`portal.control.config.changes.${row.change}`)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * Configuration of a controller: per target (the controller, each device / data processor) the
 * desired and the reported configuration side by side, with "Apply" (all differences or one
 * target: controllerConfig.apply). `only` shows one target (a device's page), `readOnly` no button.
 */
export function ConfigView({ controllerId, only, readOnly = false }: { controllerId: string; only?: string; readOnly?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { canAccess: mayApply } = useCanAccess({ resource: 'controllerConfig', action: 'applyDifference' });
  const { run, dialog } = useCommandRunner();
  const query = useControllerConfig(controllerId);
  const applyConfig = useApplyControllerConfig();
  // One id per apply request (its retries and its step-up reuse it); a new one once it was taken.
  const pendingId = useRef<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);

  // The configuration changes when an apply_config of this controller is answered: the live event
  // invalidates it through the query client (toasts/live-events.ts).

  if (query.isPending) return <Typography variant="body2">{translate('ra.page.loading')}</Typography>;
  if (query.isError) return <Alert severity="error">{translate('portal.control.load_failed', { message: messageOf(query.error) })}</Alert>;
  const config = query.data;
  const targets = only ? config.targets.filter((t) => t.key === only) : config.targets;

  const apply = async (scope: string, onlyKeys?: string[]) => {
    const id = (pendingId.current[scope] ??= newCommandId());
    setBusy(scope);
    try {
      const record = await run(() => applyConfig.mutateAsync({ controller_id: controllerId, id, ...(onlyKeys ? { only: onlyKeys } : {}) }));
      if (record) delete pendingId.current[scope];
      await queryClient.invalidateQueries({ queryKey: configQueryKey(controllerId) });
      await queryClient.invalidateQueries({ queryKey: ['controllerCommand'] });
    } catch (error) {
      notify('portal.control.apply_failed', { type: 'error', messageArgs: { message: messageOf(error) } });
    } finally {
      setBusy(null);
    }
  };

  const applyReason = (differs: boolean, allowed: boolean) =>
    !mayApply || !allowed ? translate('portal.control.config.not_allowed') : !differs ? translate('portal.control.config.in_sync') : undefined;
  const allReason = applyReason(
    !config.in_sync,
    config.targets.some((t) => t.may_apply),
  );

  return (
    <Stack spacing={2} data-testid="config-view" data-in-sync={config.in_sync}>
      {!readOnly && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Chip
            data-testid="config-sync"
            color={config.in_sync ? 'success' : 'warning'}
            label={translate(config.in_sync ? 'portal.control.config.all_in_sync' : 'portal.control.config.out_of_sync')}
          />
          <Button variant="contained" disabled={Boolean(allReason) || busy !== null} onClick={() => void apply('*')} data-testid="config-apply-all">
            {translate('portal.control.config.apply_all')}
          </Button>
          {allReason && (
            <Typography variant="body2" color="text.secondary" data-testid="config-apply-all-reason">
              {allReason}
            </Typography>
          )}
        </Box>
      )}
      {readOnly && (
        <Box>
          <Link to={configurationTabOf(controllerId)} data-testid="config-controller-link">
            {translate('portal.control.config.open_controller')}
          </Link>
        </Box>
      )}
      {targets.map((target) => {
        const reason = applyReason(target.difference !== null, target.may_apply);
        return (
          <Card
            key={`${target.target}:${target.key}`}
            variant="outlined"
            data-testid="config-target"
            data-key={target.key}
            data-differs={target.difference !== null}
          >
            <CardHeader
              title={target.name}
              titleTypographyProps={{ variant: 'subtitle1', component: 'h3' }}
              subheader={
                <>
                  {translate(
                    target.target === 'controller'
                      ? 'portal.control.config.target_controller'
                      : target.processor
                        ? 'portal.control.config.target_processor'
                        : 'portal.control.config.target_device',
                  )}
                  {' · '}
                  <ReportedAgo at={target.reported_at} />
                  {' · '}
                  {translate(target.difference === null ? 'portal.control.config.in_sync_short' : 'portal.control.config.differs')}
                </>
              }
              action={
                readOnly ? undefined : (
                  <Stack alignItems="flex-end">
                    <Button
                      size="small"
                      disabled={Boolean(reason) || busy !== null}
                      onClick={() => void apply(target.key, [target.key])}
                      data-testid="config-apply"
                    >
                      {translate('portal.control.config.apply_one')}
                    </Button>
                    {reason && (
                      <Typography variant="caption" color="text.secondary">
                        {reason}
                      </Typography>
                    )}
                  </Stack>
                )
              }
            />
            <CardContent sx={{ pt: 0 }}>
              <ConfigTable target={target} />
            </CardContent>
          </Card>
        );
      })}
      {targets.length === 0 && <Typography variant="body2">{translate('portal.control.config.no_target')}</Typography>}
      {dialog}
    </Stack>
  );
}
