import { formatDateTime } from '../i18n/format';
import { Alert, Box, Button, Chip, CircularProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../theme/brand';
import { fullLabel } from '../systems/chart-time';
import { messageOf } from '../trpc';
import { useCancelExport, useExportJobs } from './api';
import { JobProgress } from './ExportDialog';
import { isActive, sizeLabel, type ExportJob } from './job';
import { SystemPrefetch } from '../systems/prefetch';
import { ownEntry } from '../../../shared/common/own-entry';

const T = 'portal.exports';
const STATUS_COLOURS = { QUEUED: 'default', RUNNING: 'info', DONE: 'success', FAILED: 'error' } as const;

/** /exports: the caller's export jobs, with progress while they run, the download link and cancel. */
export default function ExportsPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  usePageTitle(translate(`${T}.page_title`));
  const jobs = useExportJobs();
  const cancel = useCancelExport({
    onSuccess: () => {
      notify(`${T}.cancelled`, { type: 'info' });
      void jobs.refetch();
    },
    onError: (e) => notify(messageOf(e), { type: 'error' }),
  });
  const list: ExportJob[] = jobs.data?.data ?? [];
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="exports-page">
      <Title title={`${T}.page_title`} />
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {translate(`${T}.page_title`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate(`${T}.page_intro`)}
      </Typography>
      {jobs.isPending && <CircularProgress size={24} aria-label={translate('portal.app.loading')} />}
      {jobs.isError && <Alert severity="error">{translate(`${T}.load_failed`, { message: messageOf(jobs.error) })}</Alert>}
      {jobs.data && list.length === 0 && <Alert severity="info">{translate(`${T}.none`)}</Alert>}
      {list.length > 0 && (
        // On a phone the table scrolls sideways in its own box instead of widening the page.
        <Box sx={{ overflowX: 'auto' }} data-testid="exports-table-scroll">
          <Table size="small" aria-label={translate(`${T}.page_title`)}>
            <TableHead>
              <TableRow>
                {(['system', 'template', 'range', 'format', 'status', 'size', 'expires', 'actions'] as const).map((c) => (
                  <TableCell key={c}>{translate(`${T}.col.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((j) => (
                <TableRow key={j.id} data-testid="export-row" data-job={j.id} data-status={j.status}>
                  <TableCell>
                    <SystemPrefetch id={j.system_cuid}>
                      {(ref) => (
                        <RouterLink ref={ref} to={`/systems/${encodeURIComponent(j.system_cuid)}`}>
                          {j.system_name ?? j.system_cuid}
                        </RouterLink>
                      )}
                    </SystemPrefetch>
                  </TableCell>
                  <TableCell>
                    {j.template_name ?? '—'}
                    {j.scheduled && <Chip size="small" label={translate(`${T}.scheduled`)} sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell>
                    {fullLabel(j.from.getTime(), locale, j.timezone)} – {fullLabel(j.to.getTime(), locale, j.timezone)}
                  </TableCell>
                  <TableCell>{j.format.toUpperCase()}</TableCell>
                  <TableCell sx={{ minWidth: 160 }}>
                    <Chip
                      size="small"
                      color={ownEntry(STATUS_COLOURS, j.status)}
                      label={translate(`${T}.status.${j.status}`)}
                      data-testid="export-status-chip"
                    />
                    {isActive(j) && <JobProgress job={j} locale={locale} compact />}
                    {j.status === 'FAILED' && j.error && (
                      <Typography variant="caption" color="error" sx={{ display: 'block' }}>
                        {j.error}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>{sizeLabel(j.bytes, locale)}</TableCell>
                  <TableCell>{j.expires_at ? formatDateTime(j.expires_at, locale) : ''}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={1}>
                      {j.download_url && (
                        <Button size="small" variant="outlined" component="a" href={j.download_url} download={j.file_name} data-testid="export-row-download">
                          {translate(`${T}.download`)}
                        </Button>
                      )}
                      {isActive(j) && (
                        <Button size="small" color="warning" onClick={() => cancel.mutate(j.id)} disabled={cancel.isPending} data-testid="export-row-cancel">
                          {translate(`${T}.cancel_job`)}
                        </Button>
                      )}
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <Button component={RouterLink} to="/system" sx={{ mt: 2 }}>
        {translate('portal.system.list_title')}
      </Button>
    </Box>
  );
}
