import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Alert, Box, Button, CircularProgress, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { Title, useCanAccess, useNotify, useTranslate } from 'react-admin';
import { RANGE_PRESETS, type TDashboardLayout, type TDashboardRange, type TWidget, ZDashboardLayout } from '../../../shared/dashboards/dashboard-layout.schema';
import { usePageTitle } from '../theme/brand';
import { httpStatusOf, messageOf } from '../trpc';
import { dashboardKey, useDashboard, useUpdateDashboard } from './api';
import { fromLocalInput, rangeOf, toLocalInput } from './range';

// The grid library (and its styles) and the widget form come in their own chunks.
const DashboardGrid = lazy(() => import('./DashboardGrid'));
const WidgetForm = lazy(() => import('./WidgetForm'));

const EMPTY: TDashboardLayout = { range: { preset: 'last_7d' }, widgets: [] };

/** A stored layout as the page uses it; one that no longer reads (written by hand) shows as empty. */
function layoutOf(meta: unknown): TDashboardLayout {
  const parsed = ZDashboardLayout.safeParse(meta ?? {});
  return parsed.success ? parsed.data : EMPTY;
}

/** /dashboards/:id, or a system page's "Dashboard" tab (`id` given). */
export default function DashboardPage({ id: given, embedded = false }: { id?: string; embedded?: boolean }) {
  const params = useParams();
  const id = given ?? params.id ?? '';
  const translate = useTranslate();
  const one = useDashboard(id);
  const record = one.data?.data as { dashboard_cuid: string; name: string; meta: unknown } | undefined;

  const title = embedded ? null : <PageTitle title={record?.name ?? translate('portal.dashboards.title')} />;
  if (one.isPending) {
    return (
      <Box sx={{ p: 3 }} role="status">
        {title}
        <CircularProgress size={24} aria-label={translate('portal.dashboards.loading')} />
      </Box>
    );
  }
  if (one.isError) {
    const status = httpStatusOf(one.error);
    const notFound = status === 404 || status === 403;
    return (
      <Box sx={{ p: 3 }} data-testid={notFound ? 'dashboard-not-found' : 'dashboard-error'}>
        {title}
        {!embedded && <Title title="portal.dashboards.title" />}
        <Alert severity={notFound ? 'warning' : 'error'} sx={{ mb: 2 }}>
          {notFound ? translate('portal.dashboards.not_found') : translate('portal.dashboards.load_failed', { message: messageOf(one.error) })}
        </Alert>
        <Button component={RouterLink} to="/dashboards" variant="outlined">
          {translate('portal.dashboards.back')}
        </Button>
      </Box>
    );
  }
  if (!record) return null;
  return (
    <>
      {title}
      <Dashboard key={record.dashboard_cuid} id={record.dashboard_cuid} name={record.name} saved={layoutOf(record.meta)} embedded={embedded} />
    </>
  );
}

/** The browser tab's title (not on a system page, which has its own). */
function PageTitle({ title }: { title: string }) {
  usePageTitle(title);
  return null;
}

function Dashboard({ id, name, saved, embedded }: { id: string; name: string; saved: TDashboardLayout; embedded: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { canAccess: canEdit } = useCanAccess({ resource: 'dashboard', action: 'edit' });
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<TDashboardLayout>(saved);
  const [viewRange, setViewRange] = useState<TDashboardRange>(saved.range);
  const [form, setForm] = useState<{ widget?: TWidget } | null>(null);
  const [busy, setBusy] = useState(false);
  const updateDashboard = useUpdateDashboard();
  const layout = editing ? draft : { ...saved, range: viewRange };
  const range = useMemo(() => rangeOf(layout.range), [layout.range]);

  const setRange = (r: TDashboardRange) => (editing ? setDraft((d) => ({ ...d, range: r })) : setViewRange(r));
  const startEdit = () => {
    setDraft({ ...saved, range: viewRange });
    setEditing(true);
  };
  const save = async () => {
    setBusy(true);
    try {
      await updateDashboard.mutateAsync({ id, data: { meta: draft } });
      notify('portal.dashboards.saved', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: dashboardKey(id) });
      setViewRange(draft.range);
      setEditing(false);
    } catch (e) {
      notify('portal.dashboards.save_failed', { type: 'error', messageArgs: { message: messageOf(e) } });
    } finally {
      setBusy(false);
    }
  };
  const onLayout = (positions: readonly { i: string; x: number; y: number; w: number; h: number }[]) =>
    setDraft((d) => ({
      ...d,
      widgets: d.widgets.map((w) => {
        const p = positions.find((x) => x.i === w.id);
        return p ? { ...w, x: p.x, y: p.y, w: p.w, h: p.h } : w;
      }),
    }));
  const submitWidget = (widget: TWidget) => {
    setDraft((d) => ({
      ...d,
      widgets: d.widgets.some((w) => w.id === widget.id) ? d.widgets.map((w) => (w.id === widget.id ? widget : w)) : [...d.widgets, widget],
    }));
    setForm(null);
  };

  return (
    <Box sx={{ p: embedded ? 0 : { xs: 1, sm: 2 } }} data-testid="dashboard-page" data-dashboard={id}>
      {!embedded && <Title title={name} />}
      <Stack direction={{ xs: 'column', md: 'row' }} sx={{ mb: 2, gap: 2, alignItems: { md: 'center' } }}>
        <Typography variant={embedded ? 'h6' : 'h5'} component={embedded ? 'h2' : 'h1'} sx={{ flex: 1 }} data-testid="dashboard-name">
          {name}
        </Typography>
        <RangePicker value={layout.range} onChange={setRange} />
        {canEdit && !editing && (
          <Button variant="outlined" startIcon={<EditIcon />} onClick={startEdit} data-testid="dashboard-edit">
            {translate('portal.dashboards.edit')}
          </Button>
        )}
        {editing && (
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setForm({})} data-testid="dashboard-add-widget">
              {translate('portal.dashboards.add_widget')}
            </Button>
            <Button onClick={() => setEditing(false)} disabled={busy} data-testid="dashboard-cancel">
              {translate('portal.dashboards.cancel')}
            </Button>
            <Button variant="contained" onClick={save} disabled={busy} data-testid="dashboard-save">
              {translate('portal.dashboards.save')}
            </Button>
          </Stack>
        )}
      </Stack>
      {editing && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('portal.dashboards.editing')}
        </Typography>
      )}
      {layout.widgets.length === 0 ? (
        <Typography color="text.secondary" data-testid="dashboard-empty">
          {translate('portal.dashboards.empty')}
        </Typography>
      ) : (
        <Suspense fallback={<CircularProgress size={24} />}>
          <DashboardGrid
            widgets={layout.widgets}
            range={range}
            editing={editing}
            onLayout={onLayout}
            onRemove={(wid) => setDraft((d) => ({ ...d, widgets: d.widgets.filter((w) => w.id !== wid) }))}
            onSettings={(wid) => setForm({ widget: draft.widgets.find((w) => w.id === wid) })}
          />
        </Suspense>
      )}
      {form && (
        <Suspense fallback={null}>
          <WidgetForm widget={form.widget} widgets={draft.widgets} onClose={() => setForm(null)} onSubmit={submitWidget} />
        </Suspense>
      )}
    </Box>
  );
}

/** The dashboard's range: a preset, or a custom start and end (applies to every widget). */
function RangePicker({ value, onChange }: { value: TDashboardRange; onChange: (r: TDashboardRange) => void }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }} useFlexGap>
      <TextField
        select
        size="small"
        label={translate('portal.dashboards.range')}
        value={value.preset}
        sx={{ minWidth: 180 }}
        onChange={(e) => {
          const preset = e.target.value as TDashboardRange['preset'];
          if (preset !== 'custom') return onChange({ preset });
          const r = rangeOf(value);
          onChange({ preset, from: r.from.toISOString(), to: r.to.toISOString() });
        }}
        slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'dashboard-range' } as object } }}
      >
        {RANGE_PRESETS.map((p) => (
          <MenuItem key={p} value={p} data-testid={`dashboard-range-${p}`}>
            {translate(`portal.dashboards.presets.${p}`)}
          </MenuItem>
        ))}
      </TextField>
      {value.preset === 'custom' && (
        <>
          <TextField
            size="small"
            type="datetime-local"
            label={translate('portal.dashboards.from')}
            value={toLocalInput(value.from)}
            onChange={(e) => onChange({ ...value, from: fromLocalInput(e.target.value) ?? value.from })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="datetime-local"
            label={translate('portal.dashboards.to')}
            value={toLocalInput(value.to)}
            onChange={(e) => onChange({ ...value, to: fromLocalInput(e.target.value) ?? value.to })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </>
      )}
    </Stack>
  );
}
