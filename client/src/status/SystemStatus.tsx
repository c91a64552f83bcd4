import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useCanAccess, useLocaleState, useTranslate } from 'react-admin';
import { ActiveAlarmsTable } from '../alerts/alarms/ActiveAlarms';
import { ageLabel, fullLabel } from '../systems/chart-time';
import { messageOf } from '../trpc';
import { type Controller, type Device, type OnlineState, useSystemStatus } from './api';
import { MuteDialog, MuteList } from './Mutes';

/** ONLINE green, UNSTABLE amber, OFFLINE red (the chip and the timeline). */
const STATE_COLOURS: Record<OnlineState, string> = { ONLINE: '#2e7d32', UNSTABLE: '#ed6c02', OFFLINE: '#c62828' };

/**
 * The status view of a system (spec §6: view level 2): each device's latest state made readable
 * (fault and warning chips, "last reported"), each controller's online state with a 24 h timeline,
 * the active alarms, the muted devices; "Mute alarms" / "End mute" for level ≤ 1.
 */
export default function SystemStatus({ systemCuid, timezone }: { systemCuid: string; timezone: string }) {
  const translate = useTranslate();
  const { canAccess: canMute } = useCanAccess({ resource: 'deviceMute', action: 'create' });
  const status = useSystemStatus(systemCuid);
  const [muting, setMuting] = useState<Device | null>(null);

  if (status.isPending) return <CircularProgress size={24} aria-label={translate('portal.app.loading')} />;
  if (status.isError) return <Alert severity="error">{translate('portal.status.load_failed', { message: messageOf(status.error) })}</Alert>;
  const data = status.data;
  // Ages are told as of the answer (each refresh moves them).
  const now = status.dataUpdatedAt;
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
              <DeviceCard key={d.entity_cuid} device={d} now={now} timezone={timezone} canMute={!!canMute} onMute={() => setMuting(d)} />
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
              <ControllerCard
                key={c.controller_id}
                controller={c}
                now={now}
                from={new Date(data.from).getTime()}
                to={new Date(data.to).getTime()}
                timezone={timezone}
              />
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

function DeviceCard({ device, now, timezone, canMute, onMute }: { device: Device; now: number; timezone: string; canMute: boolean; onMute: () => void }) {
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
              {translate('portal.status.last_reported', { age: ageLabel(new Date(state.timestamp).getTime(), now, locale) })}
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
function ControllerCard({ controller, now, from, to, timezone }: { controller: Controller; now: number; from: number; to: number; timezone: string }) {
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
              {ageLabel(new Date(controller.last_seen_at).getTime(), now, locale)}
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
