import MoreVertIcon from '@mui/icons-material/MoreVert';
import { Divider, IconButton, ListSubheader, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { MUTE_CHOICES, useAlarmActions, type ActiveAlarm } from './api';

/** The menu of an active alarm row: Acknowledge, Mute for a while or until unmuted, Unmute. Keyboard: Enter/Space opens, arrows move. */
export function AlarmRowMenu({ alarm }: { alarm: ActiveAlarm }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const actions = useAlarmActions();
  const close = () => setAnchor(null);
  const menuId = `alarm-menu-${alarm.trigger_cuid}`;
  return (
    <>
      <IconButton
        aria-label={translate('portal.alarms.actions', { name: alarm.trigger_name })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        data-testid="alarm-menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        size="small"
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={close}>
        <MenuItem
          data-testid="alarm-acknowledge"
          disabled={!alarm.notification_cuid || alarm.acknowledged}
          onClick={() => {
            close();
            if (alarm.notification_cuid) void actions.acknowledge(alarm.notification_cuid);
          }}
        >
          {translate(alarm.acknowledged ? 'portal.alarms.acknowledged_already' : 'portal.alarms.acknowledge')}
        </MenuItem>
        <Divider />
        <ListSubheader sx={{ lineHeight: '28px' }}>{translate('portal.alarms.mute')}</ListSubheader>
        {MUTE_CHOICES.map((c) => (
          <MenuItem
            key={c.key}
            data-testid={`alarm-mute-${c.key}`}
            onClick={() => {
              close();
              void actions.mute(alarm.trigger_cuid, c.key);
            }}
          >
            {translate(`portal.alarms.mute_for.${c.key}`)}
          </MenuItem>
        ))}
        {alarm.muted && [
          <Divider key="d" />,
          <MenuItem
            key="unmute"
            data-testid="alarm-unmute"
            onClick={() => {
              close();
              void actions.unmute(alarm.trigger_cuid);
            }}
          >
            {translate('portal.alarms.unmute')}
          </MenuItem>,
        ]}
      </Menu>
    </>
  );
}
