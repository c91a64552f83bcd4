import { formatNumber } from '../i18n/format';
import type { trpc } from '../trpc';

export type ExportJob = Awaited<ReturnType<typeof trpc.exportJob.get.query>>;

export const isActive = (job: ExportJob | undefined): boolean => !!job && (job.status === 'QUEUED' || job.status === 'RUNNING');

/** Percent done (0..100) when the total is known; null while it is not. */
export function percentOf(job: ExportJob): number | null {
  if (job.status === 'DONE') return 100;
  if (!job.rows_total || job.rows_total <= 0) return null;
  return Math.min(100, Math.round((job.rows_done / job.rows_total) * 100));
}

/**
 * The line under a job's bar: translation key (below `portal.exports.`) and its arguments. A
 * waiting job says its place in line, so a list row tells as much as the dialog does.
 */
export function jobLine(job: ExportJob, n: (v: number) => string, size: (bytes: number | null) => string): { key: string; args: Record<string, string> } {
  if (job.status === 'DONE') return { key: 'done_rows', args: { done: n(job.rows_done), size: size(job.bytes) } };
  if (job.status === 'QUEUED' && job.queue_position) return { key: 'queued_at', args: { position: n(job.queue_position) } };
  if (job.rows_total) return { key: 'progress', args: { done: n(job.rows_done), total: n(job.rows_total) } };
  return { key: 'progress_unknown', args: { done: n(job.rows_done) } };
}

/** A file size in the reader's language (kB, MB). */
export function sizeLabel(bytes: number | null, locale: string): string {
  if (bytes === null) return '';
  // French writes octets: o, ko, Mo, Go
  const units = locale.toLowerCase().startsWith('fr') ? ['o', 'ko', 'Mo', 'Go'] : ['B', 'kB', 'MB', 'GB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${formatNumber(v, locale, { maximumFractionDigits: i === 0 ? 0 : 1 })} ${units[i]}`;
}

/** Field errors of a failed tRPC call, by path (`to`, `timezone` …). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const list = ((error as { data?: { fieldErrors?: { path: string; message: string }[] } } | null)?.data?.fieldErrors ?? []) as {
    path: string;
    message: string;
  }[];
  return Object.fromEntries(list.map((f) => [f.path.replace(/^data\./, ''), f.message]));
}
