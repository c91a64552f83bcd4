import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField, Button as MuiButton, Tooltip } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  Confirm,
  useDataProvider,
  useGetList,
  useListContext,
  useNotify,
  useRefresh,
  useResourceContext,
  useTranslate,
  useCanAccess,
  type RaRecord,
} from 'react-admin';
import { useRecordAccess } from './useRecordAccess';
import { DependentsNotice } from './DependentsNotice';

/** A field that several records can get the same value at once (updateMany). */
export interface BulkEditField {
  source: string;
  /** i18n key or text. */
  label: string;
  choices?: { id: string; name: string }[];
  /** Values from another resource (e.g. site_cuid → site, optionText name). */
  reference?: { resource: string; optionText: string };
  /** Allows "no value" (null). */
  nullable?: boolean;
}

const NONE = '\u0000none';

/**
 * Bulk actions of a list: delete with confirmation, and (when given) change one field of every
 * selected record. Both are disabled when the server's per-record rules refuse one of them.
 */
export function BulkActions({ edit = [] }: { edit?: BulkEditField[] }) {
  const resource = useResourceContext() ?? '';
  const { selectedIds } = useListContext<RaRecord>();
  const access = useRecordAccess(resource, selectedIds);
  const { canAccess: mayDelete } = useCanAccess({ resource, action: 'delete' });
  const { canAccess: mayEdit } = useCanAccess({ resource, action: 'edit' });
  const notDeletable = selectedIds.filter((id) => !access.canDelete(id)).length;
  const notEditable = selectedIds.filter((id) => !access.canEdit(id)).length;
  return (
    <>
      {edit.length > 0 && mayEdit ? <BulkEditButton fields={edit} blocked={access.isPending ? -1 : notEditable} /> : null}
      {mayDelete ? <BulkDeleteButton blocked={access.isPending ? -1 : notDeletable} /> : null}
    </>
  );
}

function BlockedTooltip({ blocked, children }: { blocked: number; children: React.ReactElement }) {
  const translate = useTranslate();
  if (blocked <= 0) return children;
  return (
    <Tooltip title={translate('portal.kit.bulk.not_allowed', { smart_count: blocked })}>
      <span>{children}</span>
    </Tooltip>
  );
}

function useAfterBulk() {
  const resource = useResourceContext() ?? '';
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  const { onUnselectItems } = useListContext();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: [resource] });
    onUnselectItems();
    refresh();
  };
}

function BulkDeleteButton({ blocked }: { blocked: number }) {
  const resource = useResourceContext() ?? '';
  const { selectedIds } = useListContext<RaRecord>();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const after = useAfterBulk();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const onConfirm = async () => {
    setBusy(true);
    try {
      let deleted = 0;
      for (let i = 0; i < selectedIds.length; i += 1000) {
        const { data } = await dataProvider.deleteMany(resource, { ids: selectedIds.slice(i, i + 1000) });
        deleted += data?.length ?? 0;
      }
      notify('portal.kit.bulk.deleted', { type: 'info', messageArgs: { smart_count: deleted } });
      await after();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <>
      <BlockedTooltip blocked={blocked}>
        <Button label="portal.kit.bulk.delete" color="error" onClick={() => setOpen(true)} disabled={blocked !== 0} data-testid="bulk-delete">
          <DeleteIcon />
        </Button>
      </BlockedTooltip>
      <Confirm
        isOpen={open}
        loading={busy}
        title="portal.kit.bulk.delete_title"
        titleTranslateOptions={{ smart_count: selectedIds.length }}
        content={open ? <DependentsNotice resource={resource} ids={selectedIds} plain="portal.kit.bulk.delete_content" /> : 'portal.kit.bulk.delete_content'}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

function BulkEditButton({ fields, blocked }: { fields: BulkEditField[]; blocked: number }) {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const { selectedIds } = useListContext<RaRecord>();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const after = useAfterBulk();
  const [open, setOpen] = useState(false);
  const [source, setSource] = useState(fields[0]?.source ?? '');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const field = fields.find((f) => f.source === source) ?? fields[0];
  const ref = field?.reference;
  const { data: refData } = useGetList<RaRecord>(
    ref?.resource ?? resource,
    { pagination: { page: 1, perPage: 1000 }, sort: { field: ref?.optionText ?? 'id', order: 'ASC' } },
    { enabled: open && !!ref },
  );
  const refChoices = (refData ?? []).map((r) => ({ id: String(r.id), name: String(r[ref?.optionText ?? 'id'] ?? r.id) }));
  const choices = field?.choices ?? (ref ? refChoices : null);

  const apply = async () => {
    setBusy(true);
    try {
      const v = value === NONE ? null : value;
      let updated = 0;
      for (let i = 0; i < selectedIds.length; i += 1000) {
        const { data } = await dataProvider.updateMany(resource, { ids: selectedIds.slice(i, i + 1000), data: { [field.source]: v } });
        updated += data?.length ?? 0;
      }
      notify('portal.kit.bulk.updated', { type: 'info', messageArgs: { smart_count: updated } });
      setOpen(false);
      await after();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <BlockedTooltip blocked={blocked}>
        <Button label="portal.kit.bulk.edit" onClick={() => setOpen(true)} disabled={blocked !== 0} data-testid="bulk-edit">
          <EditIcon />
        </Button>
      </BlockedTooltip>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="xs" aria-labelledby="bulk-edit-title">
        <DialogTitle id="bulk-edit-title">{translate('portal.kit.bulk.edit_title', { smart_count: selectedIds.length })}</DialogTitle>
        <DialogContent>
          <TextField
            select
            fullWidth
            margin="normal"
            label={translate('portal.kit.bulk.edit_field')}
            value={field?.source ?? ''}
            onChange={(e) => {
              setSource(e.target.value);
              setValue('');
            }}
            slotProps={{ htmlInput: { 'data-testid': 'bulk-edit-field' } }}
          >
            {fields.map((f) => (
              <MenuItem key={f.source} value={f.source}>
                {translate(f.label, { _: f.label })}
              </MenuItem>
            ))}
          </TextField>
          {choices ? (
            <TextField
              select
              fullWidth
              margin="normal"
              label={translate('portal.kit.bulk.edit_value')}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            >
              {field?.nullable ? <MenuItem value={NONE}>—</MenuItem> : null}
              {choices.map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <TextField fullWidth margin="normal" label={translate('portal.kit.bulk.edit_value')} value={value} onChange={(e) => setValue(e.target.value)} />
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)} disabled={busy}>
            {translate('portal.kit.bulk.cancel')}
          </MuiButton>
          <MuiButton variant="contained" onClick={() => void apply()} disabled={busy || value === ''} data-testid="bulk-edit-apply">
            {translate('portal.kit.bulk.apply')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
