import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useRecordContext, useTranslate } from 'react-admin';
import { ConfigView } from './ConfigView';

/**
 * A device's or data processor's desired against reported configuration, read-only, with a link to
 * its controller's configuration tab (where it is applied). Nothing without a controller.
 */
export function DeviceConfigPanel() {
  const record = useRecordContext<{ id: string; controller_id?: string | null }>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ p: 2 }} data-testid="device-config">
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('portal.control.config.device_title')}
      </Typography>
      {record.controller_id ? (
        <ConfigView controllerId={record.controller_id} only={String(record.id)} readOnly />
      ) : (
        <Typography variant="body2">{translate('portal.control.config.no_controller')}</Typography>
      )}
    </Box>
  );
}
