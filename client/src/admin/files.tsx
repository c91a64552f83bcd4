import { useFormat } from '../i18n/useFormat';
import { formatNumber } from '../i18n/format';
import { DateField } from '../kit/fields';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import {
  AutocompleteInput,
  DeleteWithConfirmButton,
  List,
  ReferenceField,
  ReferenceInput,
  TextInput,
  TopToolbar,
  useCanAccess,
  useGetList,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type Identifier,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { ExportCsvButton } from '../kit/ExportCsvButton';
import { useCurrentRecordAccess } from '../kit/useRecordAccess';
import { useHostedFileLimits } from './api';

/** 1234567 → "1.2 MB" (decimal units, as file managers show). */
export function formatBytes(bytes: number, locale: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1000) return `${formatNumber(bytes, locale)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${formatNumber(value, locale, { maximumFractionDigits: value >= 10 ? 0 : 1 })} ${units[unit]}`;
}

function SizeField(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  const { locale } = useFormat();
  return record ? <span>{formatBytes(Number(record.size), locale)}</span> : null;
}

/** Download over GET /api/files/:id (the server checks access and sets the headers). */
function DownloadLink(_props: { label?: string }) {
  const record = useRecordContext<{ id: Identifier; fileName?: string | null }>();
  const translate = useTranslate();
  if (!record) return null;
  const href = `/api/files/${encodeURIComponent(String(record.id))}`;
  return (
    <MuiButton
      size="small"
      href={href}
      download={record.fileName ?? undefined}
      startIcon={<DownloadIcon />}
      onClick={(e) => e.stopPropagation()}
      data-testid="file-download"
    >
      {translate('portal.admin.file.download')}
    </MuiButton>
  );
}

function FileDeleteButton() {
  const access = useCurrentRecordAccess();
  return access.delete ? <DeleteWithConfirmButton mutationMode="pessimistic" /> : null;
}

interface UploadError {
  message: string;
  fieldErrors?: { path: string; message: string }[];
}

/** POST /api/files as multipart with upload progress (fetch has none), the server's errors kept. */
function uploadWithProgress(form: FormData, onProgress: (fraction: number) => void): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/files');
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
    xhr.onerror = () => reject(new Error('network'));
    xhr.send(form);
  });
}

/** Upload dialog: the file, its company (required) and optionally a system. */
function UploadButton() {
  const translate = useTranslate();
  const { locale } = useFormat();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'hostedFile', action: 'create' });
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [company, setCompany] = useState('');
  const [system, setSystem] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<UploadError | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  // The send button is disabled while sending, which drops the focus: give it to the error, in the dialog.
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  // The server's limits (size, accepted types), so the form can say them before sending.
  const limits = useHostedFileLimits(open);
  const companies = useGetList<{ id: Identifier; company_cuid?: string; name: string }>(
    'company',
    { pagination: { page: 1, perPage: 200 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: open },
  );
  const systems = useGetList<{ id: Identifier; system_cuid?: string; name: string }>(
    'system',
    { pagination: { page: 1, perPage: 200 }, sort: { field: 'name', order: 'ASC' }, filter: company ? { company_cuid: company } : {} },
    { enabled: open && !!company },
  );

  if (!canAccess) return null;

  const close = () => {
    if (progress !== null) return;
    setOpen(false);
    setFile(null);
    setError(null);
    setSystem('');
  };

  const send = async () => {
    if (!file) return;
    setError(null);
    const maxBytes = limits.data?.maxBytes;
    if (maxBytes !== undefined && file.size > maxBytes) {
      setError({ message: translate('portal.admin.file.too_large', { size: formatBytes(file.size, locale), max: formatBytes(maxBytes, locale) }) });
      return;
    }
    const form = new FormData();
    // Text fields first: the server reads them before the file part.
    if (company) form.append('company_cuid', company);
    if (system) form.append('system_cuid', system);
    form.append('file', file, file.name);
    setProgress(0);
    try {
      const { status, body } = await uploadWithProgress(form, setProgress);
      if (status >= 200 && status < 300) {
        notify('portal.admin.file.uploaded', { type: 'success', messageArgs: { name: file.name } });
        setProgress(null);
        setOpen(false);
        setFile(null);
        refresh();
        return;
      }
      const answer = (body ?? {}) as { message?: string; fieldErrors?: { path: string; message: string }[] };
      setError({ message: answer.message ?? translate('portal.admin.file.failed_status', { status }), fieldErrors: answer.fieldErrors });
    } catch {
      setError({ message: translate('portal.admin.file.failed_network') });
    }
    setProgress(null);
  };

  const fieldError = (path: string) => error?.fieldErrors?.find((f) => f.path === path)?.message;

  return (
    <>
      <MuiButton size="small" startIcon={<CloudUploadIcon />} onClick={() => setOpen(true)} data-testid="file-upload-open">
        {translate('portal.admin.file.upload')}
      </MuiButton>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="upload-title">
        <DialogTitle id="upload-title">{translate('portal.admin.file.upload_title')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          <Box>
            <input
              ref={input}
              id="file-upload-input"
              type="file"
              data-testid="file-upload-input"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setError(null);
              }}
              style={{ position: 'absolute', width: 1, height: 1, opacity: 0 }}
              aria-describedby="file-upload-chosen file-upload-limits"
              accept={limits.data?.allowedTypes.join(',')}
            />
            <MuiButton variant="outlined" onClick={() => input.current?.click()} disabled={progress !== null}>
              {translate('portal.admin.file.choose')}
            </MuiButton>
            <Typography id="file-upload-chosen" variant="body2" sx={{ mt: 1 }}>
              {file ? `${file.name} — ${formatBytes(file.size, locale)}` : translate('portal.admin.file.none_chosen')}
            </Typography>
            {limits.data ? (
              <Typography id="file-upload-limits" variant="caption" color="text.secondary" data-testid="file-upload-limits">
                {translate('portal.admin.file.limits', { max: formatBytes(limits.data.maxBytes, locale), types: limits.data.allowedTypes.join(', ') })}
              </Typography>
            ) : null}
            {fieldError('file') ? (
              <Typography color="error" variant="body2">
                {fieldError('file')}
              </Typography>
            ) : null}
          </Box>
          <MuiTextField
            select
            label={translate('resources.hostedFile.fields.company_cuid')}
            value={company}
            onChange={(e) => {
              setCompany(e.target.value);
              setSystem('');
            }}
            required
            error={!!fieldError('company_cuid')}
            helperText={fieldError('company_cuid') ?? ' '}
            disabled={progress !== null}
          >
            {(companies.data ?? []).map((c) => (
              <MenuItem key={String(c.id)} value={String(c.company_cuid ?? c.id)}>
                {String(c.name)}
              </MenuItem>
            ))}
          </MuiTextField>
          <MuiTextField
            select
            label={translate('resources.hostedFile.fields.system_cuid')}
            value={system}
            onChange={(e) => setSystem(e.target.value)}
            error={!!fieldError('system_cuid')}
            helperText={fieldError('system_cuid') ?? translate('portal.admin.file.system_hint')}
            disabled={progress !== null || !company}
          >
            <MenuItem value="">—</MenuItem>
            {(systems.data ?? []).map((s) => (
              <MenuItem key={String(s.id)} value={String(s.system_cuid ?? s.id)}>
                {String(s.name)}
              </MenuItem>
            ))}
          </MuiTextField>
          {progress !== null ? (
            <Box>
              <LinearProgress
                variant="determinate"
                value={Math.round(progress * 100)}
                aria-label={translate('portal.admin.file.progress')}
                data-testid="file-upload-progress"
              />
              <Typography variant="caption">{Math.round(progress * 100)} %</Typography>
            </Box>
          ) : null}
          {error ? (
            <Alert severity="error" data-testid="file-upload-error" ref={errorRef} tabIndex={-1}>
              {error.message}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close} disabled={progress !== null}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton variant="contained" onClick={send} disabled={!file || !company || progress !== null} data-testid="file-upload-send">
            {translate('portal.admin.file.send')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

function FileListActions() {
  return (
    <TopToolbar>
      <UploadButton />
      <ExportCsvButton />
    </TopToolbar>
  );
}

const filters = [
  <ReferenceInput key="company_cuid" source="company_cuid" reference="company" alwaysOn>
    <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 220 }} />
  </ReferenceInput>,
  <TextInput key="contentType" source="contentType" />,
];

export function HostedFileList() {
  return (
    <List actions={<FileListActions />} empty={false} filters={filters} sort={{ field: 'created_at', order: 'DESC' }} data-testid="file-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="fileName" />
        <DataTable.Col source="contentType" />
        <DataTable.Col source="size">
          <SizeField />
        </DataTable.Col>
        <DataTable.Col source="company_cuid">
          <ReferenceField source="company_cuid" reference="company" link={false} emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="system_cuid">
          <ReferenceField source="system_cuid" reference="system" link={false} emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="created_at">
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
            <DownloadLink />
            <FileDeleteButton />
          </Box>
        </DataTable.Col>
      </DataTable>
    </List>
  );
}
