import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import { Badge } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useInboxUnreadCount } from './api';

/** The inbox's menu icon with the number of unread items (polled; "999+" past the server's cap). */
export function InboxIcon() {
  const translate = useTranslate();
  const count = useInboxUnreadCount();
  const total = count.data?.total ?? 0;
  return (
    <Badge
      badgeContent={count.data?.capped ? '999+' : total}
      color="error"
      max={999}
      invisible={total === 0}
      data-testid="inbox-badge"
      data-count={total}
      aria-label={total ? translate('portal.inbox.unread_count', { smart_count: total }) : undefined}
    >
      <InboxOutlinedIcon />
    </Badge>
  );
}
