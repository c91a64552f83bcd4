import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { fullLabel } from '../systems/chart-time';
import { messageOf } from '../trpc';
import { type Device, type Status, systemStatusKey, useEndMute, useMuteDevice } from './api';

// The status view's muted devices: the list (with "End mute") and the dialog that mutes a device.

const HOUR = 3_600_000;
const PRESETS = { '1h': 1, '4h': 4, '8h': 8, '24h': 24 } as const;
type Preset = keyof typeof PRESETS | 'until';

export function MuteList({ systemCuid, mutes, timezone, canEnd }: { systemCuid: string; mutes: Status['mutes']; timezone: string; canEnd: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const client = useQueryClient();
  const end = useEndMute({
    onSuccess: async () => {
      notify('portal.status.end_done', { type: 'success' });
      await client.invalidateQueries({ queryKey: systemStatusKey(systemCuid) });
    },
    onError: (e) => notify(translate('portal.status.action_failed', { message: messageOf(e) }), { type: 'error' }),
  });
  if (mutes.length === 0) return <Alert severity="info">{translate('portal.status.no_mutes')}</Alert>;
  return (
    <Table size="small" data-testid="mute-list" aria-labelledby="status-mutes">
      <TableHead>
        <TableRow>
          <TableCell>{translate('portal.status.device')}</TableCell>
          <TableCell>{translate('portal.status.until')}</TableCell>
          <TableCell>{translate('portal.status.reason')}</TableCell>
          <TableCell>{translate('portal.status.muted_by')}</TableCell>
          {canEnd && <TableCell />}
        </TableRow>
      </TableHead>
      <TableBody>
        {mutes.map((m) => (
          <TableRow key={m.mute_cuid} data-testid="mute-row">
            <TableCell>{m.device_name}</TableCell>
            <TableCell>{fullLabel(new Date(m.until).getTime(), locale, timezone)}</TableCell>
            <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{m.reason ?? '—'}</TableCell>
            <TableCell>{m.created_by_name ?? '—'}</TableCell>
            {canEnd && (
              <TableCell align="right">
                <Button size="small" onClick={() => end.mutate(m.mute_cuid)} disabled={end.isPending} data-testid="end-mute">
                  {translate('portal.status.end_mute')}
                </Button>
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** `YYYY-MM-DDTHH:mm` of a time in the browser's zone (a datetime-local input's value). */
const localInput = (ms: number): string => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

export function MuteDialog({ device, systemCuid, onClose }: { device: Device; systemCuid: string; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const [preset, setPreset] = useState<Preset>('4h');
  const [untilText, setUntilText] = useState(() => localInput(Date.now() + 24 * HOUR));
  const [reason, setReason] = useState('');
  const mute = useMuteDevice({
    onSuccess: async () => {
      notify(translate('portal.status.mute_done', { name: device.name }), { type: 'success' });
      await client.invalidateQueries({ queryKey: systemStatusKey(systemCuid) });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const until = preset === 'until' ? new Date(untilText) : new Date(Date.now() + PRESETS[preset] * HOUR);
    mute.mutate({ entity_cuid: device.entity_cuid, until, reason: reason.trim() || null });
  };
  const badDate = preset === 'until' && Number.isNaN(new Date(untilText).getTime());
  return (
    <Dialog open onClose={onClose} aria-labelledby="mute-title" fullWidth maxWidth="xs">
      <form onSubmit={submit} data-testid="mute-dialog">
        <DialogTitle id="mute-title">{translate('portal.status.mute_title', { name: device.name })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('portal.status.mute_help')}
          </Typography>
          <RadioGroup value={preset} onChange={(e) => setPreset(e.target.value as Preset)} aria-labelledby="mute-title">
            {(['1h', '4h', '8h', '24h', 'until'] as const).map((p) => (
              <FormControlLabel key={p} value={p} control={<Radio size="small" />} label={translate(`portal.status.mute_for.${p}`)} data-testid={`mute-${p}`} />
            ))}
          </RadioGroup>
          {preset === 'until' && (
            <TextField
              type="datetime-local"
              label={translate('portal.status.mute_until')}
              value={untilText}
              onChange={(e) => setUntilText(e.target.value)}
              size="small"
              fullWidth
              sx={{ mt: 1 }}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'mute-until' } }}
            />
          )}
          <TextField
            label={translate('portal.status.mute_reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            size="small"
            fullWidth
            multiline
            sx={{ mt: 2 }}
            slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'mute-reason' } }}
          />
          {mute.isError && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {translate('portal.status.action_failed', { message: messageOf(mute.error) })}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('portal.status.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={mute.isPending || badDate} data-testid="mute-confirm">
            {translate('portal.status.mute_confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
