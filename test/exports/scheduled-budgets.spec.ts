import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportJobsWorker } from '../../server/src/exports/export-jobs.worker';
import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { SmtpPeer } from '../factories/smtp-peer';
import { addMember } from '../factories/users';
import { demoBattery, signIn } from './export-world';

jest.setTimeout(240_000);

/**
 * The class "scheduled exports are charged to the company that scheduled them". Company A (Demo
 * Solar) shares its farm WITH change with company B (Other Energy, a partner installer). Through
 * the public API B reads A's templates (A's schedule recipients — A's channel ids — are left out
 * for B), cannot name A's channels, and schedules exports of A's farm to its own channel: the jobs
 * count against B's queue budget (EXPORT_COMPANY_MAX_QUEUED), never A's, and a due schedule whose
 * company's queue is full waits for the next round; a template never has two jobs waiting or
 * running; B's scheduled templates are capped (EXPORT_SCHEDULES_PER_COMPANY); the mails of B's
 * finished jobs spend B's mail budget (a real SMTP peer counts what left) and a refused mail is
 * shown on the job (English and French). Before the fix every scheduled job was charged to A, A's
 * Basic user got 429, and the mails spent no budget.
 */
const COMPANY_MAX_QUEUED = 4;
const FLOOD = 8;
const SCHEDULES_CAP = 20;
const MAILS_PER_COMPANY = 2;

describe('scheduled exports are charged to the company that scheduled them', () => {
  let t: TestApp;
  let dir: string;
  let smtp: SmtpPeer;
  let worker: ExportJobsWorker;
  let as: Record<string, HttpClient>;
  let companyA: string;
  let companyB: string;
  let farm: string;
  let battery: string;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);
  const queuedFor = async (company: string) =>
    (await q(`SELECT count(*)::int AS n FROM export_job WHERE status = 'QUEUED' AND charged_company_cuid = $1`, [company]))[0].n as number;
  const columns = () => [{ entity_cuid: battery, parameter_id: 'battery_soc' }];
  const schedule = (c: HttpClient, name: string, recipients: string[]) =>
    c.mutate<any>('systemDataExportTemplate.create', {
      data: { name, system_cuid: farm, config: { columns: columns(), schedule: { frequency: 'daily', recipients } } },
    });
  /** Every schedule due now, then one round of making jobs (no job runs: nothing is claimed). */
  const dueNow = async () => {
    await worker.enqueueDueSchedules();
    await q(`UPDATE export_schedule SET next_run_at = now() - interval '1 minute'`);
    return worker.enqueueDueSchedules();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-scheduled-budgets-'));
    smtp = await SmtpPeer.start();
    t = await startTestApp({
      EXPORT_POLL_MS: '0',
      EXPORT_DIR: dir,
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'http://portal.example.test',
      EXPORT_USER_MAX_QUEUED: '3',
      EXPORT_COMPANY_MAX_QUEUED: String(COMPANY_MAX_QUEUED),
      EXPORT_SCHEDULES_PER_COMPANY: String(SCHEDULES_CAP),
      MAILS_PER_COMPANY_PER_HOUR: String(MAILS_PER_COMPANY),
    });
    worker = t.app.get(ExportJobsWorker);
    await addMember(t.db.dataSource, 'installer-b@scheduled.test', OTHER_COMPANY_NAME, 1, true);
    as = await signIn(t, ['installer', 'basic']);
    as.partner = new HttpClient(t.baseUrl);
    expect((await as.partner.login('installer-b@scheduled.test')).status).toBe(200);
    as.partnerFr = new HttpClient(t.baseUrl, { 'accept-language': 'fr' });
    expect((await as.partnerFr.login('installer-b@scheduled.test')).status).toBe(200);
    [{ company_cuid: companyA }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    [{ company_cuid: companyB }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    ({ entity_cuid: battery, system_cuid: farm } = await demoBattery(t));
    await q(`INSERT INTO system_sharing (company_cuid, system_cuid, change) VALUES ($1, $2, true)`, [companyB, farm]);
    // A verified email channel of each company; A's own daily report on the farm.
    for (const [c, company, email] of [
      ['schedchanA', companyA, 'reports@demo.local'],
      ['schedchanB', companyB, 'reports@other.local'],
    ]) {
      await q(`INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) VALUES ($1, 'EMAIL', 'ACTIVE', $2)`, [c, company]);
      await q(`INSERT INTO email_notification_channel (email_channel_cuid, channel_cuid, email, verified_at) VALUES ($1, $2, $3, now())`, [`${c}m`, c, email]);
    }
    expect((await schedule(as.installer, 'A daily', ['schedchanA'])).error).toBeUndefined();
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the partner does not read A's recipients, cannot name A's channels, and its schedules on A's farm count against B's queue; A's Basic user still starts an export", async () => {
    const list = await as.partner.query<any>('systemDataExportTemplate.getList', { pagination: { page: 1, perPage: 50 }, filter: { system_cuid: farm } });
    expect(list.error).toBeUndefined();
    const aDaily = list.data.data.find((r: any) => r.name === 'A daily');
    expect(aDaily.config.schedule.recipients).toEqual([]);
    const one = await as.partner.query<any>('systemDataExportTemplate.getOne', { id: aDaily.id });
    expect(one.data.data.config.schedule.recipients).toEqual([]);
    // …nor in the answer of a write (a rename through the share).
    const renamed = await as.partner.mutate<any>('systemDataExportTemplate.update', { id: aDaily.id, data: { name: 'A daily' }, previousData: {} });
    expect(renamed.data.data.config.schedule.recipients).toEqual([]);
    // A reads its own recipients.
    const own = await as.installer.query<any>('systemDataExportTemplate.getList', { pagination: { page: 1, perPage: 50 }, filter: { system_cuid: farm } });
    expect(own.data.data.find((r: any) => r.name === 'A daily').config.schedule.recipients).toEqual(['schedchanA']);
    // B naming A's channel: a field error on the recipient.
    const foreign = await schedule(as.partner, 'B with A channel', ['schedchanA']);
    expect(foreign.error?.data.fieldErrors?.map((e: any) => e.path)).toEqual(['data.config.schedule.recipients.0']);
    for (let i = 0; i < FLOOD; i++) expect((await schedule(as.partner, `B report ${i}`, ['schedchanB'])).error).toBeUndefined();
    const charges = await q(`SELECT name, charged_company_cuid FROM system_data_export_template WHERE system_cuid = $1`, [farm]);
    expect(charges.filter((r) => r.charged_company_cuid === companyB).length).toBe(FLOOD);
    expect(charges.find((r) => r.name === 'A daily').charged_company_cuid).toBe(companyA);

    await dueNow();
    expect({ a: await queuedFor(companyA), b: await queuedFor(companyB) }).toEqual({ a: 1, b: COMPANY_MAX_QUEUED });
    const started = await as.basic.mutate<any>('exportJob.start', { template_cuid: aDaily.id, from: new Date(Date.now() - 86_400_000), to: new Date() });
    expect(started.status).toBe(200);

    // The schedules that found B's queue full stay due and are tried again; a template never has two jobs waiting.
    await worker.enqueueDueSchedules();
    expect(await queuedFor(companyB)).toBe(COMPANY_MAX_QUEUED);
    const due = await q(`SELECT count(*)::int AS n FROM export_schedule WHERE next_run_at <= now()`);
    expect(due[0].n).toBe(FLOOD - COMPANY_MAX_QUEUED);
    await q(`UPDATE export_job SET status = 'DONE', finished_at = now() WHERE charged_company_cuid = $1 AND status = 'QUEUED'`, [companyB]);
    await worker.enqueueDueSchedules();
    expect(await queuedFor(companyB)).toBe(FLOOD - COMPANY_MAX_QUEUED);
    const twice = await q(
      `SELECT template_cuid FROM export_job WHERE scheduled AND status IN ('QUEUED', 'RUNNING') GROUP BY template_cuid HAVING count(*) > 1`,
    );
    expect(twice).toEqual([]);
  });

  it('a company alone: its scheduled jobs wait within EXPORT_COMPANY_MAX_QUEUED, at most one per template', async () => {
    await q(`DELETE FROM export_job`);
    for (let i = 0; i < FLOOD; i++) expect((await schedule(as.installer, `A own ${i}`, ['schedchanA'])).error).toBeUndefined();
    await dueNow();
    expect(await queuedFor(companyA)).toBe(COMPANY_MAX_QUEUED);
    await q(`UPDATE export_schedule SET next_run_at = now() - interval '1 minute'`);
    await worker.enqueueDueSchedules();
    expect(await queuedFor(companyA)).toBe(COMPANY_MAX_QUEUED);
    const perTemplate = await q(`SELECT max(n)::int AS n FROM (SELECT count(*) AS n FROM export_job WHERE scheduled GROUP BY template_cuid) x`);
    expect(perTemplate[0].n).toBe(1);
    await q(`DELETE FROM system_data_export_template WHERE name LIKE 'A own %'`);
  });

  it('scheduled templates per company: past EXPORT_SCHEDULES_PER_COMPANY a new schedule is refused (400, French too); a template without schedule and the other company are not', async () => {
    const [{ n }] = await q(
      `SELECT count(*)::int AS n FROM system_data_export_template t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE COALESCE(t.charged_company_cuid, s.company_cuid) = $1 AND jsonb_typeof(t.config->'schedule') = 'object'`,
      [companyB],
    );
    for (let i = n; i < SCHEDULES_CAP; i++) expect((await schedule(as.partner, `B more ${i}`, ['schedchanB'])).error).toBeUndefined();
    const refused = await schedule(as.partner, 'B one too many', ['schedchanB']);
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toBe(`This company has reached its limit of ${SCHEDULES_CAP} scheduled exports; remove a schedule before adding another`);
    const french = await schedule(as.partnerFr, 'B one too many', ['schedchanB']);
    expect(french.error?.message).toBe(
      `Cette entreprise a atteint sa limite de ${SCHEDULES_CAP} exports planifiés ; retirez une planification avant d'en ajouter une autre`,
    );
    // Turning an unscheduled template into a scheduled one counts too.
    const plain = await as.partner.mutate<any>('systemDataExportTemplate.create', {
      data: { name: 'B plain', system_cuid: farm, config: { columns: columns() } },
    });
    expect(plain.error).toBeUndefined();
    const upd = await as.partner.mutate<any>('systemDataExportTemplate.update', {
      id: plain.data.data.id,
      data: { config: { columns: columns(), schedule: { frequency: 'weekly', recipients: ['schedchanB'] } } },
      previousData: {},
    });
    expect(upd.status).toBe(400);
    // A rename of a scheduled template is not a new schedule.
    const bOne = (await q(`SELECT template_cuid FROM system_data_export_template WHERE name = 'B report 0'`))[0].template_cuid;
    expect(
      (await as.partner.mutate<any>('systemDataExportTemplate.update', { id: bOne, data: { name: 'B report 0 renamed' }, previousData: {} })).error,
    ).toBeUndefined();
    // A's company has its own room.
    expect((await schedule(as.installer, 'A weekly', ['schedchanA'])).error).toBeUndefined();
  });

  it("the mails of finished scheduled jobs spend the charged company's mail budget; a refused mail is shown on the job (French too); A's mail still goes", async () => {
    await q(`DELETE FROM export_job`);
    await q(`DELETE FROM budget_use`);
    // Three of B's reports and A's daily report come due.
    await q(`DELETE FROM system_data_export_template WHERE charged_company_cuid = $1 AND name NOT IN ('B report 1', 'B report 2', 'B report 3')`, [companyB]);
    await q(`DELETE FROM system_data_export_template WHERE name = 'A weekly'`);
    await dueNow();
    expect({ a: await queuedFor(companyA), b: await queuedFor(companyB) }).toEqual({ a: 1, b: 3 });
    await worker.tick();
    const jobs = await q(`SELECT id, status, charged_company_cuid, mailed_at, mail_error FROM export_job ORDER BY charged_company_cuid, id`);
    expect(jobs.every((j) => j.status === 'DONE' && j.mailed_at !== null)).toBe(true);
    const refused = jobs.filter((j) => j.mail_error !== null);
    expect(refused.map((j) => [j.charged_company_cuid, j.mail_error])).toEqual([
      [companyB, 'Not mailed to 1 of 1 recipients: this company has caused too many mails this hour'],
    ]);
    const to = smtp.messages.map((m) => m.to.join(',')).sort();
    expect(to).toEqual(['reports@demo.local', ...Array(MAILS_PER_COMPANY).fill('reports@other.local')]);
    // The job shows it, to the partner and to the owner's user (English and French).
    expect((await as.partner.query<any>('exportJob.get', { id: refused[0].id })).data.mail_error).toBe(refused[0].mail_error);
    expect((await as.partnerFr.query<any>('exportJob.get', { id: refused[0].id })).data.mail_error).toBe(
      "Non envoyé par e-mail à 1 destinataires sur 1 : cette entreprise a causé trop d'e-mails cette heure-ci",
    );
    const [{ n }] = await q(`SELECT count(*)::int AS n FROM budget_use WHERE budget = 'mail.company' AND key = $1`, [companyB]);
    expect(n).toBe(MAILS_PER_COMPANY);
  });

  it("once A removes B's share, B's schedules on A's farm make no job and no mail (the period passes); A's own schedule still runs", async () => {
    await q(`DELETE FROM export_job`);
    await q(`DELETE FROM budget_use`);
    const bSchedules = (
      await q(`SELECT count(*)::int AS n FROM system_data_export_template WHERE charged_company_cuid = $1 AND config ? 'schedule'`, [companyB])
    )[0].n;
    expect(bSchedules).toBeGreaterThan(0);
    await q(`DELETE FROM system_sharing WHERE company_cuid = $1 AND system_cuid = $2`, [companyB, farm]);
    try {
      const sent = smtp.messages.length;
      await dueNow();
      expect({ a: await queuedFor(companyA), b: await queuedFor(companyB) }).toEqual({ a: 1, b: 0 });
      // Their periods went by: due again only at the next one.
      const due = await q(
        `SELECT count(*)::int AS n FROM export_schedule s JOIN system_data_export_template t ON t.template_cuid = s.template_cuid WHERE t.charged_company_cuid = $1 AND s.next_run_at <= now()`,
        [companyB],
      );
      expect(due[0].n).toBe(0);
      await worker.tick();
      expect(smtp.messages.slice(sent).map((m) => m.to.join(','))).toEqual(['reports@demo.local']);
    } finally {
      await q(`INSERT INTO system_sharing (company_cuid, system_cuid, change) VALUES ($1, $2, true) ON CONFLICT DO NOTHING`, [companyB, farm]);
    }
  });
});
