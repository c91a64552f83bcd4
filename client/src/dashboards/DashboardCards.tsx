import DashboardIcon from '@mui/icons-material/Dashboard';
import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useTranslate } from 'react-admin';
import type { MineDashboard } from './api';

/** The caller's dashboards as cards, each one a link to its page (keyboard and mouse). */
export function DashboardCards({ dashboards }: { dashboards: readonly MineDashboard[] }) {
  const translate = useTranslate();
  return (
    <Box
      component="ul"
      sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}
      data-testid="dashboard-cards"
    >
      {dashboards.map((d) => (
        <li key={d.dashboard_cuid}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardActionArea
              component={RouterLink}
              to={`/dashboards/${encodeURIComponent(d.dashboard_cuid)}`}
              sx={{ height: '100%' }}
              data-testid="dashboard-card"
              data-dashboard={d.dashboard_cuid}
            >
              <CardContent>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
                  <DashboardIcon fontSize="small" color="primary" />
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                    {d.name}
                  </Typography>
                </Box>
                <Typography variant="body2" color="text.secondary">
                  {translate(d.owner_kind === 'company' ? 'portal.dashboards.owner_company' : 'portal.dashboards.owner_system', { name: d.owner_name })}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {d.role_name ? translate('portal.dashboards.for_role', { role: d.role_name }) : translate('portal.dashboards.for_everyone')}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        </li>
      ))}
    </Box>
  );
}
