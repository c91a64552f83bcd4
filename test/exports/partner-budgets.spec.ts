import { ExportJobsWorker } from '../../server/src/exports/export-jobs.worker';
import type { TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { twoCompanyExports, type TwoCompanyExports } from './export-world';

jest.setTimeout(180_000);

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * Issue 24, exports: budgets count against the company through which the caller sees the system
 * (a partner's jobs on a shared system are the partner's, never the owner's), and every export
 * input refuses dates outside 1970..9999 at the edge. Two companies through the public API:
 * company A (Demo Solar) sees company B's (Other Energy) clinic through a read-only share.
 */
describe('export budgets of shared systems and export dates (two companies)', () => {
  let t: TestApp;
  let worker: ExportJobsWorker;
  const as: Record<string, HttpClient> = {};
  let templateA: string;
  let templateB: string;
  let companyA: string;
  let companyB: string;
  let start = 0;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);
  const wide = (template_cuid: string) => ({ template_cuid, from: new Date(start - 15 * DAY), to: new Date(start + 5 * DAY) });
  const oneDay = (template_cuid: string) => ({ template_cuid, from: new Date(start - 6 * HOUR), to: new Date(start + 18 * HOUR) });

  let world: TwoCompanyExports | undefined;
  beforeAll(async () => {
    world = await twoCompanyExports(
      {
        EXPORT_USER_MAX_QUEUED: '3',
        EXPORT_COMPANY_MAX_QUEUED: '4',
        EXPORT_USER_MAX_RUNNING: '1',
        EXPORT_COMPANY_MAX_RUNNING: '1',
        // One job at a time: the order jobs end in is the order the fair choice took them.
        EXPORT_WORKER_CONCURRENCY: '1',
      },
      1,
      ['battery_soc'],
    );
    ({ t, start, templateA, templateB, companyA, companyB } = world);
    worker = t.app.get(ExportJobsWorker);
    Object.assign(as, world.as);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('class "export dates out of range": every date field of every export input (job, stream) refuses years outside 1970..9999 with a 400 on its field; A’s boundary exports run to DONE', async () => {
    const good = { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' };
    const bad = ['-271821-04-20T00:00:00Z', '1969-12-31T23:59:59Z', '+010000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'];
    for (const field of ['from', 'to'] as const) {
      for (const value of bad) {
        const input = { ...good, [field]: value };
        const job = await as.other.mutate('exportJob.start', { template_cuid: templateB, ...input });
        expect([field, value, job.status, job.error?.data.fieldErrors]).toEqual([
          field,
          value,
          400,
          [{ path: field, message: 'A date between the years 1970 and 9999' }],
        ]);
        const stream = await as.other.request('GET', `/api/exports/stream?${new URLSearchParams({ template_cuid: templateB, ...input })}`);
        expect([field, value, stream.status, stream.body.fieldErrors]).toEqual([
          field,
          value,
          400,
          [{ path: field, message: 'A date between the years 1970 and 9999' }],
        ]);
      }
    }
    // The French caller reads the same refusal in French.
    const fr = new HttpClient(t.baseUrl, { 'accept-language': 'fr' });
    expect((await fr.login('other@demo.local')).status).toBe(200);
    const french = await fr.mutate('exportJob.start', { template_cuid: templateB, ...good, from: bad[0] });
    expect(french.error?.data.fieldErrors).toEqual([{ path: 'from', message: 'Une date entre les années 1970 et 9999' }]);
    // B's refusals made no job; A's exports at both ends of the accepted range queue and finish.
    expect((await q(`SELECT count(*)::int AS n FROM export_job`))[0].n).toBe(0);
    const first = await as.basic.mutate('exportJob.start', { template_cuid: templateA, from: '1970-01-01T00:00:00Z', to: '1970-01-02T00:00:00Z' });
    const last = await as.basic.mutate('exportJob.start', { template_cuid: templateA, from: '9999-12-30T00:00:00Z', to: '9999-12-31T23:59:59.999Z' });
    expect([first.status, last.status]).toEqual([200, 200]);
    const stream = await as.basic.request(
      'GET',
      `/api/exports/stream?${new URLSearchParams({ template_cuid: templateA, from: '9999-12-30T00:00:00Z', to: '9999-12-31T23:59:59.999Z' })}`,
    );
    expect(stream.status).toBe(200);
    await worker.tick();
    const done = await q(`SELECT status, error FROM export_job ORDER BY created_at`);
    expect(done).toEqual([
      { status: 'DONE', error: null },
      { status: 'DONE', error: null },
    ]);
  });

  it('class "partner floods a shared system": A’s users flood exports of B’s shared system; A’s jobs count against A, and B’s own user still starts and finishes B’s export', async () => {
    await q(`DELETE FROM export_job`);
    for (let i = 0; i < 3; i++) expect((await as.basic.mutate('exportJob.start', wide(templateB))).status).toBe(200);
    expect((await as.basic2.mutate('exportJob.start', wide(templateB))).status).toBe(200);
    // A's line is full: A's next job is refused for A, by A's budget.
    const fifth = await as.basic2.mutate('exportJob.start', wide(templateB));
    expect([fifth.status, fifth.error?.message]).toEqual([429, 'This company already has 4 exports waiting; try again when one has finished']);
    expect(await q(`SELECT charged_company_cuid AS c, count(*)::int AS n FROM export_job GROUP BY 1`)).toEqual([{ c: companyA, n: 4 }]);
    // B's own Basic user, exporting B's own system, is first in B's line (not 429).
    const own = await as.other.mutate('exportJob.start', oneDay(templateB));
    expect(own.status).toBe(200);
    expect(own.data).toMatchObject({ status: 'QUEUED', queue_position: 1 });
    const ownId = own.data.id as string;
    expect((await q(`SELECT charged_company_cuid AS c FROM export_job WHERE id = $1`, [ownId]))[0].c).toBe(companyB);
    // Running slots: A's job holds A's one slot; B's job still takes B's (A's jobs do not hold B's), then nothing more may start.
    const claimed = [await worker.claim(), await worker.claim(), await worker.claim()];
    expect(claimed.map((j) => (j === undefined ? undefined : j.id === ownId ? 'B' : 'A'))).toEqual(['A', 'B', undefined]);
    // Hand them back as a crashed instance would (lease lapsed), then drain: B's export is not left behind A's flood.
    await q(`UPDATE export_job SET lease_until = now() - interval '1 second' WHERE status = 'RUNNING'`);
    await worker.tick();
    const order = await q<{ id: string; status: string }>(`SELECT id, status FROM export_job ORDER BY finished_at, id`);
    expect(order.map((j) => j.status)).toEqual(['DONE', 'DONE', 'DONE', 'DONE', 'DONE']);
    expect(order.map((j) => j.id).indexOf(ownId)).toBeLessThan(2);
  });
});
