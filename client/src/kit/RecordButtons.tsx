import { Alert, Box } from '@mui/material';
import type { ReactNode } from 'react';
import { DeleteWithConfirmButton, EditButton, SaveButton, Toolbar, useCanAccess, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import { DependentsNotice } from './DependentsNotice';
import { useCurrentRecordAccess } from './useRecordAccess';

/** Edit button shown only when the server's per-record rules (`<resource>.access`) allow it. */
export function AccessEditButton(props: { label?: string }) {
  const access = useCurrentRecordAccess();
  if (!access.edit) return null;
  return <EditButton {...props} />;
}

/** A list row's edit and delete, each shown only when `<resource>.access` allows it for that record. */
export function RowButtons() {
  const access = useCurrentRecordAccess();
  return (
    <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
      {access.edit ? <EditButton /> : null}
      {access.delete ? <DeleteWithConfirmButton mutationMode="pessimistic" /> : null}
    </Box>
  );
}

/** An edit form's toolbar: save only when the record may change, delete only when it may go. */
export function AccessEditToolbar() {
  const access = useCurrentRecordAccess();
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton disabled={!access.edit} />
      {access.delete ? <DeleteWithConfirmButton mutationMode="pessimistic" /> : null}
    </Toolbar>
  );
}

/**
 * Delete (with confirmation) shown only when `<resource>.access` says the record may go; the
 * confirmation says what happens to what depends on the record (`<resource>.dependents`).
 */
export function AccessDeleteButton(props: { mutationMode?: 'pessimistic' | 'optimistic' | 'undoable' }) {
  const access = useCurrentRecordAccess();
  const resource = useResourceContext() ?? '';
  const record = useRecordContext();
  if (!access.delete) return null;
  return (
    <DeleteWithConfirmButton
      mutationMode={props.mutationMode ?? 'pessimistic'}
      confirmContent={record ? <DependentsNotice resource={resource} ids={[record.id]} plain="portal.kit.dependents.sure" /> : undefined}
    />
  );
}

/**
 * Wraps an edit form's fields: when the record may not be changed (a system shared read-only …)
 * says so and disables every input inside (a disabled fieldset), and `children(readOnly)` can drop
 * the save toolbar.
 */
export function ReadOnlyGate({ children }: { children: (readOnly: boolean) => ReactNode }) {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const access = useCurrentRecordAccess();
  const { canAccess: canEditCoarse } = useCanAccess({ resource, action: 'edit' });
  const readOnly = access.isPending ? true : !(access.edit && canEditCoarse !== false);
  return (
    <>
      {!access.isPending && readOnly ? (
        <Alert severity="info" sx={{ m: 2 }} data-testid="read-only-notice">
          {translate('portal.kit.access.read_only')}
        </Alert>
      ) : null}
      <Box component="fieldset" disabled={readOnly} data-readonly={readOnly ? 'true' : 'false'} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        {children(readOnly)}
      </Box>
    </>
  );
}
