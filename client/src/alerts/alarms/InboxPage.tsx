import DoneAllIcon from '@mui/icons-material/DoneAll';
import { Alert, Box, Button, Chip, CircularProgress, FormControlLabel, Link, List, ListItem, ListItemText, Stack, Switch } from '@mui/material';
import { TablePagination } from '../../kit/TablePagination';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../../theme/brand';
import { SeverityChip } from '../setup/severity';
import { messageOf } from '../../trpc';
import { formatDeviceTime, useInboxList, useMarkInboxRead, type InboxItem, type MarkReadInput } from './api';

/** The notification inbox: portal notifications and alarms in one list, newest first, with the user's read state. */
export default function InboxPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const queryClient = useQueryClient();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(25);
  usePageTitle(translate('portal.inbox.menu'));
  const list = useInboxList(unreadOnly, page, perPage);
  const markReadMutation = useMarkInboxRead();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['inbox'] });
  const markRead = (input: MarkReadInput) =>
    markReadMutation
      .mutateAsync(input)
      .then(refresh)
      .catch((error: unknown) => notify('portal.alarms.action_failed', { type: 'error', messageArgs: { message: messageOf(error) } }));
  const open = (item: InboxItem) => {
    if (!item.read) void markRead({ items: [{ kind: item.kind, notification_cuid: item.notification_cuid }] });
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="inbox-page">
      <Title title="portal.inbox.menu" />
      <Stack direction="row" spacing={2} sx={{ mb: 1, alignItems: 'center' }}>
        <FormControlLabel
          control={
            <Switch
              checked={unreadOnly}
              onChange={(e) => (setUnreadOnly(e.target.checked), setPage(0))}
              slotProps={{ input: { 'aria-label': translate('portal.inbox.unread_only') } }}
            />
          }
          label={translate('portal.inbox.unread_only')}
        />
        <Button startIcon={<DoneAllIcon />} onClick={() => void markRead({ all: true })} data-testid="inbox-mark-all">
          {translate('portal.inbox.mark_all')}
        </Button>
      </Stack>
      {list.isError && <Alert severity="error">{translate('portal.alarms.load_failed', { message: messageOf(list.error) })}</Alert>}
      {list.isPending ? (
        <CircularProgress size={20} aria-label={translate('portal.app.loading')} />
      ) : list.data?.data.length === 0 ? (
        <Alert severity="info" data-testid="inbox-empty">
          {translate('portal.inbox.empty')}
        </Alert>
      ) : (
        <List aria-label={translate('portal.inbox.menu')} data-testid="inbox-list">
          {(list.data?.data ?? []).map((item) => (
            <ListItem
              key={item.id}
              divider
              data-testid="inbox-item"
              data-kind={item.kind}
              data-read={item.read}
              sx={{ bgcolor: item.read ? undefined : 'action.hover', alignItems: 'flex-start', gap: 1 }}
              secondaryAction={
                !item.read && (
                  <Button
                    size="small"
                    onClick={() => void markRead({ items: [{ kind: item.kind, notification_cuid: item.notification_cuid }] })}
                    data-testid="inbox-mark-read"
                  >
                    {translate('portal.inbox.mark_read')}
                  </Button>
                )
              }
            >
              <SeverityChip severity={item.severity_level} />
              <ListItemText
                primary={
                  <Link
                    component={RouterLink}
                    to={item.target}
                    onClick={() => open(item)}
                    sx={{ fontWeight: item.read ? 400 : 700, display: 'inline-flex', alignItems: 'center', minHeight: 44 }}
                  >
                    {item.kind === 'alarm'
                      ? `${item.system_name}: ${item.trigger_name ?? ''}`
                      : `${item.system_name}: ${translate(`portal.inbox.type.${item.type ?? 'CHANGELOG'}`)}`}
                  </Link>
                }
                secondary={
                  <>
                    {item.message}
                    <br />
                    <time dateTime={new Date(item.sent_at).toISOString()}>{formatDeviceTime(item.sent_at, item.timezone, locale ?? 'en')}</time>
                    {' · '}
                    <Chip component="span" size="small" variant="outlined" label={translate(item.read ? 'portal.inbox.read' : 'portal.inbox.unread')} />
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
      )}
      <TablePagination
        component="div"
        count={list.data?.total ?? 0}
        page={page}
        onPageChange={(_, p) => setPage(p)}
        rowsPerPage={perPage}
        onRowsPerPageChange={(e) => (setPerPage(Number(e.target.value)), setPage(0))}
        rowsPerPageOptions={[10, 25, 50, 100]}
      />
    </Box>
  );
}
