import { MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { MineDashboard } from './api';
import DashboardPage from './DashboardPage';

/** A system page's "Dashboard" tab: the system's dashboard made for the user (a picker when it has several). */
export default function SystemDashboard({ dashboards }: { dashboards: readonly MineDashboard[] }) {
  const translate = useTranslate();
  const [chosen, setChosen] = useState(dashboards[0]?.dashboard_cuid ?? '');
  if (!dashboards.length) return null;
  return (
    <>
      {dashboards.length > 1 && (
        <TextField
          select
          size="small"
          label={translate('portal.dashboards.title')}
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          sx={{ mb: 2, minWidth: 240 }}
        >
          {dashboards.map((d) => (
            <MenuItem key={d.dashboard_cuid} value={d.dashboard_cuid}>
              {d.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <DashboardPage id={chosen} embedded />
    </>
  );
}
