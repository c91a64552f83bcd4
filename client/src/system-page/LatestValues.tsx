import { localText } from '../i18n/localText';
import { Box, Card, CardContent, CardHeader, Chip, Stack, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { DownloadDataButton } from '../exports/DownloadDataButton';
import { type Device, type Latest, type OnlineState, REFRESH_MS } from './api';
import { ageLabel, formatValue, fullLabel } from '../systems/chart-time';
import { SettingsLink } from '../systems/SystemHome';
import { useNow } from '../kit/useNow';

// The system page's header (name, download, settings, controllers' states) and its latest values per device.

const STATE_COLOURS: Record<OnlineState, string> = { ONLINE: '#2e7d32', OFFLINE: '#757575', UNSTABLE: '#ed6c02' };

export function Header({ data }: { data: Latest }) {
  const translate = useTranslate();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
      <Box sx={{ flex: 1 }}>
        <Typography variant="h5" component="h1" data-testid="system-name">
          {data.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="system-timezone">
          {translate('portal.system.timezone_caption', { tz: data.timezone })}
        </Typography>
      </Box>
      <DownloadDataButton systemCuid={data.system_cuid} systemName={data.name} timezone={data.timezone} />
      {/* The settings form (issue 13), which links back here. */}
      <SettingsLink systemCuid={data.system_cuid} />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }} aria-label={translate('portal.system.controllers')}>
        {data.inventory && data.controllers.length === 0 && <Chip label={translate('portal.system.no_controllers')} variant="outlined" />}
        {data.controllers.map((c) => (
          <Chip
            key={c.controller_id}
            data-testid="controller-state"
            data-state={c.online_state}
            label={`${c.name}: ${translate(`portal.system.online_state.${c.online_state}`)}`}
            sx={{ bgcolor: STATE_COLOURS[c.online_state], color: '#fff', fontWeight: 500 }}
          />
        ))}
      </Stack>
    </Stack>
  );
}

export function LatestValues({ data }: { data: Latest }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const now = useNow(REFRESH_MS);
  return (
    <Box component="section" aria-labelledby="latest-heading" sx={{ mb: 3 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', mb: 1 }}>
        <Typography id="latest-heading" variant="h6" component="h2">
          {translate('portal.system.latest')}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {translate('portal.system.latest_refresh')}
        </Typography>
      </Stack>
      {data.devices.length === 0 && <Typography color="text.secondary">{translate('portal.system.no_devices')}</Typography>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}>
        {data.devices.map((d) => (
          <Card key={d.entity_cuid} variant="outlined" data-testid="device-card" data-device={d.entity_cuid}>
            <CardHeader
              title={d.name}
              subheader={d.entitytype_id ?? undefined}
              slotProps={{ title: { variant: 'subtitle1', component: 'h3' } }}
              sx={{ pb: 0 }}
            />
            <CardContent sx={{ pt: 1 }}>
              {d.parameters.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  {translate('portal.system.no_parameters')}
                </Typography>
              )}
              {/* The device's latest DeviceState, readable (issue 13). */}
              {d.state && <DeviceStateList state={d.state} now={now} />}
              <Box
                component="dl"
                sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', overflowWrap: 'anywhere', columnGap: 1, rowGap: 0.5 }}
              >
                {d.parameters.map((p) => {
                  const ts = p.timestamp ? new Date(p.timestamp).getTime() : null;
                  return (
                    <Box
                      key={p.parameter_id}
                      sx={{ display: 'contents' }}
                      data-testid="latest-value"
                      data-parameter={p.parameter_id}
                      data-value={p.value ?? ''}
                    >
                      <Typography component="dt" variant="body2" color="text.secondary" title={p.parameter_id}>
                        {localText(p, 'description', locale) ?? p.parameter_id}
                      </Typography>
                      <Box component="dd" sx={{ m: 0, textAlign: 'right' }}>
                        <Typography component="span" variant="body1" sx={{ fontWeight: 600 }} data-testid="latest-value-text">
                          {p.text ?? formatValue(p.value, locale)}
                          {p.value !== null && p.text === null && p.unit ? ` ${p.unit}` : ''}
                        </Typography>
                        <Typography
                          component="span"
                          variant="caption"
                          color="text.secondary"
                          sx={{ display: 'block' }}
                          title={ts === null ? undefined : fullLabel(ts, locale, data.timezone)}
                        >
                          {ageLabel(ts, now, locale) ?? translate('portal.system.no_value')}
                        </Typography>
                      </Box>
                    </Box>
                  );
                })}
              </Box>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
}

/** A device's decoded state (labels from its entity type's meta): key labels and value texts, faults and warnings. */
export function DeviceStateList({ state, now }: { state: NonNullable<Device['state']>; now: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const ts = new Date(state.timestamp).getTime();
  return (
    <Box sx={{ mb: 1, pb: 1, borderBottom: 1, borderColor: 'divider' }} data-testid="device-state">
      <Typography variant="caption" color="text.secondary" component="p">
        {translate('portal.system_page.state_at', { age: ageLabel(ts, Math.max(now, ts), locale) ?? '' })}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', overflowWrap: 'anywhere', columnGap: 1, rowGap: 0.5 }}>
        {state.values.map((v) => (
          <Box key={v.key} sx={{ display: 'contents' }} data-testid="device-state-value" data-key={v.key}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {v.label}
            </Typography>
            <Typography component="dd" variant="body1" sx={{ m: 0, textAlign: 'right', fontWeight: 600 }}>
              {v.text}
            </Typography>
          </Box>
        ))}
      </Box>
      {state.faults.length > 0 && (
        <Typography variant="body2" color="error" data-testid="device-faults">
          {translate('portal.system_page.faults', { list: state.faults.join(', ') })}
        </Typography>
      )}
      {state.warnings.length > 0 && (
        <Typography variant="body2" color="warning.main" data-testid="device-warnings">
          {translate('portal.system_page.warnings', { list: state.warnings.join(', ') })}
        </Typography>
      )}
    </Box>
  );
}
