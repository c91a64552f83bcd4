import { SPENT_MEMORY_MS } from '../../server/src/budgets/spent-until';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

/**
 * Two classes of budgets through the public tRPC API, with two companies:
 * - commands per controller per minute: every writer (controllerCommand.send,
 *   controllerConfig.applyDifference) spends the controller's budget; past it 429 (French too);
 *   a refused command (bad payload) spends nothing; company B's controller in the same minute is
 *   unaffected; a partner with a change share never spends A's controller's budget;
 * - rows per company (triggers, notification channels, data processors): creation past the cap
 *   answers a clear 400 (and a data processor moved into a full company likewise); company B
 *   still creates.
 */
const PER_MINUTE = 3;
const B_CONTROLLER = 'budget-b-ctrl';

let t: TestApp;
let companyA: string;
let companyB: string;
let farm: string;
let clinic: string;
const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

/**
 * Empties every command budget. An instance trusts a refusal it remembers for up to
 * SPENT_MEMORY_MS before it asks the database again, so the emptied budgets count after that.
 */
async function resetCommandBudgets(): Promise<void> {
  await q(`DELETE FROM budget_use WHERE budget = 'command.controller'`);
  await new Promise((r) => setTimeout(r, SPENT_MEMORY_MS + 100));
}

async function login(email: string, headers: Record<string, string> = {}): Promise<HttpClient> {
  const c = new HttpClient(t.baseUrl, headers);
  expect((await c.login(email)).status).toBe(200);
  return c;
}

beforeAll(async () => {
  t = await startTestApp({ COMMAND_POLL_MS: '0', COMMANDS_PER_CONTROLLER_PER_MINUTE: String(PER_MINUTE) });
  [{ company_cuid: companyA }] = await q(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
  [{ company_cuid: companyB }] = await q(`SELECT company_cuid FROM company WHERE name = 'Other Energy Co'`);
  [{ system_cuid: farm }] = await q(`SELECT system_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
  [{ system_cuid: clinic }] = await q(`SELECT system_cuid FROM system WHERE company_cuid = $1 ORDER BY name LIMIT 1`, [companyB]);
  const [{ controllertype_cuid }] = await q(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
  await q(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ($1, $2, $3, $4, 'B controller')`, [
    B_CONTROLLER,
    controllertype_cuid,
    companyB,
    clinic,
  ]);
  await addMember(t.db.dataSource, 'installer-b@budgets.test', 'Other Energy Co', 1, true);
  await addMember(t.db.dataSource, 'owner-a@budgets.test', 'Demo Solar Ltd', 0, true);
  await addMember(t.db.dataSource, 'owner-b@budgets.test', 'Other Energy Co', 0, true);
});
afterAll(async () => {
  await t?.close();
});

describe('commands per controller per minute', () => {
  const apply = (c: HttpClient, controller_id: string, log_level: string) =>
    c.mutate<any>('controllerCommand.send', { controller_id, kind: 'apply_config', payload: { controller: { log_level } } });

  it(`every writer spends the controller's budget; past ${PER_MINUTE} a minute 429 (French too); a refused command spends nothing; company B's controller is unaffected`, async () => {
    const a = await login('installer@demo.local');
    const aFrench = await login('installer@demo.local', { 'accept-language': 'fr' });
    const b = await login('installer-b@budgets.test');
    const countA = async () => (await q(`SELECT count(*)::int AS n FROM controller_command WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]))[0].n;
    const before = await countA();

    // a command refused for its payload spends nothing
    const bad = await a.mutate<any>('controllerCommand.send', { controller_id: DEMO_CONTROLLER_ID, kind: 'apply_config', payload: { nothing: true } });
    expect(bad.error?.data.code).toBe('BAD_REQUEST');

    expect((await apply(a, DEMO_CONTROLLER_ID, 'debug')).error).toBeUndefined();
    expect((await apply(a, DEMO_CONTROLLER_ID, 'info')).error).toBeUndefined();
    // the desired configuration now differs from the reported one: "apply the difference" is the third writer
    expect((await a.mutate<any>('controllerConfig.applyDifference', { controller_id: DEMO_CONTROLLER_ID })).error).toBeUndefined();
    expect(await countA()).toBe(before + PER_MINUTE);

    const refused = await apply(a, DEMO_CONTROLLER_ID, 'warn');
    expect(refused.status).toBe(429);
    expect(refused.error?.data.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.error?.message).toMatch(/^Too many commands to this controller this minute; try again in \d+ s$/);
    const refusedFr = await aFrench.mutate<any>('controllerConfig.applyDifference', { controller_id: DEMO_CONTROLLER_ID });
    expect(refusedFr.status).toBe(429);
    expect(refusedFr.error?.message).toMatch(/^Trop de commandes vers ce contrôleur cette minute-ci ; réessayez dans \d+ s$/);
    expect(await countA()).toBe(before + PER_MINUTE);

    // company B's controller, same minute: all of its budget
    for (const level of ['debug', 'info', 'warn']) expect((await apply(b, B_CONTROLLER, level)).error).toBeUndefined();
    expect((await apply(b, B_CONTROLLER, 'error')).status).toBe(429);

    // a minute later company A's controller takes commands again (this instance trusts a refusal
    // it remembers for at most a second: SPENT_MEMORY_MS)
    await new Promise((r) => setTimeout(r, SPENT_MEMORY_MS + 100));
    await q(`UPDATE budget_use SET at = at - interval '61 seconds' WHERE budget = 'command.controller' AND split_part(key, '/', 1) = $1`, [DEMO_CONTROLLER_ID]);
    expect((await apply(a, DEMO_CONTROLLER_ID, 'warn')).error).toBeUndefined();
  });
});

describe("a partner's commands", () => {
  it("B's installer, with a change share of A's farm, cannot spend A's command budget (A's controller answers NOT_FOUND to B, nothing spent); A's installer still has all of it", async () => {
    await resetCommandBudgets();
    await q(`INSERT INTO system_sharing (company_cuid, system_cuid, change) VALUES ($1, $2, true) ON CONFLICT DO NOTHING`, [companyB, farm]);
    try {
      const a = await login('installer@demo.local');
      const b = await login('installer-b@budgets.test');
      const apply = (c: HttpClient, log_level: string) =>
        c.mutate<any>('controllerCommand.send', { controller_id: DEMO_CONTROLLER_ID, kind: 'apply_config', payload: { controller: { log_level } } });
      for (let i = 0; i < PER_MINUTE + 2; i++) expect((await apply(b, 'debug')).error?.data.code).toBe('NOT_FOUND');
      expect(await q(`SELECT key FROM budget_use WHERE budget = 'command.controller'`)).toEqual([]);
      for (const level of ['debug', 'info', 'warn']) expect((await apply(a, level)).error).toBeUndefined();
      expect((await apply(a, 'error')).status).toBe(429);
      // The budget is the controller's for the company the sender acts from.
      expect(await q(`SELECT key, count(*)::int AS n FROM budget_use WHERE budget = 'command.controller' GROUP BY key`)).toEqual([
        { key: `${DEMO_CONTROLLER_ID}/${companyA}`, n: PER_MINUTE },
      ]);
    } finally {
      await q(`DELETE FROM system_sharing WHERE company_cuid = $1 AND system_cuid = $2`, [companyB, farm]);
    }
  });
});

describe('refused commands spend nothing (every kind of refusal)', () => {
  it("refused commands (no password, past not_after, used id, bad payload, unknown kind), 50 at once, spend nothing; a valid one after them is accepted, the budget then counts only stored commands and a 429 stores nothing; company B's bad command fails alone", async () => {
    await resetCommandBudgets();
    const a = await login('installer@demo.local');
    const su = await login('superuser@demo.local');
    const b = await login('installer-b@budgets.test');
    const send = (c: HttpClient, input: Record<string, unknown>) => c.mutate<any>('controllerCommand.send', { controller_id: DEMO_CONTROLLER_ID, ...input });
    const stored = async (controller_id: string) =>
      (await q(`SELECT count(*)::int AS n FROM controller_command WHERE controller_id = $1`, [controller_id]))[0].n;
    const spent = async (controller_id: string) =>
      (await q(`SELECT count(*)::int AS n FROM budget_use WHERE budget = 'command.controller' AND split_part(key, '/', 1) = $1`, [controller_id]))[0].n;

    // one stored command whose id the refused ones reuse
    const used = `used-${Date.now()}`;
    expect((await send(a, { id: used, kind: 'apply_config', payload: { controller: { log_level: 'debug' } } })).error).toBeUndefined();
    const before = await stored(DEMO_CONTROLLER_ID);
    expect(await spent(DEMO_CONTROLLER_ID)).toBe(1);

    const refusals: [string, number, Record<string, unknown>][] = [
      ['no password', 412, { kind: 'restart', payload: {} }],
      ['past not_after', 400, { kind: 'apply_config', payload: { controller: { log_level: 'info' } }, not_after: new Date(Date.now() - 60_000) }],
      ['used id', 409, { id: used, kind: 'apply_config', payload: { controller: { log_level: 'warn' } } }],
      ['bad payload', 400, { kind: 'apply_config', payload: { nothing: true } }],
      ['unknown kind', 400, { kind: 'no_such_command', payload: {} }],
    ];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => refusals[i % refusals.length]).map(async ([why, status, input]) => [why, (await send(a, input)).status, status]),
    );
    for (const [why, got, want] of answers) expect([why, got]).toEqual([why, want]);
    expect(await stored(DEMO_CONTROLLER_ID)).toBe(before);
    expect(await spent(DEMO_CONTROLLER_ID)).toBe(1);

    // a valid command after the 50 refused ones: the superuser's restart with the right password
    const restart = await send(su, { kind: 'restart', payload: {}, password: 'demo-password' });
    expect(restart.error).toBeUndefined();
    expect(restart.data).toMatchObject({ kind: 'restart', status: 'PENDING' });
    expect((await send(a, { kind: 'apply_config', payload: { controller: { log_level: 'error' } } })).error).toBeUndefined();
    expect(await spent(DEMO_CONTROLLER_ID)).toBe(PER_MINUTE);
    // past the budget: 429, and the refused command is not stored
    const over = await send(a, { kind: 'apply_config', payload: { controller: { log_level: 'info' } } });
    expect(over.status).toBe(429);
    expect([await stored(DEMO_CONTROLLER_ID), await spent(DEMO_CONTROLLER_ID)]).toEqual([before + 2, PER_MINUTE]);

    // company B: its bad command fails alone, its valid one is stored
    const bBefore = await stored(B_CONTROLLER);
    expect((await send(b, { controller_id: B_CONTROLLER, kind: 'apply_config', payload: { nothing: true } })).status).toBe(400);
    expect((await send(b, { controller_id: B_CONTROLLER, kind: 'apply_config', payload: { controller: { log_level: 'debug' } } })).error).toBeUndefined();
    expect([await stored(B_CONTROLLER), await spent(B_CONTROLLER)]).toEqual([bBefore + 1, 1]);
  });
});

describe('rows per company (triggers, notification channels, data processors)', () => {
  /** The cap two rows above what the fuller company has now (the demo seed may have made some): the room each company has left. */
  async function capTwoAbove(setting: 'TRIGGERS_PER_COMPANY' | 'CHANNELS_PER_COMPANY' | 'PROCESSORS_PER_COMPANY', countSql: string) {
    const [{ n: a }] = await q(countSql, [companyA]);
    const [{ n: b }] = await q(countSql, [companyB]);
    const max = Math.max(a, b) + 2;
    t.config[setting] = max;
    const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
    return { max, roomA: names(max - a, 'cap'), roomB: names(max - b, 'b') };
  }

  it('triggers: past TRIGGERS_PER_COMPANY a creation in company A is refused with what to do; company B still creates', async () => {
    const { max, roomA, roomB } = await capTwoAbove(
      'TRIGGERS_PER_COMPANY',
      `SELECT count(*)::int AS n FROM notification_trigger t JOIN system s ON s.system_cuid = t.system_cuid WHERE s.company_cuid = $1`,
    );
    const a = await login('installer@demo.local');
    const b = await login('installer-b@budgets.test');
    const trigger = (c: HttpClient, system_cuid: string, name: string) =>
      c.mutate<any>('notificationTrigger.create', { data: { name, message: 'Offline', system_cuid, args: { kind: 'offline' } } });
    for (const name of roomA) expect((await trigger(a, farm, name)).error).toBeUndefined();
    const refused = await trigger(a, farm, 'one too many');
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toBe(`This company has reached its limit of ${max} triggers; delete one before adding another`);
    const fr = await (
      await login('installer@demo.local', { 'accept-language': 'fr' })
    ).mutate<any>('notificationTrigger.create', { data: { name: 'cap 4', message: 'x', system_cuid: farm, args: { kind: 'offline' } } });
    expect(fr.error?.message).toBe(`Cette entreprise a atteint sa limite de ${max} déclencheurs ; supprimez-en un avant d'en ajouter un autre`);
    for (const name of roomB) expect((await trigger(b, clinic, name)).error).toBeUndefined();
    expect((await trigger(b, clinic, 'one too many')).status).toBe(400);
  });

  it('notification channels: past CHANNELS_PER_COMPANY a creation in company A is refused (no mail budget spent); company B still creates', async () => {
    const { max, roomA, roomB } = await capTwoAbove('CHANNELS_PER_COMPANY', `SELECT count(*)::int AS n FROM notification_channel WHERE company_cuid = $1`);
    const a = await login('basic@demo.local');
    const b = await login('other@demo.local');
    const channel = (c: HttpClient, company_cuid: string, email: string) => c.mutate<any>('emailChannel.create', { company_cuid, email });
    for (const [i] of roomA.entries()) expect((await channel(a, companyA, `cap-${i}@outside.test`)).error).toBeUndefined();
    const mailsBefore = (await q(`SELECT count(*)::int AS n FROM budget_use WHERE budget = 'mail.company' AND key = $1`, [companyA]))[0].n;
    const refused = await channel(a, companyA, 'one-too-many@outside.test');
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toBe(`This company has reached its limit of ${max} notification channels; delete one before adding another`);
    expect((await q(`SELECT count(*)::int AS n FROM budget_use WHERE budget = 'mail.company' AND key = $1`, [companyA]))[0].n).toBe(mailsBefore);
    for (const [i] of roomB.entries()) expect((await channel(b, companyB, `b-${i}@outside.test`)).error).toBeUndefined();
  });

  it('data processors: past PROCESSORS_PER_COMPANY a creation, or a move into company A, is refused; company B still creates', async () => {
    const { max, roomA, roomB } = await capTwoAbove(
      'PROCESSORS_PER_COMPANY',
      `SELECT count(*)::int AS n FROM entity e JOIN system s ON s.system_cuid = e.system_cuid JOIN entity_type et ON et.entitytype_id = e.entitytype_id WHERE s.company_cuid = $1 AND et.entity_type <> 'Device'`,
    );
    const entitytype_id = 'budget-calc';
    await q(`INSERT INTO entity_type (entitytype_id, model, entity_type) VALUES ($1, 'Energy balance', 'CalculatedValue')`, [entitytype_id]);
    const a = await login('owner-a@budgets.test');
    const b = await login('owner-b@budgets.test');
    const processor = (c: HttpClient, system_cuid: string, name: string) =>
      c.mutate<any>('dataProcessor.create', { data: { name, entitytype_id, system_cuid } });
    for (const name of roomA) expect((await processor(a, farm, name)).error).toBeUndefined();
    const refused = await processor(a, farm, 'one too many');
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toBe(`This company has reached its limit of ${max} data processors; delete one before adding another`);
    const inB = [];
    for (const name of roomB) {
      const r = await processor(b, clinic, name);
      expect(r.error).toBeUndefined();
      inB.push(r.data.data.id);
    }
    // a superuser moving one of B's processors into a system of company A: refused too
    const su = await login('superuser@demo.local');
    const moved = await su.mutate<any>('dataProcessor.update', { id: inB[0], data: { system_cuid: farm }, previousData: {} });
    expect(moved.error?.message).toBe(`This company has reached its limit of ${max} data processors; delete one before adding another`);
  });
});
