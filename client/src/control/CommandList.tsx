import { formatDateTime } from '../i18n/format';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatLocale } from '../i18n/locale';
import { messageOf } from '../trpc';
import { statusColour, useControllerCommands } from './api';
import { kindLabel } from './useCommandRunner';
import { ownEntry } from '../../../shared/common/own-entry';

function When({ at, locale }: { at: Date | null; locale: string }) {
  if (!at) return <>—</>;
  const date = new Date(at);
  return <time dateTime={date.toISOString()}>{formatDateTime(date, locale, { seconds: true })}</time>;
}

/**
 * A controller's commands, newest first (controllerCommand.getList filtered by controller_id):
 * kind, status, requester, times and the controller's message. Refreshes when one of them changes:
 * the live event of a command's new status invalidates the list through the query client
 * (toasts/live-events.ts), and so does sending one (useCommandRunner).
 */
export function CommandList({ controllerId, labels = {} }: { controllerId: string; labels?: Record<string, string> }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, total, isPending, error } = useControllerCommands(controllerId);
  if (isPending) return <Typography variant="body2">{translate('ra.page.loading')}</Typography>;
  if (error) return <Alert severity="error">{translate('portal.control.load_failed', { message: messageOf(error) })}</Alert>;
  if (!data?.length)
    return (
      <Typography variant="body2" data-testid="commands-empty">
        {translate('portal.control.commands.none')}
      </Typography>
    );
  const loc = formatLocale(locale ?? 'en');
  return (
    <>
      <Table size="small" aria-label={translate('portal.control.commands.title')} data-testid="command-list">
        <TableHead>
          <TableRow>
            <TableCell>{translate('portal.control.commands.kind')}</TableCell>
            <TableCell>{translate('portal.control.commands.status')}</TableCell>
            <TableCell>{translate('portal.control.commands.requester')}</TableCell>
            <TableCell>{translate('portal.control.commands.requested_at')}</TableCell>
            <TableCell>{translate('portal.control.commands.finished_at')}</TableCell>
            <TableCell>{translate('portal.control.commands.message')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.map((c) => (
            <TableRow key={c.id} data-testid="command-row" data-command-id={c.command_id} data-kind={c.kind} data-status={c.status}>
              <TableCell>
                {kindLabel(c.kind, translate, ownEntry(labels, c.kind))}
                {c.dangerous && <Chip size="small" variant="outlined" color="warning" sx={{ ml: 1 }} label={translate('portal.control.dangerous')} />}
              </TableCell>
              <TableCell>
                <Chip size="small" color={statusColour(c.status)} label={translate(`portal.control.status.${c.status}`)} data-testid="command-status" />
              </TableCell>
              <TableCell>{c.requester_name ?? '—'}</TableCell>
              <TableCell>
                <When at={c.requested_at} locale={loc} />
              </TableCell>
              <TableCell>
                <When at={c.finished_at} locale={loc} />
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>{c.message ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {(total ?? 0) > data.length && (
        <Typography variant="caption" color="text.secondary">
          {translate('portal.control.commands.more', { shown: data.length, total })}
        </Typography>
      )}
    </>
  );
}
