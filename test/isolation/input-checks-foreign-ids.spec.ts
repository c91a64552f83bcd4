import { DEMO_CONTROLLER_ID, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { newCuid } from '../../server/src/common/ids';
import { addTrigger } from '../factories/alert-fixtures';
import type { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';
import { type AlertTestApp, startAlertApp } from '../alerts/support';

/**
 * Class: a foreign id answers exactly like a missing one (docs/security.md), also through the
 * checks a resource runs before its write (CrudHooks.checkInput: every resource that has one is
 * here: notificationTrigger, dashboard; the notification templates are a global catalogue and the
 * branding domains a superuser's, whose names are unique across the portal). notificationTrigger's rule check (alerts/engine/alert-write-hooks.service.ts,
 * `checkInput`) runs before the generated router's scope check; it must not look into a system the
 * caller does not see, or its answer tells another company's controllers and devices apart from
 * unknown ones (a controller id is a serial number, easily guessed), and a foreign trigger or
 * system apart from a missing one. Runs on PostgreSQL when TEST_DATABASE_URL is set.
 */
describe("the checks before a write (CrudHooks.checkInput) never tell another company's rows apart from missing ones", () => {
  let t: AlertTestApp;
  let intruder: HttpClient;
  let foreignTrigger: string;

  beforeAll(async () => {
    t = await startAlertApp();
    // An installer of the other company: may change triggers of its own systems, sees none of the demo company's.
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    intruder = await t.client('other-installer@demo.local');
    foreignTrigger = await addTrigger(t.db.dataSource, t.demo.farm, { name: 'Demo battery low' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Status and error (code, message, field errors) of a call: what a caller can tell apart. */
  type Failure = { message?: string; data?: { code?: string; fieldErrors?: unknown } };
  const shape = (r: { status: number; body: unknown }) => {
    const error = (r.body as { error?: { json?: Failure } }).error?.json;
    return { status: r.status, code: error?.data?.code, message: error?.message, fieldErrors: error?.data?.fieldErrors ?? null };
  };

  it("update: another company's trigger answers like a missing one, whether the rule names that system's controller or not", async () => {
    const offline = (controller_id: string) => ({ kind: 'offline', controller_id, after_seconds: 60 });
    const update = (id: string, controller_id: string) => intruder.mutate('notificationTrigger.update', { id, data: { args: offline(controller_id) } });
    const missing = shape(await update(newCuid(), DEMO_CONTROLLER_ID));
    expect(missing.status).toBe(404);
    // The demo company's controller, and a serial nobody has: the same answer as a missing trigger.
    expect(shape(await update(foreignTrigger, DEMO_CONTROLLER_ID))).toEqual(missing);
    expect(shape(await update(foreignTrigger, 'NO-SUCH-SERIAL-0000'))).toEqual(missing);
    // A device of the farm and an unknown one, likewise.
    const threshold = (entity_cuid: string) => ({ kind: 'threshold', entity_cuid, parameter_id: 'battery_soc', op: 'below', value: 20 });
    for (const entity_cuid of [t.demo.battery, newCuid()]) {
      expect(shape(await intruder.mutate('notificationTrigger.update', { id: foreignTrigger, data: { args: threshold(entity_cuid) } }))).toEqual(missing);
    }
    // Nothing was written.
    const [row] = await t.query(`SELECT args FROM notification_trigger WHERE trigger_cuid = $1`, [foreignTrigger]);
    expect(row.args).toMatchObject({ kind: 'threshold', entity_cuid: 'x' });
  });

  it("create: another company's system answers like a missing one, whether the rule names that system's controller or not", async () => {
    const create = (system_cuid: string, controller_id: string) =>
      intruder.mutate('notificationTrigger.create', {
        data: { name: 'Probe', message: 'Probe', system_cuid, args: { kind: 'offline', controller_id, after_seconds: 60 } },
      });
    const missing = shape(await create(newCuid(), DEMO_CONTROLLER_ID));
    expect(missing.status).toBe(404);
    expect(shape(await create(t.demo.farm, DEMO_CONTROLLER_ID))).toEqual(missing);
    expect(shape(await create(t.demo.farm, 'NO-SUCH-SERIAL-0000'))).toEqual(missing);
    const [{ n }] = await t.query(`SELECT count(*)::int AS n FROM notification_trigger WHERE name = 'Probe'`);
    expect(n).toBe(0);
  });
  it("dashboard: another company's owner (company or system) answers like a missing one", async () => {
    const create = (entityowner_cuid: string) => intruder.mutate('dashboard.create', { data: { name: 'Probe board', entityowner_cuid } });
    // The permission to create in the owner's company is judged first: neither is one of the caller's.
    const missing = shape(await create(newCuid()));
    expect(missing.status).toBe(403);
    for (const foreign of [t.demo.demoCompany, t.demo.farm]) expect(shape(await create(foreign))).toEqual(missing);
    const [{ n }] = await t.query(`SELECT count(*)::int AS n FROM dashboard WHERE name = 'Probe board'`);
    expect(n).toBe(0);
  });
});
