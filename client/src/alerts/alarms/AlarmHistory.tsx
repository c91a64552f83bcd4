import DownloadIcon from '@mui/icons-material/GetApp';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import { TablePagination } from '../../kit/TablePagination';
import { useState } from 'react';
import { downloadCSV, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { NOTIFICATION_SEVERITIES } from '../../../../shared/common/enums';
import { SeverityChip } from '../setup/severity';
import { messageOf } from '../../trpc';
import { formatDeviceTime, historyCsv, useAlarmHistory, useAlarmSystems, type HistoryFilter as Filter } from './api';

/** `datetime-local` text (the browser's time) ↔ Date. */
const fromLocalInput = (v: string): Date | undefined => (v ? new Date(v) : undefined);

/** Alarm history (state changes, device time): filters by system, severity and time range; CSV export of the filtered rows. */
export function AlarmHistoryTable({ system_cuid, pageSize = 25 }: { system_cuid?: string; pageSize?: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [filter, setFilter] = useState<Filter>(system_cuid ? { system_cuid } : {});
  const [fromText, setFromText] = useState('');
  const [toText, setToText] = useState('');
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(pageSize);
  const [busy, setBusy] = useState(false);
  const rangeError = filter.from && filter.to && filter.from >= filter.to ? translate('portal.alarms.range_error') : undefined;

  const systems = useAlarmSystems(!system_cuid);
  const history = useAlarmHistory(filter, page, perPage, !rangeError);
  const change = (next: Partial<Filter>) => {
    setPage(0);
    setFilter((f) => Object.fromEntries(Object.entries({ ...f, ...next }).filter(([, v]) => v !== undefined && v !== '')));
  };
  const exportCsv = async () => {
    setBusy(true);
    try {
      downloadCSV(await historyCsv(filter), 'alarm-history');
    } catch (error) {
      notify('portal.kit.export.failed', { type: 'error', messageArgs: { message: messageOf(error) } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box data-testid="alarm-history">
      <Stack direction="row" spacing={2} sx={{ mb: 1, flexWrap: 'wrap', alignItems: 'center' }} useFlexGap>
        {!system_cuid && (
          <FormControl size="small" sx={{ minWidth: 220 }}>
            <InputLabel id="alarm-history-system">{translate('portal.alarms.col.system')}</InputLabel>
            <Select
              labelId="alarm-history-system"
              label={translate('portal.alarms.col.system')}
              value={filter.system_cuid ?? ''}
              onChange={(e) => change({ system_cuid: e.target.value || undefined })}
              data-testid="history-system"
            >
              <MenuItem value="">{translate('portal.alarms.all')}</MenuItem>
              {(systems.data?.data ?? []).map((s) => (
                <MenuItem key={String(s.id)} value={String(s.id)}>
                  {String((s as { name?: unknown }).name ?? s.id)}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        )}
        <FormControl size="small" sx={{ minWidth: 160 }}>
          <InputLabel id="alarm-history-severity">{translate('portal.alarms.col.severity')}</InputLabel>
          <Select
            labelId="alarm-history-severity"
            label={translate('portal.alarms.col.severity')}
            value={filter.severity_level ?? ''}
            onChange={(e) => change({ severity_level: e.target.value || undefined })}
            data-testid="history-severity"
          >
            <MenuItem value="">{translate('portal.alarms.all')}</MenuItem>
            {NOTIFICATION_SEVERITIES.map((s) => (
              <MenuItem key={s} value={s}>
                <SeverityChip severity={s} />
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TextField
          size="small"
          type="datetime-local"
          label={translate('portal.alarms.from')}
          value={fromText}
          onChange={(e) => {
            setFromText(e.target.value);
            change({ from: fromLocalInput(e.target.value) });
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'history-from' } }}
        />
        <TextField
          size="small"
          type="datetime-local"
          label={translate('portal.alarms.to')}
          value={toText}
          error={!!rangeError}
          helperText={rangeError}
          onChange={(e) => {
            setToText(e.target.value);
            change({ to: fromLocalInput(e.target.value) });
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'history-to' } }}
        />
        <Button startIcon={<DownloadIcon />} onClick={exportCsv} disabled={busy || !!rangeError || history.data?.total === 0} data-testid="history-export">
          {translate('portal.alarms.export_csv')}
        </Button>
      </Stack>
      {history.isError && <Alert severity="error">{translate('portal.alarms.load_failed', { message: messageOf(history.error) })}</Alert>}
      {history.isPending && !rangeError ? (
        <CircularProgress size={20} aria-label={translate('portal.app.loading')} />
      ) : (
        <>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={translate('portal.alarms.history_title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('portal.alarms.col.time')}</TableCell>
                  <TableCell>{translate('portal.alarms.col.state')}</TableCell>
                  <TableCell>{translate('portal.alarms.col.severity')}</TableCell>
                  {!system_cuid && <TableCell>{translate('portal.alarms.col.system')}</TableCell>}
                  <TableCell>{translate('portal.alarms.col.trigger')}</TableCell>
                  <TableCell>{translate('portal.alarms.col.message')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(history.data?.data ?? []).map((r) => (
                  <TableRow key={r.id} data-testid="history-row" data-state={r.state} data-trigger={r.trigger_cuid}>
                    <TableCell>
                      <time dateTime={new Date(r.timestamp).toISOString()}>{formatDeviceTime(r.timestamp, r.timezone, locale ?? 'en')}</time>
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        variant="outlined"
                        color={r.state === 'TRIGGERED' ? 'error' : 'success'}
                        label={translate(`portal.alarms.state.${r.state}`)}
                      />
                    </TableCell>
                    <TableCell>
                      <SeverityChip severity={r.severity_level} />
                    </TableCell>
                    {!system_cuid && <TableCell>{r.system_name}</TableCell>}
                    <TableCell>{r.trigger_name}</TableCell>
                    <TableCell sx={{ maxWidth: 420 }}>{r.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
          <TablePagination
            component="div"
            count={history.data?.total ?? 0}
            page={page}
            onPageChange={(_, p) => setPage(p)}
            rowsPerPage={perPage}
            onRowsPerPageChange={(e) => {
              setPerPage(Number(e.target.value));
              setPage(0);
            }}
            rowsPerPageOptions={[10, 25, 50, 100]}
          />
        </>
      )}
    </Box>
  );
}
