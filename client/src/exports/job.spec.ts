import { jobLine, sizeLabel, type ExportJob } from './job';

describe('export file sizes', () => {
  it('in English: B, kB, MB with the English separator', () => {
    expect([102, 12_200, 3_450_000].map((b) => sizeLabel(b, 'en'))).toEqual(['102 B', '12.2 kB', '3.5 MB']);
  });

  it('in French: octets (o, ko, Mo) with the French separator', () => {
    expect([102, 12_200, 3_450_000].map((b) => sizeLabel(b, 'fr'))).toEqual(['102 o', '12,2 ko', '3,5 Mo']);
  });

  it('no size yet: nothing', () => {
    expect(sizeLabel(null, 'fr')).toBe('');
  });
});

describe('the line under a job', () => {
  const job = (over: Partial<ExportJob>) => ({ status: 'QUEUED', rows_done: 0, rows_total: null, bytes: null, queue_position: null, ...over }) as ExportJob;
  const n = (v: number) => `#${v}`;
  const size = (b: number | null) => `${b} B`;

  it('a waiting job says its place in line (the Exports page shows it under the chip)', () => {
    expect(jobLine(job({ queue_position: 2 }), n, size)).toEqual({ key: 'queued_at', args: { position: '#2' } });
  });

  it('a waiting job without a known place, a running one and a finished one', () => {
    expect(jobLine(job({}), n, size)).toEqual({ key: 'progress_unknown', args: { done: '#0' } });
    expect(jobLine(job({ status: 'RUNNING', rows_done: 5, rows_total: 10 }), n, size)).toEqual({ key: 'progress', args: { done: '#5', total: '#10' } });
    expect(jobLine(job({ status: 'DONE', rows_done: 10, bytes: 99 }), n, size)).toEqual({ key: 'done_rows', args: { done: '#10', size: '99 B' } });
  });
});
