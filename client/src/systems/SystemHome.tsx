import { Box, Button, Card, CardContent, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useCanAccess, useGetOne, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import EnergyBars from '../energy/EnergyBars';
import { monthRange, yearRange } from '../energy/format';
import { SiteMap } from '../map';
import { siteSystemsPath, worseState } from '../map/pins';
import type { MapPin } from '../map/types';
import type { Latest } from './api';
import { useSystemListPrefetch } from './prefetch';

/** The system page's energy and site cards (issue 13): daily / monthly PV energy, the site on a small map. */

export function EnergyCard({ systemCuid, timezone }: { systemCuid: string; timezone: string }) {
  const translate = useTranslate();
  const [granularity, setGranularity] = useState<'day' | 'month'>('day');
  const range = useMemo(() => (granularity === 'day' ? monthRange(new Date(), timezone) : yearRange(new Date(), timezone)), [granularity, timezone]);
  return (
    <Card component="section" variant="outlined" aria-labelledby="energy-heading" data-testid="system-energy" sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography id="energy-heading" variant="h6" component="h2">
            {translate('portal.system_page.energy')}
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={granularity}
            aria-label={translate('portal.energy.granularity')}
            onChange={(_e, v: 'day' | 'month' | null) => v && setGranularity(v)}
          >
            <ToggleButton value="day" data-testid="energy-days">
              {translate('portal.energy.by_day')}
            </ToggleButton>
            <ToggleButton value="month" data-testid="energy-months">
              {translate('portal.energy.by_month')}
            </ToggleButton>
          </ToggleButtonGroup>
        </Stack>
        <EnergyBars system_cuid={systemCuid} granularity={granularity} from={range.from} to={range.to} height={200} />
      </CardContent>
    </Card>
  );
}

interface SystemRecord {
  id: string;
  company_cuid?: string;
  site_cuid: string | null;
  site_name?: string | null;
}
interface SiteRecord {
  id: string;
  name: string;
  lat: number | null;
  long: number | null;
}

/** The site card: its name, a small map (roles that may read sites), the site's systems. */
export function SiteCard({ data }: { data: Latest }) {
  const translate = useTranslate();
  const system = useGetOne<SystemRecord>('system', { id: data.system_cuid });
  const prefetchList = useSystemListPrefetch<HTMLAnchorElement>();
  // The level held in the system's company decides (a user Basic there and installer elsewhere does not read its site).
  const { canAccess: maySeeSites } = useCanAccess({
    resource: 'site',
    action: 'list',
    record: system.data?.company_cuid ? { company_cuid: system.data.company_cuid } : undefined,
  });
  const siteCuid = system.data?.site_cuid ?? null;
  const site = useGetOne<SiteRecord>('site', { id: siteCuid ?? '' }, { enabled: !!siteCuid && !!maySeeSites });
  const state = data.controllers.reduce<MapPin['state']>((worst, c) => worseState(worst, c.online_state), data.controllers.length ? 'ONLINE' : 'UNKNOWN');
  const pins: MapPin[] = useMemo(
    () =>
      site.data && site.data.lat !== null && site.data.long !== null && Number.isFinite(Number(site.data.lat)) && Number.isFinite(Number(site.data.long))
        ? [{ site_cuid: site.data.id, name: site.data.name, lat: Number(site.data.lat), long: Number(site.data.long), systems: 1, state }]
        : [],
    [site.data, state],
  );
  const name = site.data?.name ?? system.data?.site_name ?? null;
  return (
    <Card component="section" variant="outlined" aria-labelledby="site-heading" data-testid="system-site" sx={{ height: '100%' }}>
      <CardContent>
        <Typography id="site-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate('portal.system_page.site')}
          {name ? `: ${name}` : ''}
        </Typography>
        {system.data && !siteCuid && <Typography color="text.secondary">{translate('portal.system_page.no_site')}</Typography>}
        {pins.length > 0 && (
          <Box sx={{ mb: 1 }}>
            <SiteMap pins={pins} height={200} />
          </Box>
        )}
        {siteCuid && maySeeSites && (
          <Button ref={prefetchList} component={RouterLink} to={siteSystemsPath(siteCuid)} size="small" variant="outlined" data-testid="site-systems">
            {translate('portal.system_page.site_systems')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

/** The link from the monitoring page to the system's settings form (/system/<id>). */
export function SettingsLink({ systemCuid }: { systemCuid: string }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'system', action: 'edit' });
  if (!canAccess) return null;
  return (
    <Button component={RouterLink} to={`/system/${encodeURIComponent(systemCuid)}`} variant="outlined" size="small" data-testid="system-settings-link">
      {translate('portal.system_page.settings')}
    </Button>
  );
}
