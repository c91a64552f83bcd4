import UploadIcon from '@mui/icons-material/Upload';
import {
  Alert,
  Box,
  Button as MuiButton,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button, useNotify, useRefresh, useResourceContext, useTranslate } from 'react-admin';
import { type ImportError, useImportRows } from './api';
import { parseCsv, type ParsedCsv } from './csv';

type Phase = 'pick' | 'validating' | 'report' | 'importing';

export interface ImportButtonProps {
  /** Columns the resource imports (its create fields). */
  fields: readonly string[];
  /** Columns ignored on purpose (an export's `id`, generated keys). */
  ignore?: readonly string[];
  /** Name of the records for the title (already translated), e.g. "systems". */
  label?: string;
  /** Reference columns that may be given by name instead (`company_cuid` → `company_name`). */
  names?: Readonly<Record<string, { readonly column: string }>>;
}

/**
 * Import from CSV: choose a file, see which columns map to which fields, check every row on the
 * server (`importMany` mode "validate", chunks of 100, a progress bar), read a per-line error
 * report, then import all (only when there is no error) or only the valid rows, or cancel.
 * A file with errors imports nothing unless the user chooses the valid rows.
 */
export function ImportButton({ fields: idFields, ignore = ['id'], label, names = {} }: ImportButtonProps) {
  const translate = useTranslate();
  const nameColumns = Object.entries(names).map(([column, n]) => ({ column, name: n.column }));
  // The name columns are columns of the file too; the server turns them into ids.
  const fields = [...idFields, ...nameColumns.map((n) => n.name)];
  const resource = useResourceContext() ?? '';
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const importRows = useImportRows(resource);
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [phase, setPhase] = useState<Phase>('pick');
  const [fileName, setFileName] = useState('');
  const [parsed, setParsed] = useState<ParsedCsv | null>(null);
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [errors, setErrors] = useState<ImportError[]>([]);
  const [failure, setFailure] = useState('');

  const reset = () => {
    setPhase('pick');
    setFileName('');
    setParsed(null);
    setErrors([]);
    setFailure('');
    setProgress({ done: 0, total: 0 });
    if (inputRef.current) inputRef.current.value = '';
  };
  const close = () => {
    if (phase === 'validating' || phase === 'importing') return;
    setOpen(false);
    reset();
  };

  const rowsOf = (p: ParsedCsv) => p.rows.map((r) => r.values);
  const badRows = new Set(errors.map((e) => e.row));
  const validCount = parsed ? parsed.rows.length - badRows.size : 0;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    reset();
    setFileName(file.name);
    const p = parseCsv(await file.text(), fields, [...ignore]);
    setParsed(p);
    if (p.problems.length > 0 || p.rows.length === 0 || p.mapped.length === 0) return;
    setPhase('validating');
    setProgress({ done: 0, total: p.rows.length });
    try {
      const res = await importRows.mutateAsync({ rows: rowsOf(p), mode: 'validate', onProgress: (done) => setProgress({ done, total: p.rows.length }) });
      setErrors(res.errors);
      setPhase('report');
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      setPhase('pick');
    }
  };

  const runImport = async (onlyValid: boolean) => {
    if (!parsed) return;
    const rows = onlyValid ? rowsOf(parsed).filter((_, i) => !badRows.has(i)) : rowsOf(parsed);
    setPhase('importing');
    setProgress({ done: 0, total: rows.length });
    let created = 0;
    try {
      const res = await importRows.mutateAsync({
        rows,
        mode: onlyValid ? 'validOnly' : 'all',
        onProgress: (done) => setProgress({ done, total: rows.length }),
      });
      created = res.created;
      if (!onlyValid && res.errors.length > 0) {
        // Someone changed the data since the check: show what the server says now.
        setErrors(res.errors);
      }
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
    await queryClient.invalidateQueries({ queryKey: [resource] });
    refresh();
    if (created > 0) notify('portal.kit.import.done', { type: 'success', messageArgs: { smart_count: created } });
    setPhase('report');
    if (created > 0) {
      setOpen(false);
      reset();
    }
  };

  const lineOf = (row: number) => parsed?.rows[row]?.line ?? row + 2;
  const busy = phase === 'validating' || phase === 'importing';
  const percent = progress.total ? Math.round((progress.done / progress.total) * 100) : 0;

  return (
    <>
      <Button label="portal.kit.import.button" onClick={() => setOpen(true)} data-testid="import-button">
        <UploadIcon />
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="md" aria-labelledby="import-title" data-testid="import-dialog">
        <DialogTitle id="import-title">
          {translate('portal.kit.import.title', { name: label ?? translate(`resources.${resource}.name`, { smart_count: 2, _: resource }).toLowerCase() })}
        </DialogTitle>
        <DialogContent dividers>
          <input ref={inputRef} type="file" accept=".csv,text/csv" hidden data-testid="import-file" onChange={(e) => void onFile(e.target.files?.[0])} />
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
            <MuiButton
              variant="outlined"
              startIcon={<UploadIcon />}
              onClick={() => inputRef.current?.click()}
              disabled={busy}
              autoFocus
              data-testid="import-choose"
            >
              {translate('portal.kit.import.choose')}
            </MuiButton>
            {parsed ? (
              <Typography variant="body2">{translate('portal.kit.import.file', { name: fileName, smart_count: parsed.rows.length })}</Typography>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {translate('portal.kit.import.choose_hint', { fields: idFields.join(', ') })}
                {nameColumns.length ? (
                  <>
                    <br />
                    <span data-testid="import-names-hint">
                      {translate('portal.kit.import.names_hint', { names: nameColumns.map((n) => `${n.name} (${n.column})`).join(', ') })}
                    </span>
                  </>
                ) : null}
              </Typography>
            )}
          </Box>

          {parsed?.problems.map((p) => (
            <Alert key={p} severity="error" sx={{ mb: 1 }}>
              {p}
            </Alert>
          ))}
          {parsed && parsed.problems.length === 0 && parsed.rows.length === 0 ? (
            <Alert severity="warning">{translate('portal.kit.import.no_rows')}</Alert>
          ) : null}
          {parsed && parsed.header.length > 0 && parsed.mapped.length === 0 ? (
            <Alert severity="error">{translate('portal.kit.import.no_columns')}</Alert>
          ) : null}
          {failure ? (
            <Alert severity="error" sx={{ mb: 1 }} data-testid="import-failure">
              {translate('portal.kit.import.failed', { message: failure })}
            </Alert>
          ) : null}

          {parsed && parsed.header.length > 0 ? (
            <Box sx={{ mb: 2 }} data-testid="import-columns">
              <Typography variant="subtitle2" gutterBottom>
                {translate('portal.kit.import.columns')}
              </Typography>
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                {parsed.header.filter(Boolean).map((h) => {
                  const kind = parsed.mapped.includes(h) ? 'mapped' : parsed.ignored.includes(h) ? 'ignored' : 'unknown';
                  return (
                    <Chip
                      key={h}
                      size="small"
                      data-column={h}
                      data-kind={kind}
                      color={kind === 'mapped' ? 'success' : kind === 'unknown' ? 'warning' : 'default'}
                      variant={kind === 'mapped' ? 'filled' : 'outlined'}
                      label={kind === 'mapped' ? `${h} → ${h}` : `${h}: ${translate(`portal.kit.import.${kind}`)}`}
                    />
                  );
                })}
              </Box>
            </Box>
          ) : null}

          {busy ? (
            <Box sx={{ my: 2 }} data-testid="import-progress">
              <Typography variant="body2" gutterBottom>
                {translate(phase === 'validating' ? 'portal.kit.import.validating' : 'portal.kit.import.importing')}{' '}
                {translate('portal.kit.import.progress', { done: progress.done, total: progress.total })}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={percent}
                aria-label={translate('portal.kit.import.progress', { done: progress.done, total: progress.total })}
              />
            </Box>
          ) : null}

          {phase === 'report' && parsed ? (
            errors.length === 0 ? (
              <Alert severity="success" data-testid="import-valid">
                {translate('portal.kit.import.all_valid', { smart_count: parsed.rows.length })}
              </Alert>
            ) : (
              <>
                <Alert severity="warning" sx={{ mb: 1 }} data-testid="import-has-errors">
                  {translate('portal.kit.import.errors_found', { smart_count: badRows.size })}
                </Alert>
                <TableContainer sx={{ maxHeight: 280 }} tabIndex={0} aria-label={translate('portal.kit.import.error_table')}>
                  <Table size="small" stickyHeader data-testid="import-errors">
                    <TableHead>
                      <TableRow>
                        <TableCell>{translate('portal.kit.import.line')}</TableCell>
                        <TableCell>{translate('portal.kit.import.field')}</TableCell>
                        <TableCell>{translate('portal.kit.import.message')}</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {errors.map((e, i) => (
                        <TableRow key={i} data-line={lineOf(e.row)}>
                          <TableCell>{lineOf(e.row)}</TableCell>
                          <TableCell>{e.field ?? ''}</TableCell>
                          <TableCell>{e.message}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
              </>
            )
          ) : null}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close} disabled={busy} data-testid="import-cancel">
            {translate('portal.kit.import.cancel')}
          </MuiButton>
          {phase === 'report' && errors.length === 0 ? (
            <MuiButton variant="contained" onClick={() => void runImport(false)} data-testid="import-all">
              {translate('portal.kit.import.import_all')}
            </MuiButton>
          ) : null}
          {phase === 'report' && errors.length > 0 && validCount > 0 ? (
            <MuiButton variant="contained" color="warning" onClick={() => void runImport(true)} data-testid="import-valid-rows">
              {translate('portal.kit.import.import_valid', { smart_count: validCount })}
            </MuiButton>
          ) : null}
        </DialogActions>
      </Dialog>
    </>
  );
}
