import { formatNumber } from '../i18n/format';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  InputLabel,
  LinearProgress,
  MenuItem,
  Radio,
  RadioGroup,
  Select,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { CreateBase, ResourceContextProvider, SimpleForm, TextInput, required, useCanAccess, useLocaleState, useTranslate } from 'react-admin';
import { fullLabel } from '../systems/chart-time';
import { messageOf } from '../trpc';
import { exportTemplatesKey, useCancelExport, useExportTemplates, useStartExport } from './api';
import { fieldErrorsOf, isActive, jobLine, percentOf, sizeLabel, type ExportJob } from './job';
import { defaultDecimal, EXPORT_PRESETS, exportRange, fromLocalInput, toLocalInput, type ExportPreset } from './range';
import { cleanTemplate, NEW_TEMPLATE_CONFIG, TemplateConfigInputs } from './TemplateInputs';

const T = 'portal.exports';

export interface ExportDialogProps {
  systemCuid: string;
  systemName: string;
  timezone: string;
  /** The job this dialog started, as last polled (the parent polls it, also in the background). */
  job: ExportJob | undefined;
  onStarted: (job: ExportJob) => void;
  onNewExport: () => void;
  onClose: () => void;
}

const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

/** The export dialog of a system: template, range, format, zone, decimal; then the job's progress and its download link. */
export default function ExportDialog(props: ExportDialogProps) {
  const translate = useTranslate();
  const [started, setStarted] = useState<ExportJob | null>(null);
  const [creating, setCreating] = useState(false);
  const job = props.job ?? started ?? undefined;
  return (
    <Dialog open onClose={props.onClose} maxWidth={creating ? 'lg' : 'sm'} fullWidth aria-labelledby="export-dialog-title" data-testid="export-dialog">
      <DialogTitle id="export-dialog-title">
        {creating ? translate(`${T}.new_template_title`) : translate(`${T}.title`, { name: props.systemName })}
      </DialogTitle>
      {job ? (
        <JobView
          job={job}
          onClose={props.onClose}
          onNewExport={() => {
            setStarted(null);
            props.onNewExport();
          }}
        />
      ) : creating ? (
        <NewTemplate systemCuid={props.systemCuid} onDone={() => setCreating(false)} />
      ) : (
        <ExportForm
          {...props}
          onNewTemplate={() => setCreating(true)}
          onStarted={(j) => {
            setStarted(j);
            props.onStarted(j);
          }}
        />
      )}
    </Dialog>
  );
}

function ExportForm(props: ExportDialogProps & { onNewTemplate: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const templates = useExportTemplates(props.systemCuid);
  const { canAccess: canCreateTemplate } = useCanAccess({ resource: 'systemDataExportTemplate', action: 'create' });
  const [templateCuid, setTemplateCuid] = useState('');
  const [preset, setPreset] = useState<ExportPreset>('today');
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const [timezone, setTimezone] = useState(props.timezone);
  const [decimal, setDecimal] = useState<'.' | ','>(() => defaultDecimal(locale));
  // The time the presets count from: when the dialog opened, then when a preset or the zone was chosen.
  const [now, setNow] = useState(() => Date.now());
  const [customFrom, setCustomFrom] = useState(() => toLocalInput(exportRange('yesterday', now, props.timezone)!.from, props.timezone));
  const [customTo, setCustomTo] = useState(() => toLocalInput(exportRange('today', now, props.timezone)!.from, props.timezone));

  const list = templates.data ?? [];
  const chosen = list.find((t) => t.template_cuid === templateCuid) ?? (list.length === 1 ? list[0] : undefined);
  const zoneOk = ZONES.length === 0 || ZONES.includes(timezone) || timezone === 'UTC';
  const range = useMemo(() => {
    if (!zoneOk) return null;
    if (preset !== 'custom') return exportRange(preset, now, timezone);
    const from = fromLocalInput(customFrom, timezone);
    const to = fromLocalInput(customTo, timezone);
    return from === null || to === null ? null : { from, to };
  }, [preset, now, timezone, customFrom, customTo, zoneOk]);
  const badRange = !!range && range.from >= range.to;

  const start = useStartExport({ onSuccess: (job) => props.onStarted(job) });
  const errors = start.isError ? fieldErrorsOf(start.error) : {};

  const pickTemplate = (cuid: string) => {
    setTemplateCuid(cuid);
    const config = list.find((t) => t.template_cuid === cuid)?.config;
    if (config?.format === 'csv' || config?.format === 'xlsx') setFormat(config.format);
  };

  return (
    <>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {templates.isError && <Alert severity="error">{messageOf(templates.error)}</Alert>}
          {templates.data && list.length === 0 && <Alert severity="info">{translate(`${T}.no_templates`)}</Alert>}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            {list.length > 0 && (
              <FormControl fullWidth size="small" error={!!errors.template_cuid}>
                <InputLabel id="export-template-label">{translate(`${T}.template`)}</InputLabel>
                <Select
                  labelId="export-template-label"
                  label={translate(`${T}.template`)}
                  value={chosen?.template_cuid ?? ''}
                  onChange={(e) => pickTemplate(String(e.target.value))}
                  data-testid="export-template"
                >
                  {list.map((t) => (
                    <MenuItem key={t.template_cuid} value={t.template_cuid}>
                      {t.name}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
            )}
            {canCreateTemplate && (
              <Button variant="outlined" onClick={props.onNewTemplate} data-testid="export-new-template" sx={{ flexShrink: 0 }}>
                {translate(`${T}.new_template`)}
              </Button>
            )}
          </Stack>
          <FormControl component="fieldset">
            <FormLabel component="legend">{translate(`${T}.range`)}</FormLabel>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={preset}
              onChange={(_e, v: ExportPreset | null) => {
                if (!v) return;
                setPreset(v);
                setNow(Date.now());
              }}
              sx={{ flexWrap: 'wrap', mt: 0.5 }}
            >
              {EXPORT_PRESETS.map((p) => (
                <ToggleButton key={p} value={p} data-testid={`export-preset-${p}`}>
                  {translate(`${T}.presets.${p}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </FormControl>
          {preset === 'custom' && (
            <Stack direction="row" spacing={2}>
              <TextField
                type="datetime-local"
                size="small"
                label={translate(`${T}.from`)}
                value={customFrom}
                onChange={(e) => setCustomFrom(e.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'export-from' } }}
                error={!!errors.from}
                helperText={errors.from}
              />
              <TextField
                type="datetime-local"
                size="small"
                label={translate(`${T}.to`)}
                value={customTo}
                onChange={(e) => setCustomTo(e.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'export-to' } }}
                error={!!errors.to || badRange}
                helperText={badRange ? translate(`${T}.bad_range`) : errors.to}
              />
            </Stack>
          )}
          {range && !badRange && (
            <Typography variant="body2" color="text.secondary" data-testid="export-range-caption" data-from={range.from} data-to={range.to}>
              {translate(`${T}.range_caption`, { from: fullLabel(range.from, locale, timezone), to: fullLabel(range.to, locale, timezone), tz: timezone })}
            </Typography>
          )}
          {!range && preset !== 'custom' && errors.to && <Alert severity="error">{errors.to}</Alert>}
          <FormControl>
            <FormLabel id="export-format-label">{translate(`${T}.format`)}</FormLabel>
            <RadioGroup row aria-labelledby="export-format-label" value={format} onChange={(e) => setFormat(e.target.value as 'csv' | 'xlsx')}>
              {(['csv', 'xlsx'] as const).map((f) => (
                <FormControlLabel key={f} value={f} control={<Radio />} label={translate(`${T}.formats.${f}`)} data-testid={`export-format-${f}`} />
              ))}
            </RadioGroup>
          </FormControl>
          <Autocomplete
            options={ZONES}
            value={timezone}
            disableClearable
            freeSolo
            onInputChange={(_e, v) => {
              setTimezone(v);
              setNow(Date.now());
            }}
            onChange={(_e, v) => {
              if (!v) return;
              setTimezone(v);
              setNow(Date.now());
            }}
            renderInput={(params) => (
              <TextField {...params} size="small" label={translate(`${T}.timezone`)} error={!zoneOk || !!errors.timezone} helperText={errors.timezone} />
            )}
          />
          <FormControl>
            <FormLabel id="export-decimal-label">{translate(`${T}.decimal`)}</FormLabel>
            <RadioGroup
              aria-labelledby="export-decimal-label"
              value={decimal}
              onChange={(e) => setDecimal(e.target.value as '.' | ',')}
              data-testid="export-decimal"
              data-value={decimal}
            >
              <FormControlLabel value="." control={<Radio />} label={translate(`${T}.decimals.dot`)} data-testid="export-decimal-dot" />
              <FormControlLabel value="," control={<Radio />} label={translate(`${T}.decimals.comma`)} data-testid="export-decimal-comma" />
            </RadioGroup>
          </FormControl>
          {start.isError && Object.keys(errors).length === 0 && (
            <Alert severity="error">{translate(`${T}.start_failed`, { message: messageOf(start.error) })}</Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{translate(`${T}.close`)}</Button>
        <Button
          variant="contained"
          onClick={() =>
            start.mutate({ template_cuid: chosen!.template_cuid, from: new Date(range!.from), to: new Date(range!.to), format, timezone, decimal })
          }
          disabled={!chosen || !range || badRange || start.isPending}
          data-testid="export-start"
        >
          {translate(`${T}.start`)}
        </Button>
      </DialogActions>
    </>
  );
}

/** A new template of this system, made with the template form; back to the export form when saved. */
function NewTemplate({ systemCuid, onDone }: { systemCuid: string; onDone: () => void }) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  return (
    <DialogContent data-testid="export-template-form">
      <ResourceContextProvider value="systemDataExportTemplate">
        <CreateBase
          resource="systemDataExportTemplate"
          redirect={false}
          record={{ system_cuid: systemCuid, config: NEW_TEMPLATE_CONFIG }}
          transform={cleanTemplate}
          mutationOptions={{
            onSuccess: async () => {
              await queryClient.invalidateQueries({ queryKey: exportTemplatesKey(systemCuid) });
              onDone();
            },
          }}
        >
          <SimpleForm sx={{ p: 0 }}>
            <TextInput source="name" validate={required()} />
            <TemplateConfigInputs />
          </SimpleForm>
        </CreateBase>
      </ResourceContextProvider>
      <Button onClick={onDone} sx={{ mt: 1 }} data-testid="export-template-back">
        {translate(`${T}.back`)}
      </Button>
    </DialogContent>
  );
}

/** A running or finished job: progress bar, status, the download link or the error. */
function JobView({ job, onClose, onNewExport }: { job: ExportJob; onClose: () => void; onNewExport: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const active = isActive(job);
  const cancel = useCancelExport();
  return (
    <>
      <DialogContent>
        <JobProgress job={job} locale={locale} />
        {job.status === 'FAILED' && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="export-error">
            {translate(`${T}.failed`, { error: job.error ?? '' })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {active && (
          <Button color="warning" onClick={() => cancel.mutate(job.id)} disabled={cancel.isPending} data-testid="export-cancel">
            {translate(`${T}.cancel_job`)}
          </Button>
        )}
        {!active && (
          <Button onClick={onNewExport} data-testid="export-again">
            {translate(`${T}.new_export`)}
          </Button>
        )}
        {job.status === 'DONE' && job.download_url && (
          <Button variant="contained" component="a" href={job.download_url} download={job.file_name} data-testid="export-download">
            {translate(`${T}.download`)}
          </Button>
        )}
        <Button onClick={onClose} variant={active ? 'contained' : 'text'} data-testid={active ? 'export-background' : 'export-close'}>
          {active ? translate(`${T}.background`) : translate(`${T}.close`)}
        </Button>
      </DialogActions>
    </>
  );
}

/** The job's bar (determinate once the total is known) and its status line. */
export function JobProgress({ job, locale, compact }: { job: ExportJob; locale: string; compact?: boolean }) {
  const translate = useTranslate();
  const percent = percentOf(job);
  const line = jobLine(
    job,
    (v) => formatNumber(v, locale),
    (bytes) => sizeLabel(bytes, locale),
  );
  const text = translate(`${T}.${line.key}`, line.args);
  return (
    <Box data-testid="export-job" data-status={job.status} data-rows={job.rows_done}>
      {job.status !== 'FAILED' && (
        <LinearProgress
          variant={percent === null ? 'indeterminate' : 'determinate'}
          value={percent ?? undefined}
          aria-label={translate(`${T}.status.${job.status}`)}
          data-testid="export-progress"
          sx={{ height: compact ? 6 : 10, borderRadius: 1, mb: 1 }}
        />
      )}
      {compact ? (
        // In a list row the chip already names the status; a waiting job still says its place in line.
        job.status === 'QUEUED' &&
        line.key === 'queued_at' && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }} data-testid="export-queue-position">
            {text}
          </Typography>
        )
      ) : (
        <Typography variant="body2" data-testid="export-status" role="status">
          {translate(`${T}.status.${job.status}`)} · {text}
        </Typography>
      )}
    </Box>
  );
}
