import { formatNumber } from '../i18n/format';
import { Box, Card, CardActionArea, CardContent, Chip, Link, List, ListItem, ListItemButton, ListItemText, Stack, Typography } from '@mui/material';
import { type ReactNode } from 'react';
import { useGetList, useLocaleState, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import { formatKwh } from '../energy/format';
import { STATE_COLOURS } from '../map/pins';
import { ageLabel } from '../systems/chart-time';
import { StateChip } from '../systems/list-state';
import { type Overview, type State } from './api';
import { stateFilterPath, systemPath } from './sections';
import { SystemPrefetch } from '../systems/prefetch';

// The home page's sections: a titled card, the status counts, what needs attention, active alarms,
// recent commands and (Basic users) their systems. They take the overview's data; MySystems reads
// system.getList through react-admin.

/** Attention reasons in the colours of the states they come from (low battery orange, stale data blue-grey). */
const REASON_COLOURS: Record<Overview['attention'][number]['reason'], string> = {
  ALARM: STATE_COLOURS.ALARM,
  OFFLINE: STATE_COLOURS.OFFLINE,
  LOW_SOC: STATE_COLOURS.UNSTABLE,
  STALE: STATE_COLOURS.UNKNOWN,
};

export function Section({ title, testId, children, action }: { title: string; testId: string; children: ReactNode; action?: ReactNode }) {
  const id = `home-${testId}-heading`;
  return (
    <Card component="section" aria-labelledby={id} data-testid={testId}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
          <Typography id={id} variant="h6" component="h2">
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

export function StatusTiles({ counts }: { counts: Overview['counts'] }) {
  const translate = useTranslate();
  const tiles = [
    { key: 'online', value: counts.online, state: 'ONLINE' as const, to: stateFilterPath({ state: 'ONLINE' }) },
    { key: 'unstable', value: counts.unstable, state: 'UNSTABLE' as const, to: stateFilterPath({ state: 'UNSTABLE' }) },
    { key: 'offline', value: counts.offline, state: 'OFFLINE' as const, to: stateFilterPath({ state: 'OFFLINE' }) },
    { key: 'in_alarm', value: counts.in_alarm, state: 'ALARM' as const, to: stateFilterPath({ in_alarm: true }) },
  ];
  return (
    <Box
      component="section"
      aria-label={translate('portal.home.status')}
      data-testid="home-status"
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}
    >
      {tiles.map((t) => {
        const label = translate(`portal.home.tiles.${t.key}`);
        return (
          <Card key={t.key} sx={{ borderTop: `4px solid ${STATE_COLOURS[t.state]}` }}>
            <CardActionArea component={RouterLink} to={t.to} data-testid={`tile-${t.key}`} data-count={t.value} sx={{ p: 2 }}>
              <Typography variant="h4" component="p">
                {t.value}
              </Typography>
              <Typography color="text.secondary">{label}</Typography>
            </CardActionArea>
          </Card>
        );
      })}
    </Box>
  );
}

export function Attention({ items, now }: { items: Overview['attention']; now: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Section title={translate('portal.home.attention')} testId="home-attention">
      {items.length === 0 ? (
        <Typography color="text.secondary">{translate('portal.home.attention_empty')}</Typography>
      ) : (
        <List dense disablePadding>
          {items.map((a) => {
            const contact = a.last_contact ? new Date(a.last_contact).getTime() : null;
            return (
              <ListItem key={a.system_cuid} disablePadding>
                <SystemPrefetch id={a.system_cuid}>
                  {(ref) => (
                    <ListItemButton
                      ref={ref}
                      component={RouterLink}
                      to={systemPath(a.system_cuid)}
                      data-testid="attention-row"
                      data-system={a.system_cuid}
                      data-reason={a.reason}
                    >
                      <ListItemText
                        primary={
                          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} component="span">
                            <span>{a.name}</span>
                            <Chip
                              component="span"
                              size="small"
                              label={translate(`portal.home.reason.${a.reason}`)}
                              sx={{ bgcolor: REASON_COLOURS[a.reason], color: '#fff' }}
                            />
                            {a.active_alarms > 0 && (
                              <Chip
                                component="span"
                                size="small"
                                variant="outlined"
                                label={translate('portal.home.alarms_count', { smart_count: a.active_alarms })}
                              />
                            )}
                          </Stack>
                        }
                        secondary={[
                          a.site_name,
                          contact === null
                            ? translate('portal.home.never_contacted')
                            : translate('portal.home.last_contact', { age: ageLabel(contact, now, locale) ?? '' }),
                          a.soc === null ? null : translate('portal.home.soc', { soc: formatNumber(a.soc, locale, { maximumFractionDigits: 0 }) + ' %' }),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      />
                    </ListItemButton>
                  )}
                </SystemPrefetch>
              </ListItem>
            );
          })}
        </List>
      )}
    </Section>
  );
}

export function Alarms({ alarms, now }: { alarms: NonNullable<Overview['alarms']>; now: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Section title={translate('portal.home.alarms')} testId="home-alarms">
      {alarms.length === 0 ? (
        <Typography color="text.secondary">{translate('portal.home.alarms_empty')}</Typography>
      ) : (
        <List dense disablePadding>
          {alarms.map((a) => (
            <ListItem key={`${a.trigger_cuid}-${a.system_cuid}`} disablePadding>
              <SystemPrefetch id={a.system_cuid}>
                {(ref) => (
                  <ListItemButton ref={ref} component={RouterLink} to={`${systemPath(a.system_cuid)}/alarms`} data-testid="alarm-row">
                    <ListItemText
                      primary={`${a.name} — ${a.system_name}`}
                      secondary={[
                        a.severity_level,
                        a.since ? translate('portal.home.alarm_since', { age: ageLabel(new Date(a.since).getTime(), now, locale) ?? '' }) : null,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    />
                  </ListItemButton>
                )}
              </SystemPrefetch>
            </ListItem>
          ))}
        </List>
      )}
    </Section>
  );
}

export function Commands({ commands, now }: { commands: NonNullable<Overview['commands']>; now: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Section title={translate('portal.home.commands')} testId="home-commands">
      {commands.length === 0 ? (
        <Typography color="text.secondary">{translate('portal.home.commands_empty')}</Typography>
      ) : (
        <List dense disablePadding>
          {commands.map((c) => (
            <ListItem key={c.command_id} disablePadding>
              <ListItemButton component={RouterLink} to={`/controller/${encodeURIComponent(c.controller_id)}/show/commands`} data-testid="command-row">
                <ListItemText
                  primary={`${c.kind} — ${c.controller_name ?? c.controller_id}`}
                  secondary={`${c.status} · ${ageLabel(new Date(c.created_at).getTime(), now, locale) ?? ''}`}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Section>
  );
}

export interface SystemRow {
  id: string;
  name: string;
  online_state?: State;
  energy_today_kwh?: number | null;
}

/** Basic users: their systems with state and today's energy (system.getList carries both). */
export function MySystems({ company }: { company: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, total } = useGetList<SystemRow>('system', {
    pagination: { page: 1, perPage: 10 },
    sort: { field: 'name', order: 'ASC' },
    filter: company ? { company_cuid: company } : {},
  });
  return (
    <Section
      title={translate('portal.home.my_systems')}
      testId="home-systems"
      action={
        <Link component={RouterLink} to="/system" variant="body2">
          {translate('portal.home.all_systems')}
          {total !== undefined ? ` (${total})` : ''}
        </Link>
      }
    >
      {data && data.length === 0 ? (
        <Typography color="text.secondary">{translate('portal.home.my_systems_empty')}</Typography>
      ) : (
        <List dense disablePadding>
          {(data ?? []).map((s) => (
            <ListItem key={s.id} disablePadding>
              <SystemPrefetch id={String(s.id)}>
                {(ref) => (
                  <ListItemButton ref={ref} component={RouterLink} to={systemPath(String(s.id))} data-testid="my-system-row">
                    <ListItemText
                      primary={s.name}
                      secondary={
                        s.energy_today_kwh === undefined || s.energy_today_kwh === null
                          ? null
                          : translate('portal.home.today_energy', { kwh: formatKwh(s.energy_today_kwh, locale) })
                      }
                    />
                    {s.online_state && <StateChip state={s.online_state} />}
                  </ListItemButton>
                )}
              </SystemPrefetch>
            </ListItem>
          ))}
        </List>
      )}
    </Section>
  );
}
