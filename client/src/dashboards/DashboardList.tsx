import AddIcon from '@mui/icons-material/Add';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  FormControl,
  FormLabel,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Title, useCanAccess, useNotify, useTranslate } from 'react-admin';
import { usePageTitle } from '../theme/brand';
import { messageOf } from '../trpc';
import { DashboardCards } from './DashboardCards';
import { useCreateDashboard, useDashboardCompanies, useDashboardSystems, useMine, useRoles } from './api';

/** /dashboards: the dashboards made for the caller; "New dashboard" for those who may create one (level 0). */
export default function DashboardList() {
  const translate = useTranslate();
  usePageTitle(translate('portal.dashboards.title'));
  const mine = useMine();
  const { canAccess: canCreate } = useCanAccess({ resource: 'dashboard', action: 'create' });
  const [creating, setCreating] = useState(false);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="dashboard-list">
      <Title title="portal.dashboards.title" />
      <Stack direction="row" sx={{ alignItems: 'center', mb: 2, gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h5" component="h1">
            {translate('portal.dashboards.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('portal.dashboards.intro')}
          </Typography>
        </Box>
        {canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} data-testid="dashboard-create">
            {translate('portal.dashboards.create')}
          </Button>
        )}
      </Stack>
      {mine.isPending && <CircularProgress size={24} aria-label={translate('portal.dashboards.loading')} />}
      {mine.isError && <Alert severity="error">{translate('portal.dashboards.load_failed', { message: messageOf(mine.error) })}</Alert>}
      {mine.data && mine.data.length === 0 && <Typography color="text.secondary">{translate('portal.dashboards.none')}</Typography>}
      {mine.data && mine.data.length > 0 && <DashboardCards dashboards={mine.data} />}
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
    </Box>
  );
}

function CreateDialog({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'company' | 'system'>('company');
  const [owner, setOwner] = useState('');
  const [role, setRole] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const companies = useDashboardCompanies(kind === 'company');
  const systems = useDashboardSystems(kind === 'system');
  const roles = useRoles();
  const createDashboard = useCreateDashboard();
  const options = (kind === 'company' ? companies.data?.data : systems.data?.data) ?? [];

  const submit = async () => {
    if (!name.trim() || !owner) {
      setError(translate('portal.dashboards.form.required'));
      return;
    }
    setBusy(true);
    try {
      const created = await createDashboard.mutateAsync({ data: { name: name.trim(), entityowner_cuid: owner, role_cuid: role || null } });
      notify('portal.dashboards.created', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['dashboard.mine'] });
      void navigate(`/dashboards/${encodeURIComponent(String(created.data.id))}`);
    } catch (e) {
      setError(translate('portal.dashboards.save_failed', { message: messageOf(e) }));
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="dashboard-create-title">
      <DialogTitle id="dashboard-create-title">{translate('portal.dashboards.create_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            label={translate('portal.dashboards.name')}
            value={name}
            required
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'dashboard-name' } }}
          />
          <FormControl>
            <FormLabel id="dashboard-owner-kind">{translate('portal.dashboards.owner_kind')}</FormLabel>
            <RadioGroup
              row
              aria-labelledby="dashboard-owner-kind"
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as 'company' | 'system');
                setOwner('');
              }}
            >
              <FormControlLabel value="company" control={<Radio />} label={translate('portal.dashboards.kind_company')} />
              <FormControlLabel value="system" control={<Radio />} label={translate('portal.dashboards.kind_system')} />
            </RadioGroup>
          </FormControl>
          <TextField
            select
            required
            label={translate(kind === 'company' ? 'portal.dashboards.company' : 'portal.dashboards.system')}
            value={owner}
            onChange={(e) => setOwner(e.target.value)}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'dashboard-owner' } as object } }}
          >
            {options.map((o) => (
              <MenuItem key={String(o.id)} value={String(o.id)}>
                {String(o.name)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={translate('portal.dashboards.role')}
            value={role}
            onChange={(e) => setRole(e.target.value)}
            slotProps={{ select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'dashboard-role' } as object }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{translate('portal.dashboards.role_any')}</MenuItem>
            {(roles.data ?? []).map((r) => (
              <MenuItem key={r.role_cuid} value={r.role_cuid} data-testid={`dashboard-role-${r.level}`}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('portal.dashboards.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy} data-testid="dashboard-create-submit">
          {translate('portal.dashboards.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
