import { localText } from '../i18n/localText';
import { formatNumber } from '../i18n/format';
import {
  Alert,
  Box,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  FormControl,
  InputLabel,
  Link,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Title, useGetList, useLocaleState, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import HomeDashboards from '../dashboards/HomeDashboards';
import EnergyBars from '../energy/EnergyBars';
import { formatKwh, monthRange } from '../energy/format';
import { usePageTitle } from '../theme/brand';
import { SiteMap } from '../map';
import { STATE_COLOURS } from '../map/pins';
import { roleColour, roleTextColour } from '../session/roles';
import { useSession } from '../session/SessionProvider';
import { ageLabel } from '../systems/chart-time';
import { StateChip } from '../systems/list-state';
import { messageOf, trpc } from '../trpc';
import { homeSections, stateFilterPath, systemPath } from './sections';
import { SystemPrefetch } from '../systems/prefetch';

/** How often the overview refreshes (the server may answer from a cache up to OVERVIEW_CACHE_MS old). */
const REFRESH_MS = 30_000;

type Overview = Awaited<ReturnType<typeof trpc.fleet.overview.query>>;
type State = Overview['attention'][number]['state'];

/** Attention reasons in the colours of the states they come from (low battery orange, stale data blue-grey). */
const REASON_COLOURS: Record<Overview['attention'][number]['reason'], string> = {
  ALARM: STATE_COLOURS.ALARM,
  OFFLINE: STATE_COLOURS.OFFLINE,
  LOW_SOC: STATE_COLOURS.UNSTABLE,
  STALE: STATE_COLOURS.UNKNOWN,
};

function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** A role by its level, named in the reader's language (role.all's translations), else as given. */
function RoleChip({ name, level }: { name: string; level: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const role = useSession().roles.find((r) => r.level === level);
  return (
    <Chip
      size="small"
      label={(role && localText(role, 'name', locale)) ?? name}
      title={translate('portal.home.level', { level })}
      sx={{ color: roleTextColour(level), backgroundColor: roleColour(level), fontWeight: 500 }}
      data-testid="role-chip"
      data-level={level}
    />
  );
}

function Section({ title, testId, children, action }: { title: string; testId: string; children: ReactNode; action?: ReactNode }) {
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

/**
 * The home page (docs/home.md): a compact greeting, then by role — Basic: their systems and the PV
 * energy; Expert: + the status counts and what needs attention; Installer: + active alarms and recent
 * commands; Superuser: the whole fleet and the map (any role the server gives pins gets the map).
 * One fleet.overview call, refreshed every 30 s; the last answer stays on screen while refreshing.
 */
export default function Home() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { context, roles } = useSession();
  usePageTitle(null);
  const [company, setCompany] = useState('');
  const now = useNow(5_000);
  const memberships = context?.memberships ?? [];
  const companies = useMemo(() => {
    const seen = new Map<string, string>();
    for (const m of memberships) seen.set(m.company_cuid, m.company.name);
    return [...seen.entries()].map(([company_cuid, name]) => ({ company_cuid, name }));
  }, [memberships]);

  const overview = useQuery({
    queryKey: ['fleet.overview', company],
    queryFn: ({ signal }) => trpc.fleet.overview.query(company ? { company_cuid: company } : undefined, { signal }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
    retry: false,
    enabled: !!context,
  });
  // This month so far; moves with each refreshed overview so the bars refresh with it.
  const generatedAt = overview.data ? new Date(overview.data.generated_at).getTime() : 0;
  const month = useMemo(() => monthRange(new Date(Math.max(Date.now(), generatedAt))), [generatedAt]);

  if (!context) return null;
  const { user, isSuperUser } = context;
  const levels = memberships.filter((m) => !company || m.company_cuid === company).map((m) => m.role.level);
  const level = isSuperUser ? 0 : levels.length ? Math.min(...levels) : 3;
  const sections = homeSections(level);
  const data = overview.data;
  const generated = data ? new Date(data.generated_at).getTime() : null;

  return (
    <Box sx={{ mt: 2, display: 'grid', gap: 2, maxWidth: 1280 }} data-testid="home" data-level={level}>
      <Title title={translate('portal.menu.home')} />
      <Card>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', '&:last-child': { pb: 2 } }}>
          <Box sx={{ flex: 1, minWidth: 220 }}>
            <Typography variant="h5" component="h1" data-testid="greeting">
              {translate('portal.home.greeting', { name: user.name || user.email })}
            </Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 0.5, alignItems: 'center', flexWrap: 'wrap' }}>
              {isSuperUser && (
                <Chip size="small" sx={{ color: '#fff', backgroundColor: roleColour(0) }} label={translate('portal.home.superuser')} data-testid="superuser-chip" />
              )}
              {memberships.map((m) => (
                <Stack key={m.membership_cuid} direction="row" spacing={0.5} sx={{ alignItems: 'center' }} data-testid="membership">
                  <Typography variant="body2" component="span">
                    {m.company.name}
                  </Typography>
                  <RoleChip name={m.role.name} level={m.role.level} />
                  {m.is_company_admin && (
                    <Typography variant="caption" component="span" color="text.secondary">
                      {translate('portal.home.admin')}
                    </Typography>
                  )}
                </Stack>
              ))}
              <Typography variant="caption" color="text.secondary" data-testid="overview-age" aria-live="polite">
                {overview.isFetching && data
                  ? translate('portal.home.refreshing')
                  : generated !== null
                    ? translate('portal.home.updated', { age: ageLabel(generated, Math.max(now, generated), locale) ?? '' })
                    : ''}
              </Typography>
            </Stack>
            {roles.length > 0 && (
              <Stack direction="row" spacing={0.5} useFlexGap sx={{ mt: 1, flexWrap: 'wrap', alignItems: 'center' }} data-testid="roles" aria-label={translate('portal.home.roles')}>
                <Typography variant="caption" color="text.secondary">
                  {translate('portal.home.roles')}:
                </Typography>
                {roles.map((r) => (
                  <RoleChip key={r.role_cuid} name={r.name} level={r.level} />
                ))}
              </Stack>
            )}
          </Box>
          {companies.length > 1 && (
            <FormControl size="small" sx={{ minWidth: 220 }}>
              <InputLabel id="home-company-label">{translate('portal.home.company_picker')}</InputLabel>
              <Select
                labelId="home-company-label"
                label={translate('portal.home.company_picker')}
                value={company}
                displayEmpty
                data-testid="company-picker"
                onChange={(e) => setCompany(String(e.target.value))}
              >
                <MenuItem value="">{translate('portal.home.all_companies')}</MenuItem>
                {companies.map((c) => (
                  <MenuItem key={c.company_cuid} value={c.company_cuid}>
                    {c.name}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          )}
        </CardContent>
      </Card>

      {overview.isError && (
        <Alert severity="error" data-testid="overview-error">
          {translate('portal.home.load_failed', { message: messageOf(overview.error) })}
        </Alert>
      )}

      {sections.status && data && <StatusTiles counts={data.counts} />}

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {sections.mySystems && <MySystems company={company} />}
        {sections.status && data && <Attention items={data.attention} now={now} />}
        <Section title={translate('portal.home.energy')} testId="home-energy">
          <Stack direction="row" spacing={4} sx={{ mb: 2 }}>
            <Box>
              <Typography variant="caption" color="text.secondary">
                {translate('portal.home.energy_today')}
              </Typography>
              <Typography variant="h5" data-testid="energy-today">
                {data ? formatKwh(data.energy.today_kwh, locale) : '—'}
              </Typography>
            </Box>
            <Box>
              <Typography variant="caption" color="text.secondary">
                {translate('portal.home.energy_month')}
              </Typography>
              <Typography variant="h5" data-testid="energy-month">
                {data ? formatKwh(data.energy.month_kwh, locale) : '—'}
              </Typography>
            </Box>
          </Stack>
          {data && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
              {translate('portal.home.energy_reporting', { smart_count: data.energy.systems_reporting })}
            </Typography>
          )}
          <Typography variant="subtitle2" component="h3">
            {translate('portal.home.energy_daily')}
          </Typography>
          <EnergyBars granularity="day" from={month.from} to={month.to} company_cuid={company || undefined} height={180} />
        </Section>
        {data?.pins && (
          <Section title={translate('portal.home.map')} testId="home-map">
            <SiteMap pins={data.pins} height={340} />
          </Section>
        )}
        {sections.alarms && data?.alarms && <Alarms alarms={data.alarms} now={now} />}
        {sections.commands && data?.commands && <Commands commands={data.commands} now={now} />}
      </Box>

      <HomeDashboards />
    </Box>
  );
}

function StatusTiles({ counts }: { counts: Overview['counts'] }) {
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
            <CardActionArea
              component={RouterLink}
              to={t.to}
              data-testid={`tile-${t.key}`}
              data-count={t.value}
              sx={{ p: 2 }}
            >
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

function Attention({ items, now }: { items: Overview['attention']; now: number }) {
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
                    <ListItemButton ref={ref} component={RouterLink} to={systemPath(a.system_cuid)} data-testid="attention-row" data-system={a.system_cuid} data-reason={a.reason}>
                      <ListItemText
                        primary={
                          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} component="span">
                            <span>{a.name}</span>
                            <Chip component="span" size="small" label={translate(`portal.home.reason.${a.reason}`)} sx={{ bgcolor: REASON_COLOURS[a.reason], color: '#fff' }} />
                            {a.active_alarms > 0 && <Chip component="span" size="small" variant="outlined" label={translate('portal.home.alarms_count', { smart_count: a.active_alarms })} />}
                          </Stack>
                        }
                        secondary={[
                          a.site_name,
                          contact === null ? translate('portal.home.never_contacted') : translate('portal.home.last_contact', { age: ageLabel(contact, now, locale) ?? '' }),
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

function Alarms({ alarms, now }: { alarms: NonNullable<Overview['alarms']>; now: number }) {
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
                      secondary={[a.severity_level, a.since ? translate('portal.home.alarm_since', { age: ageLabel(new Date(a.since).getTime(), now, locale) ?? '' }) : null].filter(Boolean).join(' · ')}
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

function Commands({ commands, now }: { commands: NonNullable<Overview['commands']>; now: number }) {
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

interface SystemRow {
  id: string;
  name: string;
  online_state?: State;
  energy_today_kwh?: number | null;
}

/** Basic users: their systems with state and today's energy (system.getList carries both). */
function MySystems({ company }: { company: string }) {
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
                        s.energy_today_kwh === undefined || s.energy_today_kwh === null ? null : translate('portal.home.today_energy', { kwh: formatKwh(s.energy_today_kwh, locale) })
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
