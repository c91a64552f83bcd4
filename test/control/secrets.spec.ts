import { recordsToCsv } from '../../client/src/kit/csv';
import { SECRET_MASK } from '../../server/src/common/secret-config';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { loadFleet } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { MqttTransport } from '../../server/src/simulator/transports';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { type Mosquitto, startMosquitto } from '../factories/mosquitto';
import { addMember } from '../factories/users';

/**
 * The class "secrets stay secret" (docs/security.md): configuration values under secret keys
 * (wifi_psk, *password*, *token* …) of the controllers and devices of two companies — company A's
 * farm controller and company B's clinic controller (the clinic is shared read-only with A). Every
 * reader that returns configuration (changelog list and one, command list and one, controller and
 * device lists and ones, the back-office list export of those, the configuration view, the status
 * view), asked by each user who may not configure the controller (A's Basic and Expert; B's Basic;
 * A's Installer, Expert and Basic as read-only partners of B's clinic), never answers a secret value;
 * the installer who may configure still reads them; the controller gets the real values over MQTT
 * (Mosquitto, the simulator as the farm controller).
 */
jest.setTimeout(180_000);

type Side = 'A' | 'B';

describe('secrets stay secret (every reader of configuration × every actor who may not configure, two companies)', () => {
  let broker: Mosquitto;
  let t: TestApp;
  let transport: MqttTransport;
  let sim: SimController;
  const as: Record<string, HttpClient> = {};
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);
  const world = {} as Record<Side, { controller_id: string; system_cuid: string; device: string; configurer: string; readers: string[]; secrets: string[] }>;

  beforeAll(async () => {
    broker = await startMosquitto();
    t = await startTestApp({ MQTT_URL: broker.url, MQTT_CLIENT_ID: `portal-secrets-${process.pid}`, COMMAND_POLL_MS: '200' });
    await addMember(t.db.dataSource, 'installer@secrets-b.test', OTHER_COMPANY_NAME, 1);
    await addMember(t.db.dataSource, 'expert@secrets-b.test', OTHER_COMPANY_NAME, 2);
    for (const [who, email] of [
      ['installerA', 'installer@demo.local'],
      ['expertA', 'expert@demo.local'],
      ['basicA', 'basic@demo.local'],
      ['installerB', 'installer@secrets-b.test'],
      ['expertB', 'expert@secrets-b.test'],
      ['basicB', 'other@demo.local'],
    ]) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(email)).status).toBe(200);
    }
    const systems = await q<{ system_cuid: string; name: string }>(`SELECT system_cuid, name FROM system`);
    const farm = systems.find((s) => s.name === DEMO_SYSTEMS.farm)!.system_cuid;
    const clinic = systems.find((s) => s.name === DEMO_SYSTEMS.clinic)!.system_cuid;
    // Company B's clinic gets a controller and a device of its own (the inventory is not under test).
    const [{ controllertype_cuid }] = await q(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    const [{ entity_cuid: farmDevice, entitytype_id }] = await q(
      `SELECT entity_cuid, entitytype_id FROM entity WHERE controller_id = $1 AND entitytype_id = 'pylontech-us5000'`,
      [DEMO_CONTROLLER_ID],
    );
    const [{ company_cuid: other }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    await q(
      `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ('secrets-clinic-ctrl', $1, $2, $3, 'Clinic gateway')`,
      [controllertype_cuid, other, clinic],
    );
    const clinicDevice = newCuid();
    await q(`INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ($1, 'Clinic battery', 'secrets-clinic-ctrl', $2, $3)`, [
      clinicDevice,
      entitytype_id,
      clinic,
    ]);
    const secrets = (side: Side) => [`psk-${side}-${newCuid()}`, `pw-${side}-${newCuid()}`, `tok-${side}-${newCuid()}`];
    world.A = {
      controller_id: DEMO_CONTROLLER_ID,
      system_cuid: farm,
      device: farmDevice,
      configurer: 'installerA',
      readers: ['expertA', 'basicA'],
      secrets: secrets('A'),
    };
    world.B = {
      controller_id: 'secrets-clinic-ctrl',
      system_cuid: clinic,
      device: clinicDevice,
      configurer: 'installerB',
      readers: ['expertB', 'basicB', 'installerA', 'expertA', 'basicA'],
      secrets: secrets('B'),
    };

    [sim] = await loadFleet(t.db.dataSource, { controllers: [DEMO_CONTROLLER_ID] });
    transport = new MqttTransport(broker.url, 'portal/v1', { delayMs: 100 });
    await transport.connectAll([sim]);
  });
  afterAll(async () => {
    await transport?.close();
    await t?.close();
    await broker?.stop();
  });

  const list = (filter: Record<string, unknown>) => ({ pagination: { page: 1, perPage: 500 }, sort: { field: 'id', order: 'ASC' }, filter });

  /** Every reader of configuration, for one side's controller: [name, answer status, answer text]. */
  async function readAll(who: string, side: Side): Promise<[string, number, string][]> {
    const w = world[side];
    const c = as[who];
    const out: [string, number, string][] = [];
    const read = async (name: string, r: Promise<{ status: number; text: string; data?: any }>) => {
      const a = await r;
      out.push([name, a.status, a.text]);
      return a;
    };
    const changelog = await read('systemChangelog.getList', c.query('systemChangelog.getList', list({ system_cuid: w.system_cuid })));
    for (const e of changelog.data?.data ?? []) await read('systemChangelog.getOne', c.query('systemChangelog.getOne', { id: e.id }));
    const commands = await read('controllerCommand.getList', c.query('controllerCommand.getList', list({ controller_id: w.controller_id })));
    for (const e of commands.data?.data ?? []) await read('controllerCommand.getOne', c.query('controllerCommand.getOne', { id: e.id }));
    for (const resource of ['controller', 'entity']) {
      const rows = await read(`${resource}.getList`, c.query(`${resource}.getList`, list({})));
      // The back-office list export is the list, written by the browser.
      if (rows.status === 200) out.push([`${resource} list export`, 200, recordsToCsv(rows.data.data)]);
    }
    await read('controller.getOne', c.query('controller.getOne', { id: w.controller_id }));
    await read('entity.getOne', c.query('entity.getOne', { id: w.device }));
    await read('controller.getMany', c.query('controller.getMany', { ids: [w.controller_id] }));
    await read('controllerConfig.get', c.query('controllerConfig.get', { controller_id: w.controller_id }));
    await read('systemStatus.get', c.query('systemStatus.get', { system_cuid: w.system_cuid }));
    return out;
  }

  it('the configurer writes secrets (controller and device configuration, an apply_config command); the controller receives them over MQTT', async () => {
    for (const side of ['A', 'B'] as const) {
      const w = world[side];
      const c = as[w.configurer];
      const [psk, pw, tok] = w.secrets;
      const [ctrl] = await q(`SELECT config FROM controller WHERE controller_id = $1`, [w.controller_id]);
      const changed = await c.mutate('controller.update', { id: w.controller_id, data: { config: { ...ctrl.config, wifi_psk: psk, mqtt: { password: pw } } } });
      expect(changed.status).toBe(200);
      const [dev] = await q(`SELECT config FROM entity WHERE entity_cuid = $1`, [w.device]);
      expect((await c.mutate('entity.update', { id: w.device, data: { config: { ...dev.config, api_token: tok } } })).status).toBe(200);
      // The configurer reads what they wrote.
      expect((await c.query('controller.getOne', { id: w.controller_id })).data.data.config).toMatchObject({ wifi_psk: psk, mqtt: { password: pw } });
    }
    // A: the whole difference goes to the (simulated) farm controller, which acknowledges it.
    const applied = await as.installerA.mutate('controllerConfig.applyDifference', {
      controller_id: world.A.controller_id,
      only: [world.A.controller_id, world.A.device],
    });
    expect(applied.status).toBe(200);
    let row: any;
    for (let i = 0; i < 200; i++) {
      [row] = await q(`SELECT status::text AS status, applied_config FROM controller_command WHERE command_id = $1`, [applied.data.command_id]);
      if (row.status === 'SUCCESS' || row.status === 'FAILURE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(row.status).toBe('SUCCESS');
    // The controller got the real values over MQTT: its acknowledgement says it runs them.
    expect(row.applied_config.controller).toMatchObject({ wifi_psk: world.A.secrets[0], mqtt: { password: world.A.secrets[1] } });
    expect(row.applied_config.devices[world.A.device]).toMatchObject({ api_token: world.A.secrets[2] });
    // B: a command waiting for its (offline) controller holds the secret in its payload.
    const sent = await as.installerB.mutate('controllerCommand.send', {
      controller_id: world.B.controller_id,
      kind: 'apply_config',
      payload: { controller: { wifi_psk: world.B.secrets[0] } },
    });
    expect(sent.status).toBe(200);
    // Both controllers' type declares a command whose argument is secret by the schema, not by its name.
    const [{ controllertype_cuid }] = await q(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [world.A.controller_id]);
    const superuser = new HttpClient(t.baseUrl);
    expect((await superuser.login('superuser@demo.local')).status).toBe(200);
    const declared = await superuser.mutate('controllerType.update', {
      id: controllertype_cuid,
      data: { commands: [{ name: 'unlock_door', label: 'Unlock the cabinet', args: [{ name: 'unlock_code', type: 'string', required: true, secret: true }] }] },
    });
    expect(declared.status).toBe(200);
    for (const side of ['A', 'B'] as const) {
      const code = `code-${side}-${newCuid()}`;
      world[side].secrets.push(code);
      const unlock = await as[world[side].configurer].mutate('controllerCommand.send', {
        controller_id: world[side].controller_id,
        kind: 'unlock_door',
        payload: { unlock_code: code },
      });
      expect(unlock.status).toBe(200);
    }
    // A's online controller answers: wait for the final status (and its changelog entry) before anything reads.
    for (let i = 0; i < 200; i++) {
      const [{ open }] = await q(`SELECT count(*)::int AS open FROM controller_command WHERE controller_id = $1 AND status IN ('PENDING', 'SENT')`, [
        world.A.controller_id,
      ]);
      if (open === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const [{ final }] = await q(`SELECT count(*)::int AS final FROM system_changelog WHERE kind = 'COMMAND' AND system_cuid = $1`, [world.A.system_cuid]);
    expect(final).toBe(2);
    // Entries written before secrets were masked at write time (as the old code wrote them).
    for (const side of ['A', 'B'] as const) {
      const old = `old-${side}-${newCuid()}`;
      world[side].secrets.push(old);
      await q(
        `INSERT INTO system_changelog (log_cuid, "timestamp", title, message, system_cuid, kind, ref)
         VALUES ($1, now(), 'Configuration of gateway changed', $2, $4, 'CONFIGURATION', 'x'), ($3, now(), 'Apply configuration: SUCCESS', $5, $4, 'COMMAND', 'y')`,
        [newCuid(), `+ wifi_psk = "${old}"\n~ port: 1 → 2`, newCuid(), world[side].system_cuid, `Payload: {"controller":{"admin_password":"${old}","port":2}}`],
      );
    }
  });

  it.each([
    ['A', 'expertA'],
    ['A', 'basicA'],
    ['B', 'expertB'],
    ['B', 'basicB'],
    ['B', 'installerA'],
    ['B', 'expertA'],
    ['B', 'basicA'],
  ] as const)('company %s: %s (may not configure) never reads a secret value from any reader', async (side, who) => {
    expect(world[side].readers).toContain(who);
    const answers = await readAll(who, side);
    const leaks = answers.filter(([, , text]) => world[side].secrets.some((s) => text.includes(s))).map(([name]) => name);
    expect(leaks).toEqual([]);
    expect(answers.every(([, status]) => status < 500)).toBe(true);
    // Not vacuous: a partner reads the shared system's devices, with the secrets masked.
    if (side === 'B' && who.endsWith('A') && who !== 'basicA') {
      const one = answers.find(([name]) => name === 'entity.getOne')!;
      expect(one[1]).toBe(200);
      expect(JSON.parse(one[2]).result.data.json.data.config).toMatchObject({ api_token: SECRET_MASK });
    }
    // Not vacuous: a member who may view the controller (level 2) reads it and its commands, with the secrets masked.
    if (who === `expert${side}`) {
      const one = answers.find(([name]) => name === 'controller.getOne')!;
      expect(one[1]).toBe(200);
      expect(JSON.parse(one[2]).result.data.json.data.config).toMatchObject({ wifi_psk: SECRET_MASK, mqtt: { password: SECRET_MASK } });
      expect(answers.filter(([name, status]) => name === 'controllerCommand.getOne' && status === 200).length).toBeGreaterThan(0);
    }
    // The changelog is readable by everybody in the system (Basic too) and says the keys changed.
    const changelog = answers.find(([name]) => name === 'systemChangelog.getList')!;
    expect(changelog[1]).toBe(200);
    expect(changelog[2]).toContain('wifi_psk');
  });

  it.each(['A', 'B'] as const)('company %s: the installer who may configure still reads the real values', async (side) => {
    const w = world[side];
    const answers = await readAll(w.configurer, side);
    const read = (name: string) =>
      answers
        .filter(([n]) => n === name)
        .map(([, , text]) => text)
        .join('\n');
    expect(read('controller.getOne')).toContain(w.secrets[0]);
    expect(read('entity.getOne')).toContain(w.secrets[2]);
    expect(read('controllerConfig.get')).toContain(w.secrets[0]);
    expect(read('controllerCommand.getOne')).toContain(w.secrets[0]);
    expect(read('controllerCommand.getOne')).toContain(w.secrets[3]);
    // New changelog entries are stored masked for everybody; old ones show their values to the configurer only.
    expect(read('systemChangelog.getList')).not.toContain(w.secrets[0]);
    expect(read('systemChangelog.getList')).toContain(w.secrets[4]);
  });
});
