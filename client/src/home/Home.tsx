import { localText } from '../i18n/localText';
import { Alert, Box, Card, CardContent, Chip, FormControl, InputLabel, MenuItem, Select, Stack, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { Title, useLocaleState, useTranslate } from 'react-admin';
import HomeDashboards from '../dashboards/HomeDashboards';
import EnergyBars from '../energy/EnergyBars';
import { formatKwh, monthRange } from '../energy/format';
import { usePageTitle } from '../theme/brand';
import { SiteMap } from '../map';
import { roleColour, roleTextColour } from '../session/roles';
import { useSession } from '../session/SessionProvider';
import { ageLabel } from '../systems/chart-time';
import { messageOf } from '../trpc';
import { useFleetOverview } from './api';
import { homeSections } from './sections';
import { Section, StatusTiles, Attention, Alarms, Commands, MySystems } from './HomeSections';
import { useNow } from '../kit/useNow';

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
  const memberships = useMemo(() => context?.memberships ?? [], [context?.memberships]);
  const companies = useMemo(() => {
    const seen = new Map<string, string>();
    for (const m of memberships) seen.set(m.company_cuid, m.company.name);
    return [...seen.entries()].map(([company_cuid, name]) => ({ company_cuid, name }));
  }, [memberships]);

  const overview = useFleetOverview(company, !!context);
  // This month so far; moves with each refreshed overview so the bars refresh with it (until the
  // first one, up to when the page opened).
  const [openedAt] = useState(() => Date.now());
  const generatedAt = overview.data ? new Date(overview.data.generated_at).getTime() : 0;
  const month = useMemo(() => monthRange(new Date(Math.max(openedAt, generatedAt))), [openedAt, generatedAt]);

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
                <Chip
                  size="small"
                  sx={{ color: '#fff', backgroundColor: roleColour(0) }}
                  label={translate('portal.home.superuser')}
                  data-testid="superuser-chip"
                />
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
              <Stack
                direction="row"
                spacing={0.5}
                useFlexGap
                sx={{ mt: 1, flexWrap: 'wrap', alignItems: 'center' }}
                data-testid="roles"
                aria-label={translate('portal.home.roles')}
              >
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
