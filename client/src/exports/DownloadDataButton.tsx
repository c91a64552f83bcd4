import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Button } from '@mui/material';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useExportJob } from './api';
import { isActive, type ExportJob } from './job';

// The dialog (react-admin's form, the template inputs) comes in its own chunk on first use.
const ExportDialog = lazy(() => import('./ExportDialog'));

/**
 * "Download data" in a system page's header: opens the export dialog. The job it starts is
 * followed here, so "Continue in background" closes the dialog and the job goes on: a toast says
 * when it is ready (or failed), and the Exports page lists it.
 */
export function DownloadDataButton({ systemCuid, systemName, timezone }: { systemCuid: string; systemName: string; timezone: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  // Everyone who sees the system may export its data (exports.run, level 3): the dialog reads the
  // system's templates through exportJob.templates; making a template needs system edit.
  const [open, setOpen] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useExportJob(jobId);
  // A toast when a job followed in the background ends.
  const last = useRef<ExportJob | undefined>(undefined);
  useEffect(() => {
    const prev = last.current;
    last.current = job.data;
    if (!job.data || open || !prev || !isActive(prev) || isActive(job.data)) return;
    const name = job.data.template_name ?? job.data.file_name;
    if (job.data.status === 'DONE') notify('portal.exports.finished_toast', { type: 'success', messageArgs: { name } });
    else notify('portal.exports.failed_toast', { type: 'error', messageArgs: { name, error: job.data.error ?? '' } });
  }, [job.data, open, notify]);

  return (
    <>
      <Button variant="outlined" startIcon={<FileDownloadIcon />} onClick={() => setOpen(true)} data-testid="download-data">
        {translate('portal.exports.download_data')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ExportDialog
            systemCuid={systemCuid}
            systemName={systemName}
            timezone={timezone}
            job={jobId ? job.data : undefined}
            onStarted={(j) => setJobId(j.id)}
            onNewExport={() => setJobId(null)}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
