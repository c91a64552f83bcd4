import { ExportJobsWorker } from '../../server/src/exports/export-jobs.worker';
import { DEMO_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import type { TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { twoCompanyExports, type TwoCompanyExports } from './export-world';

jest.setTimeout(180_000);

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * Budgets and fair shares of data exports (docs/security.md "Budgets and fair shares"), through
 * the public API with two companies: company A's Basic users flood background exports, company B
 * starts one small export. A's flood meets its own limits (429, 400) and B's export is neither
 * refused nor kept waiting behind A's queue.
 */
describe('export budgets and fair shares (two companies)', () => {
  let t: TestApp;
  let worker: ExportJobsWorker;
  const as: Record<string, HttpClient> = {};
  let templateA: string;
  let templateB: string;
  // Three hours of one-minute samples per company, days in the past.
  let start = 0;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

  /** A's flood: 200 days × 2 columns = 400 column-days each (under EXPORT_MAX_COLUMN_DAYS=500). */
  const wide = (template_cuid: string) => ({ template_cuid, from: new Date(start - 190 * DAY), to: new Date(start + 10 * DAY), format: 'xlsx' });
  const oneDay = (template_cuid: string) => ({ template_cuid, from: new Date(start - 6 * HOUR), to: new Date(start + 18 * HOUR) });

  let world: TwoCompanyExports | undefined;
  beforeAll(async () => {
    world = await twoCompanyExports(
      {
        EXPORT_USER_MAX_QUEUED: '3',
        EXPORT_COMPANY_MAX_QUEUED: '5',
        EXPORT_USER_MAX_RUNNING: '1',
        EXPORT_COMPANY_MAX_RUNNING: '2',
        EXPORT_MAX_COLUMN_DAYS: '500',
        // One job at a time: the order jobs end in is then the order the fair choice took them.
        EXPORT_WORKER_CONCURRENCY: '1',
      },
      3,
      ['battery_soc', 'battery_voltage'],
    );
    ({ t, start, templateA, templateB } = world);
    worker = t.app.get(ExportJobsWorker);
    Object.assign(as, world.as);
    as.basicFr = new HttpClient(t.baseUrl, { 'accept-language': 'fr' });
    expect((await as.basicFr.login('basic@demo.local')).status).toBe(200);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('class "queued budgets": a user flooding gets 429 at their own limit, a colleague at the company limit, an oversized export 400; the other company is not refused', async () => {
    const mine = [];
    for (let i = 0; i < 3; i++) {
      const res = await as.basic.mutate('exportJob.start', wide(templateA));
      expect(res.status).toBe(200);
      mine.push(res.data);
    }
    // A queued job shows its place in its company's line.
    expect(mine.map((j) => [j.status, j.queue_position])).toEqual([
      ['QUEUED', 1],
      ['QUEUED', 2],
      ['QUEUED', 3],
    ]);
    const fourth = await as.basic.mutate('exportJob.start', wide(templateA));
    expect([fourth.status, fourth.error?.data.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(fourth.error?.message).toBe('You already have 3 exports waiting; start another when one has finished, or cancel one');
    const fr = await as.basicFr.mutate('exportJob.start', wide(templateA));
    expect(fr.status).toBe(429);
    expect(fr.error?.message).toMatch(/^Vous avez déjà 3 exports en attente/);
    // A colleague in the same company fills the company's line (5), then is refused for the company.
    for (let i = 0; i < 2; i++) expect((await as.basic2.mutate('exportJob.start', wide(templateA))).status).toBe(200);
    const colleague = await as.basic2.mutate('exportJob.start', wide(templateA));
    expect([colleague.status, colleague.error?.message]).toEqual([429, 'This company already has 5 exports waiting; try again when one has finished']);
    // Too large for one job: 300 days × 2 columns = 600 column-days > 500; a field error on "to", not a 500.
    const large = await as.basic.mutate('exportJob.start', { template_cuid: templateA, from: new Date(start - 290 * DAY), to: new Date(start + 10 * DAY) });
    expect(large.status).toBe(400);
    expect(large.error?.data.fieldErrors).toEqual([
      { path: 'to', message: expect.stringMatching(/^This export is too large: 600 column-days .* at most 500/) },
    ]);
    // The stream refuses the same size alike.
    const stream = await as.basic.request(
      'GET',
      `/api/exports/stream?${new URLSearchParams({ template_cuid: templateA, from: new Date(start - 290 * DAY).toISOString(), to: new Date(start + 10 * DAY).toISOString() })}`,
    );
    expect([stream.status, stream.body.fieldErrors?.[0]?.path]).toEqual([400, 'to']);
    // Company B is not touched by A's limits: first in its own line.
    const b = await as.other.mutate('exportJob.start', oneDay(templateB));
    expect(b.status).toBe(200);
    expect(b.data).toMatchObject({ status: 'QUEUED', queue_position: 1 });
    // Nothing more was queued by the refusals; each refusal counted by its reason.
    expect((await q(`SELECT count(*)::int AS n FROM export_job WHERE status = 'QUEUED'`))[0].n).toBe(6);
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const count = (reason: string) => Number(new RegExp(`^portal_export_refusals_total\\{[^}]*reason="${reason}"[^}]*\\} (\\d+)`, 'm').exec(text)?.[1]);
    expect([count('user_queue'), count('company_queue'), count('too_large')]).toEqual([2, 1, 2]);
    expect(Number(/^portal_export_jobs\{[^}]*state="queued"[^}]*\} (\d+)/m.exec(text)?.[1])).toBe(6);
  });

  it('class "running budgets": a user at their running limit waits while the other company and a colleague start; the company limit holds the rest', async () => {
    // Another instance's claims, one at a time (each claim is the round-robin choice; nothing runs to the end here).
    const claimed = [];
    for (let i = 0; i < 4; i++) claimed.push(await worker.claim());
    const owner = async (id: string | undefined) =>
      id ? (await q(`SELECT u.email FROM export_job j JOIN "user" u ON u.user_cuid = j.user_cuid WHERE j.id = $1`, [id]))[0].email : undefined;
    // A's oldest (basic), then B (never served), then A's colleague (basic is at 1 running), then nothing (A at 2 running).
    expect(await Promise.all(claimed.map((j) => owner(j?.id)))).toEqual(['basic@demo.local', 'other@demo.local', 'basic2@demo.local', undefined]);
    // Hand the three back to the queue as a crashed instance would (lease lapsed): the next test drains them.
    await q(`UPDATE export_job SET lease_until = now() - interval '1 second' WHERE status = 'RUNNING'`);
  });

  it('class "fair share": company B’s 1-day export started behind A’s queue finishes before A’s queue drains (round-robin, not FIFO)', async () => {
    const late = await as.other.mutate('exportJob.start', oneDay(templateB));
    expect(late.status).toBe(200);
    expect(late.data).toMatchObject({ status: 'QUEUED', queue_position: 1 });
    const [lastA] = await q(
      `SELECT max(j.created_at) AS at FROM export_job j JOIN system s ON s.system_cuid = j.system_cuid JOIN company c ON c.company_cuid = s.company_cuid WHERE c.name = $1`,
      [DEMO_COMPANY_NAME],
    );
    expect(new Date(late.data.created_at).getTime()).toBeGreaterThanOrEqual(new Date(lastA.at).getTime());
    await worker.tick();
    const jobs = [];
    for (const who of ['basic', 'basic2', 'other']) for (const j of (await as[who].query('exportJob.list')).data.data) jobs.push({ who, ...j });
    expect(jobs.map((j) => j.status)).toEqual(jobs.map(() => 'DONE'));
    const order = jobs
      .sort((a, b) => new Date(a.finished_at).getTime() - new Date(b.finished_at).getTime())
      .map((j) => (j.id === late.data.id ? 'B-late' : j.who));
    // Both of B's jobs end before the last three of A's five: companies take turns.
    expect(order.indexOf('B-late')).toBeLessThan(order.length - 3);
    expect(order.slice(-3).every((w) => w === 'basic' || w === 'basic2')).toBe(true);
    expect(order.filter((w) => w === 'basic' || w === 'basic2')).toHaveLength(5);
  });
});
