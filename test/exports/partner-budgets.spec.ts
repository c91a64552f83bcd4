import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportJobsWorker } from '../../server/src/exports/export-jobs.worker';
import { DEMO_COMPANY_NAME, DEMO_CONTROLLER_ID, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';
import { signIn } from './export-world';

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
  let dir: string;
  let worker: ExportJobsWorker;
  const as: Record<string, HttpClient> = {};
  let templateA: string;
  let templateB: string;
  let companyA: string;
  let companyB: string;
  const start = Math.floor(Date.now() / DAY) * DAY - 5 * DAY + 9 * HOUR;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query(sql, p) as Promise<T[]>;
  const wide = (template_cuid: string) => ({ template_cuid, from: new Date(start - 15 * DAY), to: new Date(start + 5 * DAY) });
  const oneDay = (template_cuid: string) => ({ template_cuid, from: new Date(start - 6 * HOUR), to: new Date(start + 18 * HOUR) });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-partner-exports-'));
    t = await startTestApp({
      EXPORT_POLL_MS: '0',
      EXPORT_DIR: dir,
      EXPORT_USER_MAX_QUEUED: '3',
      EXPORT_COMPANY_MAX_QUEUED: '4',
      EXPORT_USER_MAX_RUNNING: '1',
      EXPORT_COMPANY_MAX_RUNNING: '1',
      // One job at a time: the order jobs end in is the order the fair choice took them.
      EXPORT_WORKER_CONCURRENCY: '1',
    });
    worker = t.app.get(ExportJobsWorker);
    await addMember(t.db.dataSource, 'basic2@demo.local', DEMO_COMPANY_NAME, 3);
    await addMember(t.db.dataSource, 'installer-b@demo.local', OTHER_COMPANY_NAME, 1, true);
    Object.assign(as, await signIn(t, ['installer', 'basic', 'basic2', 'other', 'installer-b']));
    [{ company_cuid: companyA }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    [{ company_cuid: companyB }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    const [{ entity_cuid: batteryA, system_cuid: farm }] = await q(
      `SELECT e.entity_cuid, e.system_cuid FROM entity e WHERE e.controller_id = $1 AND e.entitytype_id = 'pylontech-us5000'`,
      [DEMO_CONTROLLER_ID],
    );
    // B's clinic is shared (read-only) with A: A's Basic users may export it.
    const [{ system_cuid: clinic, company_cuid: owner }] = await q(`SELECT system_cuid, company_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.clinic]);
    expect(owner).toBe(companyB);
    const device = await as['installer-b'].mutate('entity.create', { data: { name: 'Clinic battery', entitytype_id: 'pylontech-us5000', system_cuid: clinic } });
    expect(device.status).toBe(200);
    const batteryB = (device.data as any).data.id as string;
    const rows = [];
    let index = 0;
    for (const entity_cuid of [batteryA, batteryB]) {
      for (let ts = start; ts < start + HOUR; ts += MIN) {
        rows.push({ seg: 0, row: { index: index++, entity_cuid, parameter_id: 'battery_soc', ts: new Date(ts), min: null, max: null, value: 50 + (ts % 7), tz: 'UTC' } });
      }
    }
    await t.app.get(TelemetryWriter).write({ rows, standard: [], states: [] });
    const template = async (who: string, system_cuid: string, entity_cuid: string) => {
      const res = await as[who].mutate('systemDataExportTemplate.create', {
        data: { name: 'Battery', system_cuid, config: { columns: [{ entity_cuid, parameter_id: 'battery_soc' }], resolution: 'raw' } },
      });
      expect(res.status).toBe(200);
      return (res.data as any).data.template_cuid as string;
    };
    templateA = await template('installer', farm, batteryA);
    templateB = await template('installer-b', clinic, batteryB);
  });

  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('class "export dates out of range": every date field of every export input (job, stream) refuses years outside 1970..9999 with a 400 on its field; A’s boundary exports run to DONE', async () => {
    const good = { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' };
    const bad = ['-271821-04-20T00:00:00Z', '1969-12-31T23:59:59Z', '+010000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'];
    for (const field of ['from', 'to'] as const) {
      for (const value of bad) {
        const input = { ...good, [field]: value };
        const job = await as.other.mutate('exportJob.start', { template_cuid: templateB, ...input });
        expect([field, value, job.status, job.error?.data.fieldErrors]).toEqual([field, value, 400, [{ path: field, message: 'A date between the years 1970 and 9999' }]]);
        const stream = await as.other.request('GET', `/api/exports/stream?${new URLSearchParams({ template_cuid: templateB, ...input })}`);
        expect([field, value, stream.status, stream.body.fieldErrors]).toEqual([field, value, 400, [{ path: field, message: 'A date between the years 1970 and 9999' }]]);
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
    const stream = await as.basic.request('GET', `/api/exports/stream?${new URLSearchParams({ template_cuid: templateA, from: '9999-12-30T00:00:00Z', to: '9999-12-31T23:59:59.999Z' })}`);
    expect(stream.status).toBe(200);
    await worker.tick();
    const done = await q(`SELECT status, error FROM export_job ORDER BY created_at`);
    expect(done).toEqual([{ status: 'DONE', error: null }, { status: 'DONE', error: null }]);
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
    const ownId = (own.data as any).id as string;
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
