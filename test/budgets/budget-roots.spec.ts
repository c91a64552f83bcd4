import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newCuid } from '../../server/src/common/ids';
import { ExportJobsWorker } from '../../server/src/exports/export-jobs.worker';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { demoBattery } from '../exports/export-world';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { SmtpPeer } from '../factories/smtp-peer';
import { addMember } from '../factories/users';

jest.setTimeout(180_000);

/**
 * Class "budget accounts" (docs/security.md "Budgets and fair shares"): any company admin may
 * create companies and becomes their admin. Every per-company budget counts per budget account
 * (root company, table company_budget_root): an admin of company B who creates N companies gets no
 * more than B's one budget in total — mails per address and per company, exports queued and
 * running and the worker's round robin, the trigger, channel and data-processor caps — and company
 * A, unrelated, keeps all of its own. The row caps are charged to the company the actor acts from:
 * a partner creating triggers on A's shared system spends its own cap, never A's.
 */
const PER_ADDRESS = 2;

let t: TestApp;
let smtp: SmtpPeer;
let dir: string;
let companyA: string;
let companyB: string;
let farm: string;
let clinic: string;
const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

async function login(email: string): Promise<HttpClient> {
  const c = new HttpClient(t.baseUrl);
  expect((await c.login(email)).status).toBe(200);
  return c;
}

/** `admin` creates a company named `name` through the API; its cuid. */
async function createCompany(admin: HttpClient, name: string): Promise<string> {
  const made = await admin.mutate<any>('company.create', { data: { name } });
  expect(made.error).toBeUndefined();
  return made.data.data.company_cuid ?? made.data.data.id;
}

/** The companies of budget account `root`. */
const accountOf = async (root: string) => [
  root,
  ...(await q(`SELECT company_cuid FROM company_budget_root WHERE root_company_cuid = $1`, [root])).map((r) => r.company_cuid),
];

beforeAll(async () => {
  smtp = await SmtpPeer.start();
  dir = await mkdtemp(join(tmpdir(), 'portal-budget-roots-'));
  t = await startTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Portal <portal@portal.test>',
    PUBLIC_URL: 'http://portal.test',
    MAILS_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS),
    MAILS_PER_COMPANY_PER_HOUR: '3',
    MAILS_PER_USER_PER_HOUR: '1000',
    EXPORT_POLL_MS: '0',
    EXPORT_DIR: dir,
    EXPORT_WORKER_CONCURRENCY: '3',
    EXPORT_COMPANY_MAX_RUNNING: '2',
    EXPORT_COMPANY_MAX_QUEUED: '3',
    EXPORT_USER_MAX_RUNNING: '1',
  });
  [{ company_cuid: companyA }] = await q(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
  [{ company_cuid: companyB }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
  [{ system_cuid: farm }] = await q(`SELECT system_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
  [{ system_cuid: clinic }] = await q(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.clinic]);
  await addMember(t.db.dataSource, 'basic-admin-b@roots.test', OTHER_COMPANY_NAME, 3, true);
  await addMember(t.db.dataSource, 'installer-b@roots.test', OTHER_COMPANY_NAME, 1, true);
  await addMember(t.db.dataSource, 'owner-b@roots.test', OTHER_COMPANY_NAME, 0, true);
  await addMember(t.db.dataSource, 'owner-a@roots.test', 'Demo Solar Ltd', 0, true);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('class "budget accounts": companies an admin creates share the budgets of the company they come from', () => {
  const mailShells: string[] = [];

  it('a company made by a company admin counts with the company they administer from; one made by a superuser is its own root', async () => {
    const admin = await login('basic-admin-b@roots.test');
    for (let i = 0; i < 3; i++) mailShells.push(await createCompany(admin, `B mail shell ${i}`));
    // the admin now administers B and the first shell: the next shell still counts with B (its oldest company)
    const rows = await q(`SELECT company_cuid, root_company_cuid FROM company_budget_root WHERE company_cuid = ANY($1) ORDER BY company_cuid`, [mailShells]);
    expect(rows).toEqual(mailShells.map((c) => ({ company_cuid: c, root_company_cuid: companyB })).sort((x, y) => (x.company_cuid < y.company_cuid ? -1 : 1)));
    const own = await createCompany(await login('superuser@demo.local'), 'Superuser made');
    expect(await q(`SELECT * FROM company_budget_root WHERE company_cuid = $1`, [own])).toEqual([]);
  });

  it(`mails: across B and its ${3} companies an outside address gets MAILS_PER_ADDRESS_PER_HOUR, all of them MAILS_PER_COMPANY_PER_HOUR; company A's mails are delivered`, async () => {
    const admin = await login('basic-admin-b@roots.test');
    const companies = [companyB, ...mailShells];
    const victim = 'victim@outside.test';
    let accepted = 0;
    for (const company_cuid of companies)
      for (let k = 0; k <= PER_ADDRESS; k++) if (!(await admin.mutate<any>('emailChannel.create', { company_cuid, email: victim })).error) accepted++;
    expect(accepted).toBe(PER_ADDRESS);
    // company A (its own account) still mails the same address
    const a = await login('basic@demo.local');
    for (let k = 0; k < PER_ADDRESS; k++) expect((await a.mutate<any>('emailChannel.create', { company_cuid: companyA, email: victim })).error).toBeUndefined();
    await smtp.waitFor(2 * PER_ADDRESS);
    expect(smtp.messages.filter((m) => m.to.includes(victim)).length).toBe(2 * PER_ADDRESS);

    // per company (MAILS_PER_COMPANY_PER_HOUR 3): B's account has spent 2; one more across all its companies
    let more = 0;
    for (const [i, company_cuid] of companies.entries())
      if (!(await admin.mutate<any>('emailChannel.create', { company_cuid, email: `other-${i}@outside.test` })).error) more++;
    expect(more).toBe(1);
    const refused = await admin.mutate<any>('emailChannel.create', { company_cuid: mailShells[2], email: 'last@outside.test' });
    expect(refused.status).toBe(429);
    expect(refused.error?.message).toMatch(/^This company has caused too many mails this hour; try again in \d+ min$/);
    // company A's own budget: one more mail (2 of 3 spent)
    expect((await a.mutate<any>('emailChannel.create', { company_cuid: companyA, email: 'a-colleague@outside.test' })).error).toBeUndefined();
  });

  it('exports: B and the companies its installer made hold EXPORT_COMPANY_MAX_QUEUED and EXPORT_COMPANY_MAX_RUNNING together, one turn of the round robin; company A gets its slot', async () => {
    const installer = await login('installer-b@roots.test');
    const shells = [await createCompany(installer, 'B export shell 1'), await createCompany(installer, 'B export shell 2')];
    for (const [i, shell] of shells.entries()) {
      await q(`INSERT INTO system_sharing (company_cuid, system_cuid, change) VALUES ($1, $2, false)`, [shell, clinic]);
      await addMember(t.db.dataSource, `shell-user-${i + 1}@roots.test`, `B export shell ${i + 1}`, 3);
    }
    const device = await installer.mutate<any>('entity.create', { data: { name: 'Clinic battery', entitytype_id: 'pylontech-us5000', system_cuid: clinic } });
    expect(device.error).toBeUndefined();
    const template = async (c: HttpClient, system_cuid: string, entity_cuid: string) => {
      const r = await c.mutate<any>('systemDataExportTemplate.create', {
        data: { name: 'Battery', system_cuid, config: { columns: [{ entity_cuid, parameter_id: 'battery_soc' }], resolution: 'raw' } },
      });
      expect(r.error).toBeUndefined();
      return r.data.data.template_cuid as string;
    };
    const range = { from: new Date(Date.now() - 300 * 86_400_000), to: new Date() };
    const bInput = { template_cuid: await template(installer, clinic, device.data.data.id), ...range };
    const battery = await demoBattery(t);
    const aInput = { template_cuid: await template(await login('installer@demo.local'), battery.system_cuid, battery.entity_cuid), ...range };

    // queued: three jobs of B's account (B, shell 1, shell 2); a fourth, from B itself, is refused
    for (const who of ['installer-b@roots.test', 'shell-user-1@roots.test', 'shell-user-2@roots.test'])
      expect((await (await login(who)).mutate<any>('exportJob.start', bInput)).error).toBeUndefined();
    const fourth = await (await login('other@demo.local')).mutate<any>('exportJob.start', bInput);
    expect(fourth.status).toBe(429);
    expect(fourth.error?.message).toBe('This company already has 3 exports waiting; try again when one has finished');
    // company A, started last, is not refused
    expect((await (await login('installer@demo.local')).mutate<any>('exportJob.start', aInput)).error).toBeUndefined();

    // running: the worker's three slots (claimed as its tick does, without running the jobs)
    const worker = t.app.get(ExportJobsWorker);
    const claimed = [await worker.claim(), await worker.claim(), await worker.claim()].filter(Boolean);
    expect(claimed).toHaveLength(3);
    const account = await accountOf(companyB);
    expect(shells.every((s) => account.includes(s))).toBe(true);
    const charged = (await q(`SELECT charged_company_cuid AS c FROM export_job WHERE status = 'RUNNING'`)).map((r) => r.c as string);
    expect({ heldByBsAccount: charged.filter((c) => account.includes(c)).length, heldByA: charged.filter((c) => c === companyA).length }).toEqual({
      heldByBsAccount: 2,
      heldByA: 1,
    });
    await q(`UPDATE export_job SET status = 'FAILED', lease_until = NULL WHERE status IN ('QUEUED', 'RUNNING')`);
  });

  it("scheduled exports: the schedules of B and the companies its installer made wait within one EXPORT_COMPANY_MAX_QUEUED together; company A's schedule is queued", async () => {
    await q(`DELETE FROM export_job`);
    const creator = await login('installer-b@roots.test');
    const shells = [await createCompany(creator, 'B schedule shell 1'), await createCompany(creator, 'B schedule shell 2')];
    const installer = await login('installer-b@roots.test');
    const worker = t.app.get(ExportJobsWorker);
    /** A verified email channel of `company` (made in SQL: the class is about the queue, not about verification). */
    const channelOf = async (company: string) => {
      const channel_cuid = newCuid();
      await q(`INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) VALUES ($1, 'EMAIL', 'ACTIVE', $2)`, [channel_cuid, company]);
      await q(`INSERT INTO email_notification_channel (email_channel_cuid, channel_cuid, email, verified_at) VALUES ($1, $2, $3, now())`, [
        newCuid(),
        channel_cuid,
        `reports-${channel_cuid}@outside.test`,
      ]);
      return channel_cuid;
    };
    const schedule = async (c: HttpClient, system_cuid: string, entity_cuid: string, recipient: string, name: string) => {
      const r = await c.mutate<any>('systemDataExportTemplate.create', {
        data: {
          name,
          system_cuid,
          config: { columns: [{ entity_cuid, parameter_id: 'battery_soc' }], schedule: { frequency: 'daily', recipients: [recipient] } },
        },
      });
      expect(r.error).toBeUndefined();
    };
    // two scheduled templates on a plant of each of B's three companies (B itself and the two it made)
    for (const company of [companyB, ...shells]) {
      const plant = await installer.mutate<any>('system.create', { data: { company_cuid: company, name: `Scheduled plant ${company}`, timezone: 'UTC' } });
      expect(plant.error).toBeUndefined();
      const device = await installer.mutate<any>('entity.create', {
        data: { name: 'Battery', entitytype_id: 'pylontech-us5000', system_cuid: plant.data.data.id },
      });
      expect(device.error).toBeUndefined();
      const recipient = await channelOf(company);
      for (const k of [1, 2]) await schedule(installer, plant.data.data.id, device.data.data.id, recipient, `Daily ${k}`);
    }
    const battery = await demoBattery(t);
    await schedule(await login('installer@demo.local'), battery.system_cuid, battery.entity_cuid, await channelOf(companyA), 'A daily');
    await worker.enqueueDueSchedules();
    await q(`UPDATE export_schedule SET next_run_at = now() - interval '1 minute'`);
    await worker.enqueueDueSchedules();
    await worker.enqueueDueSchedules();
    const account = await accountOf(companyB);
    expect(shells.every((s) => account.includes(s))).toBe(true);
    const queued = (await q(`SELECT charged_company_cuid AS c FROM export_job WHERE status = 'QUEUED' AND scheduled`)).map((r) => r.c as string);
    expect({ bAccount: queued.filter((c) => account.includes(c)).length, a: queued.filter((c) => c === companyA).length }).toEqual({ bAccount: 3, a: 1 });
    await q(`DELETE FROM system_data_export_template WHERE config ? 'schedule'`);
    await q(`UPDATE export_job SET status = 'FAILED', lease_until = NULL WHERE status IN ('QUEUED', 'RUNNING')`);
  });

  /** Rows of a capped kind counted the way the caps count them: charged company, else the system's owner. */
  const capCount = async (table: 'notification_trigger' | 'entity', companies: string[]) =>
    (
      await q(
        `SELECT count(*)::int AS n FROM ${table} x JOIN system s ON s.system_cuid = x.system_cuid
          WHERE COALESCE(x.charged_company_cuid, s.company_cuid) = ANY($1)${table === 'entity' ? ` AND x.entitytype_id IN (SELECT entitytype_id FROM entity_type WHERE entity_type <> 'Device')` : ''}`,
        [companies],
      )
    )[0].n as number;

  /** A system owned by `company` (made in SQL: the class is about the caps, not about systems). */
  async function systemOf(company: string, name: string): Promise<string> {
    const system_cuid = newCuid();
    await q(`INSERT INTO system (system_cuid, company_cuid, name, timezone) VALUES ($1, $2, $3, 'UTC')`, [system_cuid, company, name]);
    return system_cuid;
  }

  it('triggers: B and its companies together create up to TRIGGERS_PER_COMPANY; company A still creates', async () => {
    const installer = await login('installer-b@roots.test');
    const [{ company_cuid: shell }] = await q(`SELECT company_cuid FROM company WHERE name = 'B export shell 1'`);
    const shellSystem = await systemOf(shell, 'Shell plant');
    const account = await accountOf(companyB);
    const max = Math.max(await capCount('notification_trigger', account), await capCount('notification_trigger', [companyA])) + 2;
    t.config.TRIGGERS_PER_COMPANY = max;
    const room = max - (await capCount('notification_trigger', account));
    const trigger = (c: HttpClient, system_cuid: string, name: string) =>
      c.mutate<any>('notificationTrigger.create', { data: { name, message: 'Offline', system_cuid, args: { kind: 'offline' } } });
    let made = 0;
    for (let i = 0; i < room + 4; i++) if (!(await trigger(installer, i % 2 ? clinic : shellSystem, `B ${i}`)).error) made++;
    expect(made).toBe(room);
    const refused = await trigger(installer, shellSystem, 'one too many');
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toBe(`This company has reached its limit of ${max} triggers; delete one before adding another`);
    expect((await trigger(await login('installer@demo.local'), farm, 'A own alarm')).error).toBeUndefined();
  });

  it('notification channels: B and its companies together create up to CHANNELS_PER_COMPANY; company A still creates', async () => {
    Object.assign(t.config, { MAILS_PER_COMPANY_PER_HOUR: 1000 });
    const admin = await login('basic-admin-b@roots.test');
    const count = async (companies: string[]) =>
      (await q(`SELECT count(*)::int AS n FROM notification_channel WHERE company_cuid = ANY($1)`, [companies]))[0].n as number;
    const account = await accountOf(companyB);
    const max = Math.max(await count(account), await count([companyA])) + 2;
    t.config.CHANNELS_PER_COMPANY = max;
    const room = max - (await count(account));
    let made = 0;
    for (let i = 0; i < room + 4; i++)
      if (!(await admin.mutate<any>('emailChannel.create', { company_cuid: [companyB, ...mailShells][i % 4], email: `cap-${i}@outside.test` })).error) made++;
    expect(made).toBe(room);
    expect(
      (await (await login('basic@demo.local')).mutate<any>('emailChannel.create', { company_cuid: companyA, email: 'a-cap@outside.test' })).error,
    ).toBeUndefined();
  });

  it("data processors: the processors of B's companies count with B's PROCESSORS_PER_COMPANY; company A still creates", async () => {
    const entitytype_id = 'roots-calc';
    await q(`INSERT INTO entity_type (entitytype_id, model, entity_type) VALUES ($1, 'Energy balance', 'CalculatedValue')`, [entitytype_id]);
    const shellSystem = await systemOf(mailShells[0], 'Mail shell plant');
    const account = await accountOf(companyB);
    const max = Math.max(await capCount('entity', account), await capCount('entity', [companyA])) + 2;
    t.config.PROCESSORS_PER_COMPANY = max;
    const room = max - (await capCount('entity', account));
    const b = await login('owner-b@roots.test');
    const processor = (c: HttpClient, system_cuid: string, name: string) =>
      c.mutate<any>('dataProcessor.create', { data: { name, entitytype_id, system_cuid } });
    let made = 0;
    for (let i = 0; i < room + 3; i++) if (!(await processor(b, i % 2 ? clinic : shellSystem, `B calc ${i}`)).error) made++;
    expect(made).toBe(room);
    expect((await processor(await login('owner-a@roots.test'), farm, 'A calc')).error).toBeUndefined();
  });

  it("partner triggers: B's installer flooding A's farm (shared with change) spends B's cap; A's installer still creates, and the rows are charged to B", async () => {
    await q(`INSERT INTO system_sharing (company_cuid, system_cuid, change) VALUES ($1, $2, true)`, [companyB, farm]);
    const account = await accountOf(companyB);
    const max = Math.max(await capCount('notification_trigger', account), await capCount('notification_trigger', [companyA])) + 5;
    t.config.TRIGGERS_PER_COMPANY = max;
    const room = max - (await capCount('notification_trigger', account));
    const b = await login('installer-b@roots.test');
    const trigger = (c: HttpClient, name: string) =>
      c.mutate<any>('notificationTrigger.create', { data: { name, message: 'Offline', system_cuid: farm, args: { kind: 'offline' } } });
    let made = 0;
    for (let i = 0; i < room + 5; i++) if (!(await trigger(b, `B flood ${i}`)).error) made++;
    expect(made).toBe(room);
    const own = await trigger(await login('installer@demo.local'), 'A own alarm on the farm');
    expect({ status: own.status, message: own.error?.message }).toEqual({ status: 200, message: undefined });
    const charged = await q(`SELECT DISTINCT charged_company_cuid AS c FROM notification_trigger WHERE name LIKE 'B flood %'`);
    expect(charged).toEqual([{ c: companyB }]);
  });
  it("template triggers: devices B's installer adds to A's farm (shared with change) get the operator's autocreate triggers charged to B, within B's cap (400 past it, nothing written); A's installer still adds a device and gets its trigger", async () => {
    const template = await (
      await login('superuser@demo.local')
    ).mutate<any>('notificationTemplateAssignment.create', {
      data: {
        name: 'Low battery',
        message: '{device} low',
        entitytype_id: 'pylontech-us5000',
        autocreate_triggers: true,
        args: { kind: 'threshold', parameter_id: 'battery_soc', op: 'below', value: 20 },
      },
    });
    expect(template.error).toBeUndefined();
    await q(
      `INSERT INTO system_sharing (company_cuid, system_cuid, change) SELECT $1::varchar, $2::varchar, true WHERE NOT EXISTS (SELECT 1 FROM system_sharing WHERE company_cuid = $1::varchar AND system_cuid = $2::varchar)`,
      [companyB, farm],
    );
    const account = await accountOf(companyB);
    const max = Math.max(await capCount('notification_trigger', account), await capCount('notification_trigger', [companyA])) + 3;
    t.config.TRIGGERS_PER_COMPANY = max;
    const room = max - (await capCount('notification_trigger', account));
    const device = (c: HttpClient, name: string) => c.mutate<any>('entity.create', { data: { name, entitytype_id: 'pylontech-us5000', system_cuid: farm } });
    const b = await login('installer-b@roots.test');
    const made: string[] = [];
    for (let i = 0; i < room + 3; i++) {
      const r = await device(b, `B pack ${i}`);
      if (!r.error) made.push(r.data.data.id);
      else
        expect({ status: r.status, message: r.error.message }).toEqual({
          status: 400,
          message: `This company has reached its limit of ${max} triggers; delete one before adding another`,
        });
    }
    expect(made).toHaveLength(room);
    expect((await q(`SELECT count(*)::int AS n FROM entity WHERE name LIKE 'B pack %'`))[0].n).toBe(room);
    const charged = await q(`SELECT DISTINCT charged_company_cuid AS c FROM notification_trigger WHERE args->>'entity_cuid' = ANY($1)`, [made]);
    expect(charged).toEqual([{ c: companyB }]);
    const own = await device(await login('installer@demo.local'), 'A pack');
    expect({ status: own.status, message: own.error?.message }).toEqual({ status: 200, message: undefined });
    expect(await q(`SELECT charged_company_cuid AS c FROM notification_trigger WHERE args->>'entity_cuid' = $1`, [own.data.data.id])).toEqual([
      { c: companyA },
    ]);
  });
});
