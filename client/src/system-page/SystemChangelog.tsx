import { Alert, Box, Button, Card, CardContent, Chip, List, ListItem, ListItemText, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useCanAccess, useLocaleState, useTranslate } from 'react-admin';
import { ChangelogEntryActions, type EditableEntry } from '../status/ChangelogEntryActions';
import { messageOf } from '../trpc';
import { addChangelogEntry, useChangelogAccess, useChangelogPages } from './api';
import { fullLabel } from '../systems/chart-time';
import { ChangelogFields } from '../systems/ChangelogFields';
import { ownEntry } from '../../../shared/common/own-entry';

/** The changelog filter: every entry, people's entries (MANUAL), or the portal's own (COMMAND, CONFIGURATION, MUTE). */
type Show = 'all' | 'manual' | 'automatic';
const KIND_FILTER: Record<Show, Record<string, string | string[]>> = {
  all: {},
  manual: { kind: 'MANUAL' },
  automatic: { kind: ['COMMAND', 'CONFIGURATION', 'MUTE'] },
};

const PAGE = 20;

/** A changelog entry as `systemChangelog.getManyReference` answers it. */
interface Entry {
  id: string;
  timestamp: Date | string;
  title: string;
  message: string | null;
  author_name: string | null;
  kind: 'MANUAL' | 'COMMAND' | 'CONFIGURATION' | 'MUTE';
}

/**
 * The changelog tab of a system page: entries newest first (author, time in the system's time
 * zone), more on demand, and a short form to add one for those who may (spec §6: level 2).
 * A filter shows all, manual or automatic entries (the portal's: commands, configuration, mutes),
 * each with its kind; manual entries can be edited and deleted by those the server allows
 * (`systemChangelog.access`), automatic ones never. Titles and messages are shown as text, never as markup.
 */
export default function SystemChangelog({ systemCuid, timezone }: { systemCuid: string; timezone: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { canAccess: canCreate } = useCanAccess({ resource: 'systemChangelog', action: 'create' });
  const [show, setShow] = useState<Show>('all');
  const entries = useChangelogPages(systemCuid, show, KIND_FILTER[show], PAGE);
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const add = useMutation({
    mutationFn: () => addChangelogEntry({ system_cuid: systemCuid, title, message }),
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
  const manualIds = rows.filter((r) => r.kind === 'MANUAL').map((r) => r.id);
  // Who may edit or delete which manual entry (level 2 in the owner company, or the author): the server says.
  const access = useChangelogAccess(systemCuid, manualIds);

  return (
    <Stack spacing={2} data-testid="system-changelog">
      {canCreate && (
        <Card variant="outlined">
          <CardContent component="form" onSubmit={submit} aria-label={translate('portal.system.changelog_add')}>
            <Stack spacing={1.5}>
              <ChangelogFields title={title} message={message} onTitle={setTitle} onMessage={setMessage} testIdPrefix="changelog" />
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
      <ToggleButtonGroup
        value={show}
        exclusive
        size="small"
        onChange={(_, v: Show | null) => v && setShow(v)}
        aria-label={translate('portal.status.changelog_filter')}
        data-testid="changelog-filter"
      >
        <ToggleButton value="all" data-testid="changelog-show-all">
          {translate('portal.status.changelog_all')}
        </ToggleButton>
        <ToggleButton value="manual" data-testid="changelog-show-manual">
          {translate('portal.status.changelog_manual')}
        </ToggleButton>
        <ToggleButton value="automatic" data-testid="changelog-show-automatic">
          {translate('portal.status.changelog_automatic')}
        </ToggleButton>
      </ToggleButtonGroup>
      {entries.isError && <Alert severity="error">{translate('portal.system.load_failed', { message: messageOf(entries.error) })}</Alert>}
      {entries.isSuccess && rows.length === 0 && <Alert severity="info">{translate('portal.system.changelog_empty')}</Alert>}
      {rows.length > 0 && (
        <Card variant="outlined">
          <List dense aria-label={translate('portal.system.tab_changelog')} data-testid="changelog-entries">
            {rows.map((r) => (
              <ListItem
                key={r.id}
                divider
                alignItems="flex-start"
                data-testid="changelog-entry"
                data-kind={r.kind}
                secondaryAction={
                  r.kind === 'MANUAL' && (ownEntry(access.data?.data, r.id)?.edit || ownEntry(access.data?.data, r.id)?.delete) ? (
                    <ChangelogEntryActions
                      entry={r as EditableEntry}
                      canEdit={!!ownEntry(access.data?.data, r.id)?.edit}
                      canDelete={!!ownEntry(access.data?.data, r.id)?.delete}
                      onChanged={() => entries.refetch()}
                    />
                  ) : undefined
                }
              >
                <ListItemText
                  primary={
                    <>
                      <Chip
                        size="small"
                        variant="outlined"
                        color={r.kind === 'MANUAL' ? 'default' : 'info'}
                        label={translate(`portal.status.kind.${r.kind}`)}
                        sx={{ mr: 1 }}
                        data-testid="changelog-kind"
                      />
                      {r.title}
                    </>
                  }
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
