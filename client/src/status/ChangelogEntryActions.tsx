import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { messageOf } from '../trpc';
import { useDeleteChangelogEntry, useUpdateChangelogEntry } from './api';
import { ChangelogFields } from '../systems/ChangelogFields';

export interface EditableEntry {
  id: string;
  title: string;
  message: string | null;
}

/**
 * Edit and Delete of a manual changelog entry (spec §6 changelog edit / delete: level 2), each in
 * a dialog. Shown only for entries the server lets the caller change; entries the portal wrote
 * never get them (the server refuses them anyway).
 */
export function ChangelogEntryActions({
  entry,
  canEdit,
  canDelete,
  onChanged,
}: {
  entry: EditableEntry;
  canEdit: boolean;
  canDelete: boolean;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState<'edit' | 'delete' | null>(null);
  const [title, setTitle] = useState(entry.title);
  const [message, setMessage] = useState(entry.message ?? '');
  const save = useUpdateChangelogEntry({
    onSuccess: () => {
      setOpen(null);
      onChanged();
    },
  });
  const remove = useDeleteChangelogEntry({
    onSuccess: () => {
      setOpen(null);
      onChanged();
    },
    onError: (e) => notify(translate('portal.status.action_failed', { message: messageOf(e) }), { type: 'error' }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim()) save.mutate({ id: entry.id, data: { title, message: message.trim() ? message : null } });
  };
  return (
    <Stack direction="row" spacing={0.5} aria-label={translate('portal.status.entry_actions', { title: entry.title })} role="group">
      {canEdit && (
        <Button
          size="small"
          onClick={() => {
            setTitle(entry.title);
            setMessage(entry.message ?? '');
            setOpen('edit');
          }}
          data-testid="changelog-edit"
        >
          {translate('portal.status.edit')}
        </Button>
      )}
      {canDelete && (
        <Button size="small" color="error" onClick={() => setOpen('delete')} data-testid="changelog-delete">
          {translate('portal.status.delete')}
        </Button>
      )}
      <Dialog open={open === 'edit'} onClose={() => setOpen(null)} aria-labelledby="changelog-edit-title" fullWidth maxWidth="sm">
        <form onSubmit={submit} data-testid="changelog-edit-dialog">
          <DialogTitle id="changelog-edit-title">{translate('portal.status.edit_title')}</DialogTitle>
          <DialogContent>
            <Stack spacing={1.5} sx={{ mt: 1 }}>
              <ChangelogFields title={title} message={message} onTitle={setTitle} onMessage={setMessage} testIdPrefix="changelog-edit" />
              {save.isError && <Alert severity="error">{translate('portal.status.action_failed', { message: messageOf(save.error) })}</Alert>}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(null)}>{translate('portal.status.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={!title.trim() || save.isPending} data-testid="changelog-edit-save">
              {translate('portal.status.save')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      <Dialog open={open === 'delete'} onClose={() => setOpen(null)} aria-labelledby="changelog-delete-title">
        <DialogTitle id="changelog-delete-title">{translate('portal.status.delete_title')}</DialogTitle>
        <DialogContent>{entry.title}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)} autoFocus>
            {translate('portal.status.cancel')}
          </Button>
          <Button color="error" variant="contained" onClick={() => remove.mutate(entry.id)} disabled={remove.isPending} data-testid="changelog-delete-confirm">
            {translate('portal.status.delete_confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
