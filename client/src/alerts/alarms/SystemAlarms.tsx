import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ActiveAlarmsTable } from './ActiveAlarms';
import { AlarmHistoryTable } from './AlarmHistory';

/** A system's Alarms tab (/systems/:id/alarms, where alarm toasts lead): its active alarms and recent history. */
export default function SystemAlarms({ systemCuid }: { systemCuid: string }) {
  const translate = useTranslate();
  return (
    <Box data-testid="system-alarms">
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {translate('portal.alarms.menu')}
      </Typography>
      <ActiveAlarmsTable system_cuid={systemCuid} />
      <Typography component="h2" variant="h6" sx={{ mt: 3, mb: 1 }}>
        {translate('portal.alarms.system_recent')}
      </Typography>
      <AlarmHistoryTable system_cuid={systemCuid} pageSize={10} />
    </Box>
  );
}
