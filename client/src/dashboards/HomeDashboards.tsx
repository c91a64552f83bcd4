import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DashboardCards } from './DashboardCards';
import { useMine } from './api';

/**
 * The dashboards made for the signed-in user (their companies' and systems', for their role level or
 * above), as links on the home page; nothing when there is none.
 */
export default function HomeDashboards() {
  const translate = useTranslate();
  const mine = useMine();
  if (!mine.data || mine.data.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="home-dashboards-heading" data-testid="home-dashboards">
      <Typography id="home-dashboards-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate('portal.dashboards.home_title')}
      </Typography>
      <DashboardCards dashboards={mine.data} />
    </Box>
  );
}
