import DeleteIcon from '@mui/icons-material/Delete';
import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  IconButton,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Confirm, useCanAccess, useCreate, useDelete, useGetList, useNotify, useTranslate, useUpdate, type RaRecord } from 'react-admin';
import { useRecordAccess } from '../kit/useRecordAccess';

interface Share extends RaRecord {
  system_cuid: string;
  company_cuid: string;
  company_name?: string;
  change: boolean;
}

/**
 * The partner companies a system is shared with: who sees it, who may change it. Adding needs the
 * partner company's identifier (its cuid: companies do not see each other's lists). Buttons only
 * for users the server lets change this system's shares.
 */
export function SystemSharingPanel({ system }: { system: RaRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const systemCuid = String(system.id);
  const {
    data: shares = [],
    isPending,
    error,
    refetch,
  } = useGetList<Share>('systemSharing', {
    filter: { system_cuid: systemCuid },
    pagination: { page: 1, perPage: 1000 },
    sort: { field: 'company_name', order: 'ASC' },
  });
  const systemAccess = useRecordAccess('system', [systemCuid]);
  const shareAccess = useRecordAccess(
    'systemSharing',
    shares.map((s) => s.id),
  );
  const { canAccess: mayCreate } = useCanAccess({ resource: 'systemSharing', action: 'create' });
  const mayAdd = mayCreate === true && systemAccess.canEdit(systemCuid);

  const [create, { isPending: creating }] = useCreate();
  const [update] = useUpdate();
  const [remove] = useDelete();
  const [partner, setPartner] = useState('');
  const [change, setChange] = useState(false);
  const [toRemove, setToRemove] = useState<Share | null>(null);

  const after = async () => {
    await refetch();
    await shareAccess.refetch();
  };
  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    const company_cuid = partner.trim();
    if (!company_cuid) return;
    void create(
      'systemSharing',
      { data: { system_cuid: systemCuid, company_cuid, change } },
      {
        onSuccess: () => {
          setPartner('');
          setChange(false);
          notify('portal.fleet.sharing.added', { type: 'info' });
          void after();
        },
        onError: (err) => notify(err instanceof Error ? err.message : String(err), { type: 'error' }),
      },
    );
  };
  const onToggle = (share: Share) =>
    update(
      'systemSharing',
      { id: share.id, data: { change: !share.change }, previousData: share },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => void after(),
        onError: (err) => notify(err instanceof Error ? err.message : String(err), { type: 'error' }),
      },
    );
  const onRemove = () => {
    if (!toRemove) return;
    void remove(
      'systemSharing',
      { id: toRemove.id, previousData: toRemove },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('portal.fleet.sharing.removed', { type: 'info' });
          void after();
        },
        onError: (err) => notify(err instanceof Error ? err.message : String(err), { type: 'error' }),
      },
    );
    setToRemove(null);
  };

  return (
    <Box sx={{ p: 2 }} data-testid="sharing-panel">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('portal.fleet.sharing.intro')}
      </Typography>
      {error ? <Alert severity="error">{error instanceof Error ? error.message : String(error)}</Alert> : null}
      {!isPending && shares.length === 0 ? <Typography sx={{ mb: 2 }}>{translate('portal.fleet.sharing.none')}</Typography> : null}
      {shares.length > 0 ? (
        <Table size="small" sx={{ mb: 2 }} data-testid="sharing-table">
          <TableHead>
            <TableRow>
              <TableCell>{translate('portal.fleet.sharing.company')}</TableCell>
              <TableCell>{translate('portal.fleet.sharing.change')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {shares.map((share) => (
              <TableRow key={share.id} data-company={share.company_cuid}>
                <TableCell>
                  {share.company_name ?? ''}
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {share.company_cuid}
                  </Typography>
                </TableCell>
                <TableCell>
                  <Switch
                    checked={share.change}
                    disabled={!shareAccess.canEdit(share.id)}
                    onChange={() => onToggle(share)}
                    slotProps={{ input: { 'aria-label': translate('portal.fleet.sharing.change') } }}
                  />
                </TableCell>
                <TableCell align="right">
                  {shareAccess.canDelete(share.id) ? (
                    <Tooltip title={translate('portal.fleet.sharing.remove')}>
                      <IconButton aria-label={translate('portal.fleet.sharing.remove')} onClick={() => setToRemove(share)}>
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {mayAdd ? (
        <Box component="form" onSubmit={onAdd} sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            size="small"
            label={translate('portal.fleet.sharing.partner')}
            helperText={translate('portal.fleet.sharing.partner_help')}
            value={partner}
            onChange={(e) => setPartner(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'share-company', maxLength: 64 } }}
          />
          <FormControlLabel
            control={<Switch checked={change} onChange={(e) => setChange(e.target.checked)} />}
            label={translate('portal.fleet.sharing.change')}
          />
          <Button type="submit" variant="contained" disabled={creating || !partner.trim()} data-testid="share-add">
            {translate('portal.fleet.sharing.add')}
          </Button>
        </Box>
      ) : null}
      <Confirm
        isOpen={toRemove !== null}
        title="portal.fleet.sharing.remove_title"
        titleTranslateOptions={{ name: toRemove?.company_name ?? toRemove?.company_cuid ?? '' }}
        content="portal.fleet.sharing.remove_content"
        onConfirm={onRemove}
        onClose={() => setToRemove(null)}
      />
    </Box>
  );
}
