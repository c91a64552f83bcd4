import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useCanAccess, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { ActiveAlarmsTable } from '../alarms/ActiveAlarms';
import { ageLabel, fullLabel } from '../systems/chart-time';
import { messageOf, trpc } from '../trpc';

type Status = Awaited<ReturnType<typeof trpc.systemStatus.get.query>>;
type Device = Status['devices'][number];
type Controller = Status['controllers'][number];
type OnlineState = Controller['online_state'];

/** ONLINE green, UNSTABLE amber, OFFLINE red (the chip and the timeline). */
const STATE_COLOURS: Record<OnlineState, string> = { ONLINE: '#2e7d32', UNSTABLE: '#ed6c02', OFFLINE: '#c62828' };
const REFRESH_MS = 30_000;
const HOUR = 3_600_000;
const PRESETS = { '1h': 1, '4h': 4, '8h': 8, '24h': 24 } as const;
type Preset = keyof typeof PRESETS | 'until';

/**
 * The status view of a system (spec §6: view level 2): each device's latest state made readable
 * (fault and warning chips, "last reported"), each controller's online state with a 24 h timeline,
 * the active alarms, the muted devices; "Mute alarms" / "End mute" for level ≤ 1.
 */
export default function SystemStatus({ systemCuid, timezone }: { systemCuid: string; timezone: string }) {
  const translate = useTranslate();
  const { canAccess: canMute } = useCanAccess({ resource: 'deviceMute', action: 'create' });
  const status = useQuery({
    queryKey: ['systemStatus', systemCuid],
    queryFn: ({ signal }) => trpc.systemStatus.get.query({ system_cuid: systemCuid }, { signal }),
    refetchInterval: REFRESH_MS,
  });
  const [muting, setMuting] = useState<Device | null>(null);

  if (status.isPending) return <CircularProgress size={24} aria-label={translate('portal.app.loading')} />;
  if (status.isError) return <Alert severity="error">{translate('portal.status.load_failed', { message: messageOf(status.error) })}</Alert>;
  const data = status.data;
  return (
    <Stack spacing={3} data-testid="system-status">
      <section aria-labelledby="status-devices">
        <Typography id="status-devices" component="h2" variant="h6" sx={{ mb: 1 }}>
          {translate('portal.status.devices')}
        </Typography>
        {data.devices.length === 0 ? (
          <Alert severity="info">{translate('portal.status.no_devices')}</Alert>
        ) : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr', xl: '1fr 1fr 1fr' } }}>
            {data.devices.map((d) => (
              <DeviceCard key={d.entity_cuid} device={d} timezone={timezone} canMute={!!canMute} onMute={() => setMuting(d)} />
            ))}
          </Box>
        )}
      </section>
      <section aria-labelledby="status-controllers">
        <Typography id="status-controllers" component="h2" variant="h6" sx={{ mb: 1 }}>
          {translate('portal.status.controllers')}
        </Typography>
        {data.controllers.length === 0 ? (
          <Alert severity="info">{translate('portal.status.no_controllers')}</Alert>
        ) : (
          <Stack spacing={2}>
            {data.controllers.map((c) => (
              <ControllerCard key={c.controller_id} controller={c} from={new Date(data.from).getTime()} to={new Date(data.to).getTime()} timezone={timezone} />
            ))}
          </Stack>
        )}
      </section>
      <section aria-labelledby="status-alarms">
        <Typography id="status-alarms" component="h2" variant="h6" sx={{ mb: 1 }}>
          {translate('portal.status.alarms')}
        </Typography>
        <ActiveAlarmsTable system_cuid={systemCuid} />
      </section>
      <section aria-labelledby="status-mutes">
        <Typography id="status-mutes" component="h2" variant="h6" sx={{ mb: 1 }}>
          {translate('portal.status.mutes')}
        </Typography>
        <MuteList systemCuid={systemCuid} mutes={data.mutes} timezone={timezone} canEnd={!!canMute} />
      </section>
      {muting && <MuteDialog device={muting} systemCuid={systemCuid} onClose={() => setMuting(null)} />}
    </Stack>
  );
}

function DeviceCard({ device, timezone, canMute, onMute }: { device: Device; timezone: string; canMute: boolean; onMute: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const state = device.state;
  const issues = state ? state.faults.length + state.warnings.length : 0;
  return (
    <Card variant="outlined" data-testid="status-device" data-entity={device.entity_cuid}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', justifyContent: 'space-between', flexWrap: 'wrap' }}>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {device.name}
          </Typography>
          {device.model && (
            <Typography variant="caption" color="text.secondary">
              {device.model}
            </Typography>
          )}
        </Stack>
        {device.muted_until && (
          <Chip
            size="small"
            color="default"
            sx={{ mt: 0.5 }}
            data-testid="device-muted"
            label={translate('portal.status.muted_until', { until: fullLabel(new Date(device.muted_until).getTime(), locale, timezone) })}
          />
        )}
        {!state ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('portal.status.no_state')}
          </Typography>
        ) : (
          <>
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ display: 'block', mt: 0.5 }}
              title={fullLabel(new Date(state.timestamp).getTime(), locale, timezone)}
            >
              {translate('portal.status.last_reported', { age: ageLabel(new Date(state.timestamp).getTime(), Date.now(), locale) })}
            </Typography>
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.25, my: 1 }}>
              {state.values.map((v) => (
                <Box key={v.key} sx={{ display: 'contents' }} data-testid="state-value" data-key={v.key}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {v.label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: v.decoded ? 600 : undefined }}>
                    {v.text}
                  </Typography>
                </Box>
              ))}
            </Box>
            <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label={translate('portal.status.faults')}>
              {state.faults.map((f, i) => (
                <Chip
                  key={`f${i}`}
                  size="small"
                  color="error"
                  label={f.text}
                  aria-label={translate('portal.status.fault', { text: f.text })}
                  data-testid="fault-chip"
                />
              ))}
              {state.warnings.map((w, i) => (
                <Chip
                  key={`w${i}`}
                  size="small"
                  color="warning"
                  label={w.text}
                  aria-label={translate('portal.status.warning', { text: w.text })}
                  data-testid="warning-chip"
                />
              ))}
              {issues === 0 && <Chip size="small" color="success" variant="outlined" label={translate('portal.status.no_faults')} />}
            </Stack>
          </>
        )}
        {device.enums.some((e) => e.text !== null && !state?.values.some((v) => v.key === e.parameter_id)) && (
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, my: 1 }}>
            {device.enums
              .filter((e) => e.text !== null && !state?.values.some((v) => v.key === e.parameter_id))
              .map((e) => (
                <Box key={e.parameter_id} sx={{ display: 'contents' }} data-testid="enum-value" data-key={e.parameter_id}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {e.label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                    {e.text}
                  </Typography>
                </Box>
              ))}
          </Box>
        )}
        {canMute && (
          <Button size="small" sx={{ mt: 1 }} onClick={onMute} data-testid="mute-device">
            {translate('portal.status.mute')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

/** A controller's state and its timeline: coloured segments, each focusable with its from–to as tooltip and label. */
function ControllerCard({ controller, from, to, timezone }: { controller: Controller; from: number; to: number; timezone: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const span = Math.max(1, to - from);
  const name = controller.name;
  return (
    <Card variant="outlined" data-testid="status-controller" data-controller={controller.controller_id}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {name}
          </Typography>
          <Chip
            size="small"
            label={translate(`portal.status.online.${controller.online_state}`)}
            sx={{ bgcolor: STATE_COLOURS[controller.online_state], color: '#fff' }}
            data-testid="controller-online-state"
          />
          {controller.last_seen_at && (
            <Typography variant="caption" color="text.secondary">
              {ageLabel(new Date(controller.last_seen_at).getTime(), Date.now(), locale)}
            </Typography>
          )}
        </Stack>
        {controller.segments.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {translate('portal.status.no_history')}
          </Typography>
        ) : (
          <Box
            role="list"
            aria-label={translate('portal.status.timeline', { name })}
            data-testid="online-timeline"
            sx={{ position: 'relative', height: 20, borderRadius: 1, bgcolor: 'action.hover', overflow: 'hidden' }}
          >
            {controller.segments.map((s, i) => {
              const start = new Date(s.from).getTime();
              const end = new Date(s.to).getTime();
              const label = translate('portal.status.segment', {
                state: translate(`portal.status.online.${s.state}`),
                from: fullLabel(start, locale, timezone),
                to: fullLabel(end, locale, timezone),
              });
              return (
                <Tooltip key={i} title={label} describeChild>
                  <Box
                    role="listitem"
                    tabIndex={0}
                    aria-label={label}
                    data-testid="online-segment"
                    data-state={s.state}
                    sx={{
                      position: 'absolute',
                      top: 0,
                      bottom: 0,
                      left: `${((start - from) / span) * 100}%`,
                      width: `max(2px, ${((end - start) / span) * 100}%)`,
                      bgcolor: STATE_COLOURS[s.state],
                      '&:focus-visible': { outline: '2px solid', outlineColor: 'text.primary', outlineOffset: -2 },
                    }}
                  />
                </Tooltip>
              );
            })}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

function MuteList({ systemCuid, mutes, timezone, canEnd }: { systemCuid: string; mutes: Status['mutes']; timezone: string; canEnd: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const client = useQueryClient();
  const end = useMutation({
    mutationFn: (mute_cuid: string) => trpc.deviceMute.end.mutate({ mute_cuid }),
    onSuccess: async () => {
      notify('portal.status.end_done', { type: 'success' });
      await client.invalidateQueries({ queryKey: ['systemStatus', systemCuid] });
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

function MuteDialog({ device, systemCuid, onClose }: { device: Device; systemCuid: string; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const [preset, setPreset] = useState<Preset>('4h');
  const [untilText, setUntilText] = useState(() => localInput(Date.now() + 24 * HOUR));
  const [reason, setReason] = useState('');
  const mute = useMutation({
    mutationFn: () => {
      const until = preset === 'until' ? new Date(untilText) : new Date(Date.now() + PRESETS[preset] * HOUR);
      return trpc.deviceMute.create.mutate({ entity_cuid: device.entity_cuid, until, reason: reason.trim() || null });
    },
    onSuccess: async () => {
      notify(translate('portal.status.mute_done', { name: device.name }), { type: 'success' });
      await client.invalidateQueries({ queryKey: ['systemStatus', systemCuid] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mute.mutate();
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
