import { CommandService } from '../../server/src/control/commands/command.service';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { issueSimulatorToken } from '../../server/src/simulator/fleet';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { openStream } from '../factories/sse';
import { addMember } from '../factories/users';

/**
 * Commands end to end with a controller that speaks HTTP (no MQTT): send over tRPC, the controller
 * fetches (GET …/commands) and acknowledges (POST …/commands/ack); the worker is driven by tick().
 */
describe('commands to an HTTP controller', () => {
  let t: TestApp;
  let commands: CommandService;
  let installer: HttpClient;
  let token: string;
  let otherToken: string;
  let installerCuid: string;
  let inverter: string;
  let systemCuid: string;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

  const fetchCommands = (controller = DEMO_CONTROLLER_ID, bearer = token, limit = 20) =>
    fetch(`${t.baseUrl}/api/ingest/${controller}/commands?limit=${limit}`, { headers: { authorization: `Bearer ${bearer}` } });
  const postAck = (body: unknown, controller = DEMO_CONTROLLER_ID, bearer = token, type = 'application/json') =>
    fetch(`${t.baseUrl}/api/ingest/${controller}/commands/ack`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const send = (c: HttpClient, input: Record<string, unknown>) =>
    c.mutate<any>('controllerCommand.send', { controller_id: DEMO_CONTROLLER_ID, payload: {}, ...input });
  const login = async (email: string) => {
    const c = new HttpClient(t.baseUrl);
    expect((await c.login(email)).status).toBe(200);
    return c;
  };

  beforeAll(async () => {
    // This file sends far more than a minute's budget to one controller; the budget has its own class test (test/budgets/).
    t = await startTestApp({ COMMAND_POLL_MS: '0', COMMAND_ACK_TIMEOUT_SECONDS: '30', COMMANDS_PER_CONTROLLER_PER_MINUTE: '1000' });
    commands = t.app.get(CommandService);
    installer = await login('installer@demo.local');
    [{ user_cuid: installerCuid }] = await q(`SELECT user_cuid FROM "user" WHERE email = 'installer@demo.local'`);
    const [ctrl] = await q(`SELECT company_cuid, system_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    systemCuid = ctrl.system_cuid;
    token = await issueSimulatorToken(t.db.dataSource, ctrl.company_cuid, 'test token');
    const [{ company_cuid: other }] = await q(`SELECT company_cuid FROM company WHERE name = 'Other Energy Co'`);
    otherToken = await issueSimulatorToken(t.db.dataSource, other, 'test token');
    const entities = await q(
      `SELECT e.entity_cuid, e.entitytype_id, et.entity_type::text AS kind FROM entity e JOIN entity_type et ON et.entitytype_id = e.entitytype_id WHERE e.controller_id = $1`,
      [DEMO_CONTROLLER_ID],
    );
    inverter = entities.find((e) => e.entitytype_id === 'victron-multiplus-ii').entity_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('round trip SUCCESS: PENDING at once, SENT when fetched, SUCCESS on the ack; reported configuration, changelog and toasts follow', async () => {
    const stream = await openStream(installer, 'portalNotification.onEvent');
    try {
      const sent = await send(installer, { kind: 'apply_config', payload: { controller: { log_level: 'debug' }, devices: { [inverter]: { mode: 'eco' } } } });
      expect(sent.error).toBeUndefined();
      expect(sent.data).toMatchObject({ status: 'PENDING', kind: 'apply_config', controller_id: DEMO_CONTROLLER_ID, requested_by: installerCuid, attempts: 0 });
      const id = sent.data.command_id;
      expect(sent.data.id).toBe(id);

      // The desired configuration took the patch.
      const config = await installer.query<any>('controllerConfig.get', { controller_id: DEMO_CONTROLLER_ID });
      const ctrlTarget = config.data.targets.find((x: any) => x.target === 'controller');
      const invTarget = config.data.targets.find((x: any) => x.key === inverter);
      expect(ctrlTarget.desired).toMatchObject({ log_level: 'debug' });
      expect(invTarget.desired).toMatchObject({ mode: 'eco' });
      expect(config.data.last_apply.command_id).toBe(id);

      const res = await fetchCommands();
      expect(res.status).toBe(200);
      const { commands: fetched } = await res.json();
      expect(fetched).toEqual([
        expect.objectContaining({ id, kind: 'apply_config', payload: { controller: { log_level: 'debug' }, devices: { [inverter]: { mode: 'eco' } } } }),
      ]);
      expect((await q(`SELECT status::text AS status, attempts FROM controller_command WHERE command_id = $1`, [id]))[0]).toEqual({
        status: 'SENT',
        attempts: 1,
      });

      const ack = await postAck({
        id,
        status: 'SUCCESS',
        message: 'applied',
        applied_config: { controller: ctrlTarget.desired, devices: { [inverter]: invTarget.desired } },
      });
      expect(ack.status).toBe(200);
      expect(await ack.json()).toEqual({ id, recorded: true, status: 'SUCCESS', late: false });

      const one = await installer.query<any>('controllerCommand.getOne', { id });
      expect(one.data.data).toMatchObject({ status: 'SUCCESS', message: 'applied', controller_name: expect.any(String), requester_name: 'Demo Installer' });
      expect(one.data.data.acked_at).toBeInstanceOf(Date);
      const [c] = await q(`SELECT reported_config, reported_at FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
      expect(c.reported_config).toEqual(ctrlTarget.desired);
      expect(c.reported_at).not.toBeNull();
      const [e] = await q(`SELECT reported_config FROM entity WHERE entity_cuid = $1`, [inverter]);
      expect(e.reported_config).toEqual(invTarget.desired);
      const after = await installer.query<any>('controllerConfig.get', { controller_id: DEMO_CONTROLLER_ID });
      expect(after.data.targets.find((x: any) => x.target === 'controller').difference).toBeNull();
      expect(after.data.targets.find((x: any) => x.key === inverter).difference).toBeNull();

      const logs = await q(`SELECT kind::text AS kind, user_cuid, title, system_cuid FROM system_changelog WHERE ref = $1`, [id]);
      expect(logs).toEqual([
        { kind: 'COMMAND', user_cuid: installerCuid, title: expect.stringMatching(/Apply configuration.*SUCCESS/), system_cuid: systemCuid },
      ]);

      await stream.waitFor(2);
      const toasts = stream.events.map((ev) => ev.toast).filter((x) => x?.id === id);
      expect(toasts.map((x) => x.actionResponse)).toEqual(['PENDING', 'SUCCESS']);
      expect(toasts[1]).toMatchObject({
        type: 'ACTION_RESPONSE',
        message: 'applied',
        command: { command_id: id, controller_id: DEMO_CONTROLLER_ID, status: 'SUCCESS' },
      });
      expect(toasts[0].onClickTarget).toBe(`/controller/${DEMO_CONTROLLER_ID}/show/commands`);

      // A repeated ack changes nothing.
      const again = await postAck({ id, status: 'FAILURE' });
      expect(await again.json()).toEqual({ id, recorded: false, status: 'SUCCESS', late: false });
      // Nothing left to fetch.
      expect((await (await fetchCommands()).json()).commands).toEqual([]);
    } finally {
      await stream.close();
    }
  });

  it('round trip FAILURE: the controller refuses with a message; a FAILURE toast and changelog entry', async () => {
    const [param] = await q(
      `SELECT a.parameter_id FROM entity_type_log_parameter_assignment a JOIN entity e ON e.entitytype_id = a.entitytype_id WHERE e.entity_cuid = $1 LIMIT 1`,
      [inverter],
    );
    expect(param).toBeDefined();
    const stream = await openStream(installer, 'portalNotification.onEvent');
    try {
      const sent = await send(installer, { kind: 'set_parameter', payload: { entity_cuid: inverter, parameter_id: param.parameter_id, value: 42 } });
      expect(sent.data.status).toBe('PENDING');
      const id = sent.data.command_id;
      const { commands: fetched } = await (await fetchCommands()).json();
      expect(fetched.map((c: any) => c.id)).toEqual([id]);
      const ack = await postAck({ id, status: 'FAILURE', message: 'Value out of range for this device' });
      expect(await ack.json()).toEqual({ id, recorded: true, status: 'FAILURE', late: false });
      expect((await q(`SELECT status::text AS status, message FROM controller_command WHERE command_id = $1`, [id]))[0]).toEqual({
        status: 'FAILURE',
        message: 'Value out of range for this device',
      });
      expect((await q(`SELECT title FROM system_changelog WHERE ref = $1`, [id]))[0].title).toMatch(/Set parameter.*FAILURE/);
      await stream.waitFor(2);
      const toasts = stream.events.map((ev) => ev.toast).filter((x) => x?.id === id);
      expect(toasts.map((x) => x.actionResponse)).toEqual(['PENDING', 'FAILURE']);
      expect(toasts[1].message).toBe('Value out of range for this device');
    } finally {
      await stream.close();
    }
  });

  it('checks the payload: field errors, a foreign device NOT_FOUND, an unknown kind on `kind`', async () => {
    const badParam = await send(installer, { kind: 'set_parameter', payload: { entity_cuid: inverter, parameter_id: 'no_such_parameter', value: 1 } });
    expect(badParam.error?.data.httpStatus).toBe(400);
    expect(badParam.error?.data.fieldErrors).toEqual([{ path: 'payload.parameter_id', message: expect.any(String) }]);
    const [foreign] = await q(`SELECT entity_cuid FROM entity WHERE controller_id IS DISTINCT FROM $1 LIMIT 1`, [DEMO_CONTROLLER_ID]);
    const foreignEntity = foreign?.entity_cuid ?? newCuid();
    const missing = await send(installer, { kind: 'set_parameter', payload: { entity_cuid: foreignEntity, parameter_id: 'x', value: 1 } });
    expect(missing.error?.data.httpStatus).toBe(404);
    const wrongDevice = await send(installer, { kind: 'apply_config', payload: { devices: { [foreignEntity]: { a: 1 } } } });
    expect(wrongDevice.error?.data.httpStatus).toBe(404);
    const empty = await send(installer, { kind: 'apply_config', payload: {} });
    expect(empty.error?.data.httpStatus).toBe(400);
    const unknown = await send(installer, { kind: 'launch_rocket', payload: {} });
    expect(unknown.error?.data.httpStatus).toBe(400);
    expect(unknown.error?.data.fieldErrors?.[0].path).toBe('kind');
    const past = await send(installer, { kind: 'apply_config', payload: { controller: { a: 1 } }, not_after: new Date(Date.now() - 1000) });
    expect(past.error?.data.fieldErrors?.[0].path).toBe('not_after');
    const far = await send(installer, { kind: 'apply_config', payload: { controller: { a: 1 } }, not_after: new Date(Date.now() + 30 * 86_400_000) });
    expect(far.error?.data.fieldErrors?.[0].path).toBe('not_after');
    expect((await q(`SELECT count(*)::int AS n FROM controller_command WHERE kind = 'launch_rocket'`))[0].n).toBe(0);
  });

  it('data processors in apply_config: a CalculatedValue needs level 0 (the installer gets 403, the superuser sends), a StateMachine level 1', async () => {
    const [{ system_cuid }] = await q(`SELECT system_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    const made: Record<string, string> = {};
    for (const kind of ['CalculatedValue', 'StateMachine']) {
      const type = `test-${kind.toLowerCase()}`;
      await q(`INSERT INTO entity_type (entitytype_id, model, entity_type) VALUES ($1, $2, $3::entity_type_kind) ON CONFLICT DO NOTHING`, [
        type,
        `${kind} processor`,
        kind,
      ]);
      made[kind] = newCuid();
      await q(`INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid, config) VALUES ($1, $2, $3, $4, $5, '{}')`, [
        made[kind],
        `${kind} 1`,
        DEMO_CONTROLLER_ID,
        type,
        system_cuid,
      ]);
    }
    const calculated = await send(installer, { kind: 'apply_config', payload: { devices: { [made.CalculatedValue]: { window: 5 } } } });
    expect(calculated.error?.data.httpStatus).toBe(403);
    const machine = await send(installer, { kind: 'apply_config', payload: { devices: { [made.StateMachine]: { window: 5 } } } });
    expect(machine.error).toBeUndefined();
    expect(machine.data.kind).toBe('apply_config');
    const superuser = await login('superuser@demo.local');
    const bySuperuser = await send(superuser, { kind: 'apply_config', payload: { devices: { [made.CalculatedValue]: { window: 5 } } } });
    expect(bySuperuser.error).toBeUndefined();
    expect((await q(`SELECT count(*)::int AS n FROM controller_command WHERE payload->'devices' ? $1`, [made.CalculatedValue]))[0].n).toBe(1);
  });

  it('a declared command of the controller type: its arguments are checked', async () => {
    await q(
      `UPDATE controller_type SET commands = $1::jsonb WHERE controllertype_cuid = (SELECT controllertype_cuid FROM controller WHERE controller_id = $2)`,
      [
        JSON.stringify([
          { name: 'set_export_limit', label: 'Set the export limit', args: [{ name: 'watts', type: 'number', required: true, min: 0, max: 10000 }] },
        ]),
        DEMO_CONTROLLER_ID,
      ],
    );
    const tooHigh = await send(installer, { kind: 'set_export_limit', payload: { watts: 20000 } });
    expect(tooHigh.error?.data.fieldErrors).toEqual([{ path: 'payload.watts', message: 'At most 10000' }]);
    const extra = await send(installer, { kind: 'set_export_limit', payload: { watts: 10, colour: 'red' } });
    expect(extra.error?.data.fieldErrors?.[0].path).toBe('payload.colour');
    const ok = await send(installer, { kind: 'set_export_limit', payload: { watts: 5000 } });
    expect(ok.data).toMatchObject({ status: 'PENDING', kind: 'set_export_limit', payload: { watts: 5000 }, dangerous: false });
    await fetchCommands();
    await postAck({ id: ok.data.command_id, status: 'SUCCESS' });
  });

  it('the same id twice: one row, one delivery; a different request under that id is a CONFLICT', async () => {
    const id = `same-${newCuid()}`;
    const first = await send(installer, { id, kind: 'apply_config', payload: { controller: { tariff: 'night' } } });
    const second = await send(installer, { id, kind: 'apply_config', payload: { controller: { tariff: 'night' } } });
    expect(first.data.command_id).toBe(id);
    expect(second.data).toEqual(first.data);
    expect((await q(`SELECT count(*)::int AS n FROM controller_command WHERE command_id = $1`, [id]))[0].n).toBe(1);
    const clash = await send(installer, { id, kind: 'apply_config', payload: { controller: { tariff: 'day' } } });
    expect(clash.error?.data.httpStatus).toBe(409);
    expect(clash.error?.message).toBe('This command id is already used');
    const { commands: fetched } = await (await fetchCommands()).json();
    expect(fetched.filter((c: any) => c.id === id)).toHaveLength(1);
    await postAck({ id, status: 'SUCCESS' });
    const third = await send(installer, { id, kind: 'apply_config', payload: { controller: { tariff: 'night' } } });
    expect(third.data.status).toBe('SUCCESS');
    expect((await (await fetchCommands()).json()).commands.filter((c: any) => c.id === id)).toEqual([]);
  });

  it('an offline controller keeps its commands until it fetches them; another controller acking this id gets 404 and changes nothing', async () => {
    const sent = await send(installer, { kind: 'apply_config', payload: { controller: { night_mode: true } } });
    const id = sent.data.command_id;
    await commands.tick();
    expect((await q(`SELECT status::text AS status FROM controller_command WHERE command_id = $1`, [id]))[0].status).toBe('PENDING');

    const [ctrl] = await q(`SELECT controllertype_cuid, company_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    await q(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, name) VALUES ('second-ctrl', $1, $2, 'Second')`, [
      ctrl.controllertype_cuid,
      ctrl.company_cuid,
    ]);
    const foreign = await postAck({ id, status: 'SUCCESS' }, 'second-ctrl');
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'NOT_FOUND' });
    // And the second controller cannot fetch it either.
    expect((await (await fetchCommands('second-ctrl')).json()).commands).toEqual([]);
    expect((await q(`SELECT status::text AS status, acked_at FROM controller_command WHERE command_id = $1`, [id]))[0]).toEqual({
      status: 'PENDING',
      acked_at: null,
    });

    const { commands: fetched } = await (await fetchCommands()).json();
    expect(fetched.map((c: any) => c.id)).toContain(id);
    expect((await (await postAck({ id, status: 'SUCCESS' })).json()).recorded).toBe(true);
  });

  it('expiry: a PENDING command past not_after becomes EXPIRED (changelog, FAILURE toast) and is never delivered', async () => {
    const stream = await openStream(installer, 'portalNotification.onEvent');
    try {
      const sent = await send(installer, { kind: 'apply_config', payload: { controller: { expire_me: 1 } } });
      const id = sent.data.command_id;
      await q(`UPDATE controller_command SET not_after = now() - interval '1 second' WHERE command_id = $1`, [id]);
      expect((await (await fetchCommands()).json()).commands.map((c: any) => c.id)).not.toContain(id);
      await commands.tick();
      expect((await q(`SELECT status::text AS status, finished_at FROM controller_command WHERE command_id = $1`, [id]))[0]).toMatchObject({
        status: 'EXPIRED',
        finished_at: expect.any(Date),
      });
      expect((await q(`SELECT title FROM system_changelog WHERE ref = $1`, [id]))[0].title).toMatch(/EXPIRED/);
      await stream.waitFor(2);
      const toasts = stream.events.map((ev) => ev.toast).filter((x) => x?.id === id);
      expect(toasts.map((x) => [x.actionResponse, x.command.status])).toEqual([
        ['PENDING', 'PENDING'],
        ['FAILURE', 'EXPIRED'],
      ]);
    } finally {
      await stream.close();
    }
  });

  it('TIMEOUT, then a late acknowledgement is still recorded (the device’s answer wins) with its own changelog entry', async () => {
    const sent = await send(installer, { kind: 'apply_config', payload: { controller: { slow: true } } });
    const id = sent.data.command_id;
    await fetchCommands();
    await q(`UPDATE controller_command SET sent_at = now() - interval '1 hour' WHERE command_id = $1`, [id]);
    await commands.tick();
    expect((await q(`SELECT status::text AS status FROM controller_command WHERE command_id = $1`, [id]))[0].status).toBe('TIMEOUT');
    const late = await postAck({ id, status: 'SUCCESS', message: 'done at last', applied_config: { controller: { slow: true } } });
    expect(await late.json()).toEqual({ id, recorded: true, status: 'SUCCESS', late: true });
    expect((await q(`SELECT status::text AS status, message FROM controller_command WHERE command_id = $1`, [id]))[0]).toEqual({
      status: 'SUCCESS',
      message: 'done at last',
    });
    const titles = (await q(`SELECT title FROM system_changelog WHERE ref = $1 ORDER BY "timestamp"`, [id])).map((r) => r.title);
    expect(titles).toEqual([expect.stringMatching(/TIMEOUT/), expect.stringMatching(/SUCCESS \(late answer\)/)]);
  });

  it('Basic and Expert cannot send (403); a user of another company gets NOT_FOUND and sees no command', async () => {
    const [{ command_id }] = await q(`SELECT command_id FROM controller_command LIMIT 1`);
    for (const email of ['basic@demo.local', 'expert@demo.local']) {
      const c = await login(email);
      const r = await send(c, { kind: 'apply_config', payload: { controller: { x: 1 } } });
      expect(r.error?.data.httpStatus).toBe(403);
    }
    await addMember(t.db.dataSource, 'installer@other.local', 'Other Energy Co', 1);
    const other = await login('installer@other.local');
    const r = await send(other, { kind: 'apply_config', payload: { controller: { x: 1 } } });
    expect(r.error?.data.httpStatus).toBe(404);
    expect(r.error?.message).toBe('Controller not found');
    expect((await other.query<any>('controllerCommand.getOne', { id: command_id })).error?.data.httpStatus).toBe(404);
    expect(
      (
        await other.query<any>('controllerCommand.getList', {
          pagination: { page: 1, perPage: 50 },
          sort: { field: 'requested_at', order: 'DESC' },
          filter: {},
        })
      ).data,
    ).toEqual({ data: [], total: 0 });
    expect((await other.query<any>('controllerConfig.get', { controller_id: DEMO_CONTROLLER_ID })).error?.data.httpStatus).toBe(404);
    const unknown = await send(installer, { controller_id: 'no-such-ctrl', kind: 'restart' });
    expect(unknown.error?.data.httpStatus).toBe(404);
    // The installer's list, filtered by status.
    const list = await installer.query<any>('controllerCommand.getList', {
      pagination: { page: 1, perPage: 50 },
      sort: { field: 'requested_at', order: 'DESC' },
      filter: { controller_id: DEMO_CONTROLLER_ID, status: 'SUCCESS' },
    });
    expect(list.data.total).toBeGreaterThan(0);
    expect(list.data.data.every((c: any) => c.status === 'SUCCESS')).toBe(true);
  });

  it('step-up: restart needs the password (412 with data.stepUp), a wrong one is a field error, the right one sends and counts for 5 minutes', async () => {
    const c = await login('installer@demo.local');
    const none = await send(c, { kind: 'restart', payload: { reason: 'test' } });
    expect(none.error?.data.httpStatus).toBe(412);
    expect(none.error?.message).toBe('Enter your password again to send this command');
    expect((none.error?.data as any).stepUp).toBe(true);
    const wrong = await send(c, { kind: 'restart', payload: {}, password: 'not-the-password' });
    expect(wrong.error?.data.httpStatus).toBe(400);
    expect(wrong.error?.data.fieldErrors).toEqual([{ path: 'password', message: expect.any(String) }]);
    expect((await q(`SELECT count(*)::int AS n FROM controller_command WHERE kind = 'restart'`))[0].n).toBe(0);
    const right = await send(c, { kind: 'restart', payload: {}, password: 'demo-password' });
    expect(right.data).toMatchObject({ status: 'PENDING', kind: 'restart', dangerous: true });
    const within = await send(c, { kind: 'restart', payload: {} });
    expect(within.data).toMatchObject({ status: 'PENDING', dangerous: true });
    // Another session of the same user has not stepped up.
    const other = await login('installer@demo.local');
    expect((await send(other, { kind: 'restart', payload: {} })).error?.data.httpStatus).toBe(412);
    // Past the window it is asked again.
    await q(`UPDATE session_step_up SET verified_at = now() - interval '10 minutes'`);
    expect((await send(c, { kind: 'restart', payload: {} })).error?.data.httpStatus).toBe(412);
  });

  it("acknowledgements arriving together (one batch): the same id twice is recorded once, a foreign controller's ack is refused", async () => {
    const a = (await send(installer, { kind: 'apply_config', payload: { controller: { batch: 1 } } })).data.command_id;
    const b = (await send(installer, { kind: 'apply_config', payload: { controller: { batch: 2 } } })).data.command_id;
    await fetchCommands();
    const answers = await Promise.all([
      commands.ack(DEMO_CONTROLLER_ID, { id: a, status: 'SUCCESS' }, 'mqtt'),
      commands.ack(DEMO_CONTROLLER_ID, { id: a, status: 'FAILURE' }, 'mqtt'),
      commands.ack('second-ctrl', { id: b, status: 'SUCCESS' }, 'mqtt').catch((e) => e),
      commands.ack(DEMO_CONTROLLER_ID, { id: b, status: 'FAILURE', message: 'no' }, 'mqtt'),
    ]);
    expect(answers[0]).toEqual({ id: a, recorded: true, status: 'SUCCESS', late: false });
    expect(answers[1]).toEqual({ id: a, recorded: false, status: 'SUCCESS' });
    expect(answers[2]).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(answers[3]).toEqual({ id: b, recorded: true, status: 'FAILURE', late: false });
    expect(
      await q(`SELECT command_id, status::text AS status FROM controller_command WHERE command_id = ANY($1) ORDER BY command_id`, [[a, b].sort()]),
    ).toEqual(
      [
        { command_id: a, status: 'SUCCESS' },
        { command_id: b, status: 'FAILURE' },
      ].sort((x, y) => x.command_id.localeCompare(y.command_id)),
    );
    expect((await q(`SELECT count(*)::int AS n FROM system_changelog WHERE ref = $1`, [a]))[0].n).toBe(1);
  });

  it('takes many sends to one controller at once (configuration and others mixed): every one stored, none refused', async () => {
    const inputs = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 2
        ? { kind: 'set_parameter', payload: { entity_cuid: inverter, parameter_id: 'ac_output_power', value: i } }
        : { kind: 'apply_config', payload: { controller: { parallel: i }, devices: { [inverter]: { parallel: i } } } },
    );
    const answers = await Promise.all(inputs.map((input) => send(installer, input)));
    // PENDING, or SENT when the controller's live connection took it at once: never an error.
    expect(answers.map((a) => a.error?.message ?? (['PENDING', 'SENT'].includes(a.data.status) ? 'stored' : a.data.status))).toEqual(
      inputs.map(() => 'stored'),
    );
    const ids = answers.map((a) => a.data.command_id);
    expect((await q(`SELECT count(*)::int AS n FROM controller_command WHERE command_id = ANY($1)`, [ids]))[0].n).toBe(12);
  });

  it('refuses junk on the controller endpoints with 4xx and {code, message}', async () => {
    expect((await postAck('{not json')).status).toBe(400);
    expect((await postAck({ id: 'x' })).status).toBe(400);
    expect((await postAck({ id: 'abcdefgh12', status: 'MAYBE' })).status).toBe(400);
    expect((await postAck([1, 2, 3])).status).toBe(400);
    expect((await postAck({ id: 'abcdefgh12', status: 'SUCCESS', extra: 1 })).status).toBe(400);
    const unknown = await postAck({ id: 'abcdefgh12', status: 'SUCCESS' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String), messageCode: "No command '{command}' for this controller" });
    expect((await postAck('id=1', DEMO_CONTROLLER_ID, token, 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await postAck({ id: 'abcdefgh12', status: 'SUCCESS' }, DEMO_CONTROLLER_ID, 'wrong-token')).status).toBe(401);
    expect((await postAck({ id: 'abcdefgh12', status: 'SUCCESS' }, DEMO_CONTROLLER_ID, otherToken)).status).toBe(403);
    expect((await fetchCommands(DEMO_CONTROLLER_ID, otherToken)).status).toBe(403);
    expect((await fetch(`${t.baseUrl}/api/ingest/${DEMO_CONTROLLER_ID}/commands`)).status).toBe(401);
    expect((await fetch(`${t.baseUrl}/api/ingest/${DEMO_CONTROLLER_ID}/commands?limit=abc`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      400,
    );
  });

  it('class "out-of-range limit": every limit outside the documented 1–100 is a 400 on the field, the bounds themselves pass', async () => {
    for (const limit of ['0', '101', '1000', '-1', '1.5', '1e2', '']) {
      const res = await fetchCommands(DEMO_CONTROLLER_ID, token, limit as unknown as number);
      expect([limit, res.status]).toEqual([limit, 400]);
      expect(await res.json()).toMatchObject({ code: 'BAD_REQUEST', fieldErrors: [{ path: 'limit', message: 'limit: a whole number from 1 to 100' }] });
    }
    for (const limit of [1, 100]) expect([limit, (await fetchCommands(DEMO_CONTROLLER_ID, token, limit)).status]).toEqual([limit, 200]);
  });
});
