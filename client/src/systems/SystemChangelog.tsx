import { Alert, Box, Button, Card, CardContent, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useCanAccess, useLocaleState, useTranslate } from 'react-admin';
import { messageOf, trpc } from '../trpc';
import { fullLabel } from './chart-time';

const PAGE = 20;

/** A changelog entry as `systemChangelog.getManyReference` answers it. */
interface Entry {
  id: string;
  timestamp: Date | string;
  title: string;
  message: string | null;
  author_name: string | null;
}

/**
 * The changelog tab of a system page: entries newest first (author, time in the system's time
 * zone), more on demand, and a short form to add one for those who may (spec §6: level 2).
 * Titles and messages are shown as text, never as markup.
 */
export default function SystemChangelog({ systemCuid, timezone }: { systemCuid: string; timezone: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { canAccess: canCreate } = useCanAccess({ resource: 'systemChangelog', action: 'create' });
  const entries = useInfiniteQuery({
    queryKey: ['systemChangelog', systemCuid],
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      trpc.systemChangelog.getManyReference.query(
        { target: 'system_cuid', id: systemCuid, pagination: { page: pageParam, perPage: PAGE }, sort: { field: 'timestamp', order: 'DESC' }, filter: {} },
        { signal },
      ),
    getNextPageParam: (last, all) => (all.length * PAGE < last.total ? all.length + 1 : undefined),
  });
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const add = useMutation({
    mutationFn: () => trpc.systemChangelog.create.mutate({ system_cuid: systemCuid, title, message }),
    onSuccess: async () => {
      setTitle('');
      setMessage('');
      await entries.refetch();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim()) add.mutate();
  };
  const rows = (entries.data?.pages.flatMap((p) => p.data) ?? []) as unknown as Entry[];
  const total = entries.data?.pages[0]?.total ?? 0;

  return (
    <Stack spacing={2} data-testid="system-changelog">
      {canCreate && (
        <Card variant="outlined">
          <CardContent component="form" onSubmit={submit} aria-label={translate('portal.system.changelog_add')}>
            <Stack spacing={1.5}>
              <TextField
                label={translate('portal.system.changelog_title')}
                value={title}
                onChange={(e) => setTitle(e.target.value)}
                required
                size="small"
                slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'changelog-title' } }}
              />
              <TextField
                label={translate('portal.system.changelog_message')}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                multiline
                minRows={2}
                size="small"
                slotProps={{ htmlInput: { maxLength: 10_000, 'data-testid': 'changelog-message' } }}
              />
              <Box>
                <Button type="submit" variant="contained" disabled={!title.trim() || add.isPending} data-testid="changelog-add">
                  {translate('portal.system.changelog_add')}
                </Button>
              </Box>
              {add.isError && <Alert severity="error">{translate('portal.system.changelog_failed', { message: messageOf(add.error) })}</Alert>}
            </Stack>
          </CardContent>
        </Card>
      )}
      {entries.isError && <Alert severity="error">{translate('portal.system.load_failed', { message: messageOf(entries.error) })}</Alert>}
      {entries.isSuccess && rows.length === 0 && <Alert severity="info">{translate('portal.system.changelog_empty')}</Alert>}
      {rows.length > 0 && (
        <Card variant="outlined">
          <List dense aria-label={translate('portal.system.tab_changelog')} data-testid="changelog-entries">
            {rows.map((r) => (
              <ListItem key={r.id} divider alignItems="flex-start" data-testid="changelog-entry">
                <ListItemText
                  primary={r.title}
                  secondary={
                    <>
                      <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                        {translate('portal.system.changelog_by', {
                          time: fullLabel(new Date(r.timestamp).getTime(), locale, timezone),
                          author: r.author_name ?? '—',
                        })}
                      </Typography>
                      {r.message && (
                        <Typography component="span" variant="body2" sx={{ display: 'block', whiteSpace: 'pre-wrap' }}>
                          {r.message}
                        </Typography>
                      )}
                    </>
                  }
                />
              </ListItem>
            ))}
          </List>
          {entries.hasNextPage && (
            <Box sx={{ p: 1 }}>
              <Button onClick={() => entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
                {translate('portal.system.changelog_more', { shown: rows.length, total })}
              </Button>
            </Box>
          )}
        </Card>
      )}
    </Stack>
  );
}
