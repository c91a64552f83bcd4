import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { ControllerOnlineStateService } from '../../server/src/telemetry/controller-online-state.service';
import { eventually, freePort, sleep, startTelemetryTestApp, type TelemetryTestApp } from './support/telemetry-app';

/**
 * The in-process broker of the embedded mode (no MQTT_URL): the portal itself checks each
 * controller's token and topics, and sends the PUBACK only after the batch's commit.
 */
describe('in-process MQTT broker', () => {
  let t: TelemetryTestApp;
  let url: string;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    const port = await freePort();
    t = await startTelemetryTestApp({ env: { MQTT_PORT: String(port), MQTT_HOST: '127.0.0.1' } });
    url = `mqtt://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await t?.close();
  });

  const connect = async (username: string, password: string, clientId = `${username}:t-${Math.random().toString(36).slice(2)}`) => {
    const c = await connectAsync(url, { username, password, protocolVersion: 4, reconnectPeriod: 0, clientId });
    clients.push(c);
    return c;
  };
  const count = async (entity: string, parameter: string) =>
    (await t.query(`SELECT count(*)::int AS n FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = $2`, [entity, parameter]))[0].n;

  it('acknowledges a QoS 1 publish only once its rows are committed, and answers on the reply topic', async () => {
    const c = await connect(DEMO_CONTROLLER_ID, t.demo.demoToken);
    const replies: any[] = [];
    c.on('message', (_topic, payload) => replies.push(JSON.parse(payload.toString())));
    await c.subscribeAsync(`portal/v1/${DEMO_CONTROLLER_ID}/reply`, { qos: 1 });
    const now = Date.now();
    const rows = Array.from({ length: 50 }, (_, i) => ({
      timestamp: now - i * 1000,
      entity_cuid: t.demo.battery,
      parameter_id: 'battery_soc',
      value: 50 + i / 10,
    }));
    rows.push({ timestamp: now, entity_cuid: 'someone-else', parameter_id: 'battery_soc', value: 1 });
    await c.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, JSON.stringify({ batch_id: 'e-1', rows }), { qos: 1 });
    // The PUBACK has arrived: the rows must be there already (no waiting).
    expect(await count(t.demo.battery, 'battery_soc')).toBe(50);
    expect(await eventually(async () => replies.length === 1)).toBe(true);
    expect(replies[0]).toEqual({ batch_id: 'e-1', accepted: 50, duplicates: 0, rejected: [{ index: 50, reason: "unknown entity 'someone-else'" }] });

    await c.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, JSON.stringify({ batch_id: 'e-1', rows }), { qos: 1 });
    expect(await eventually(async () => replies.length === 2)).toBe(true);
    expect(replies[1]).toMatchObject({ accepted: 0, duplicates: 50 });
    await c.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, '{not json', { qos: 1 });
    expect(await eventually(async () => replies.length === 3)).toBe(true);
    expect(replies[2]).toEqual({ code: 'PARSE_ERROR', message: 'The payload is not valid JSON' });
    expect(c.connected).toBe(true); // a bad payload is answered, not punished
  });

  it('counts MQTT traffic as contact for the online state', async () => {
    const c = await connect(DEMO_CONTROLLER_ID, t.demo.demoToken);
    await c.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/heartbeat`, JSON.stringify({ uptime_s: 12 }), { qos: 1 });
    await t.app.get(ControllerOnlineStateService).settle();
    const [row] = await t.query(`SELECT last_transport FROM controller_presence WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    expect(row.last_transport).toBe('mqtt');
  });

  it('refuses a wrong token and a token of another company at connect', async () => {
    await expect(connect(DEMO_CONTROLLER_ID, t.demo.demoToken.slice(0, -4) + 'AAAA')).rejects.toThrow(/Bad username or password/i);
    await expect(connect(DEMO_CONTROLLER_ID, t.demo.otherToken)).rejects.toThrow(/Not authorized/i);
    await expect(connect('no-such-controller', t.demo.demoToken)).rejects.toThrow(/Not authorized/i);
  });

  it('keeps a controller to its own topics: another controller’s topic disconnects it and stores nothing', async () => {
    const [{ controllertype_cuid }] = await t.query(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    await t.query(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, name) VALUES ('neighbour-ctrl', $1, $2, 'Neighbour')`, [
      controllertype_cuid,
      t.demo.demoCompany,
    ]);
    const c = await connect(DEMO_CONTROLLER_ID, t.demo.demoToken);
    // Subscriptions beyond its own reply topic fail (SUBACK 0x80); the connection stays.
    await expect(c.subscribeAsync('portal/v1/neighbour-ctrl/reply', { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await expect(c.subscribeAsync('portal/v1/#', { qos: 1 })).rejects.toThrow(/Subscribe error/);
    expect(c.connected).toBe(true);
    const before = await count(t.demo.battery, 'battery_voltage');
    c.publish(
      'portal/v1/neighbour-ctrl/telemetry',
      JSON.stringify({ rows: [{ timestamp: Date.now(), entity_cuid: t.demo.battery, parameter_id: 'battery_voltage', value: 1 }] }),
      { qos: 1 },
    );
    expect(await eventually(async () => !c.connected, 5000)).toBe(true);
    await sleep(100);
    expect(await count(t.demo.battery, 'battery_voltage')).toBe(before);
  });

  it('refuses a client id that is not the controller’s own before it can take over another company’s session', async () => {
    const [{ controllertype_cuid }] = await t.query(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    await t.query(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, name) VALUES ('rival-ctrl', $1, $2, 'Rival')`, [
      controllertype_cuid,
      t.demo.otherCompany,
    ]);
    const victim = await connect(DEMO_CONTROLLER_ID, t.demo.demoToken, DEMO_CONTROLLER_ID);
    let dropped = false;
    victim.on('close', () => (dropped = true));
    // Another company's controller, with its own valid token, tries the victim's client ids.
    for (const clientId of [DEMO_CONTROLLER_ID, `sim-${DEMO_CONTROLLER_ID}`, `${DEMO_CONTROLLER_ID}:x`, `t-1`, 'mqttjs_1234']) {
      await expect(connect('rival-ctrl', t.demo.otherToken, clientId)).rejects.toThrow(/Identifier rejected/i);
    }
    await sleep(200);
    expect(dropped).toBe(false);
    expect(victim.connected).toBe(true);
    // Still online and served: its publishes are acknowledged.
    await victim.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/heartbeat`, '', { qos: 1 });
    const [{ online_state }] = await t.query(`SELECT online_state FROM controller_online_state WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    expect(online_state).toBe('ONLINE');
    // Its own id, or its own id with a ':' suffix, is fine.
    expect((await connect('rival-ctrl', t.demo.otherToken, 'rival-ctrl')).connected).toBe(true);
    expect((await connect('rival-ctrl', t.demo.otherToken, 'rival-ctrl:diagnostics')).connected).toBe(true);
    expect(victim.connected).toBe(true);
  });
});
