import { Box, CircularProgress, FormControlLabel, Switch, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { messageOf } from '../../trpc';
import { channelLinksKey, setChannelLink, useChannelLinks } from './api';

/** The triggers the channel's company sees, each with a switch: does this channel deliver it? */
export function ChannelTriggers({ channel_cuid }: { channel_cuid: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const links = useChannelLinks(channel_cuid);
  const set = useMutation({
    mutationFn: (v: { trigger_cuid: string; enabled: boolean }) => setChannelLink(channel_cuid, v),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: channelLinksKey(channel_cuid) }),
    onError: (e) => notify(messageOf(e), { type: 'error' }),
  });
  const items = links.data?.items ?? [];
  return (
    <Box>
      <Typography variant="subtitle1" sx={{ mt: 2 }}>
        {translate('portal.channels.triggers')}
      </Typography>
      {links.isLoading ? <CircularProgress size={20} /> : null}
      {links.data && items.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('portal.channels.noTriggers')}
        </Typography>
      ) : null}
      {items.length > 0 ? (
        <Table size="small" data-testid="channel-triggers">
          <TableHead>
            <TableRow>
              <TableCell>{translate('portal.channels.system')}</TableCell>
              <TableCell>{translate('portal.channels.trigger')}</TableCell>
              <TableCell>{translate('resources.notificationTrigger.fields.severity_level')}</TableCell>
              <TableCell align="right">{translate('portal.channels.delivers')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((i) => (
              <TableRow key={i.trigger_cuid}>
                <TableCell>{i.system_name}</TableCell>
                <TableCell>{i.trigger_name}</TableCell>
                <TableCell>{i.severity_level}</TableCell>
                <TableCell align="right">
                  <FormControlLabel
                    label=""
                    control={
                      <Switch
                        checked={i.enabled}
                        onChange={(_e, enabled) => set.mutate({ trigger_cuid: i.trigger_cuid, enabled })}
                        inputProps={{ 'aria-label': translate('portal.channels.deliversTrigger', { trigger: i.trigger_name, system: i.system_name }) }}
                        data-testid={`channel-link-${i.trigger_cuid}`}
                      />
                    }
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {links.data?.truncated ? (
        <Typography variant="caption" color="text.secondary">
          {translate('portal.channels.truncated')}
        </Typography>
      ) : null}
    </Box>
  );
}
