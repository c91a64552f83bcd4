import { Box, Tab, Tabs, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation } from 'react-router';
import { usePageTitle } from '../../theme/brand';
import { ActiveAlarmsTable } from './ActiveAlarms';
import { AlarmHistoryTable } from './AlarmHistory';

/** /alarm (active alarms of the fleet) and /alarm/history (every state change, filtered; CSV). */
export default function AlarmsPage() {
  const translate = useTranslate();
  const tab = useLocation().pathname.endsWith('/history') ? 'history' : 'active';
  usePageTitle(translate('portal.alarms.menu'));
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="alarms-page">
      <Title title="portal.alarms.menu" />
      <Tabs value={tab} sx={{ mb: 2 }} aria-label={translate('portal.alarms.menu')}>
        <Tab value="active" label={translate('portal.alarms.active_title')} component={RouterLink} to="/alarm" data-testid="tab-active" />
        <Tab value="history" label={translate('portal.alarms.history_title')} component={RouterLink} to="/alarm/history" data-testid="tab-history" />
      </Tabs>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {translate(tab === 'history' ? 'portal.alarms.history_title' : 'portal.alarms.active_fleet')}
      </Typography>
      {tab === 'history' ? <AlarmHistoryTable /> : <ActiveAlarmsTable />}
    </Box>
  );
}
