import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { addOtherCompanyController, eventually, sleep, startBrokerApp, type TelemetryTestApp } from './support/telemetry-app';

/**
 * The class of persistent sessions one controller may hold in the in-process broker, and of the
 * bytes all of them keep together (session-quota.ts, bounded-persistence.ts), over real MQTT with
 * two companies: company A's controller opening more persistent sessions (client id suffixes) than
 * MQTT_SESSIONS_PER_CONTROLLER is refused at CONNECT (5, not authorized) while its own reconnects
 * still come in; a flood of replies to its parked sessions keeps all sessions together within
 * MQTT_SESSION_QUEUE_TOTAL_BYTES (the largest session's oldest messages dropped, counted); company
 * B's parked session keeps every reply of its own and its publishes are acknowledged and answered.
 */
const PER_CONTROLLER = 2;
const TOTAL_BYTES = 2048;
const B_CONTROLLER = 'quota-b-ctrl';

describe('in-process broker: persistent sessions per controller and bytes of all sessions', () => {
  let t: TelemetryTestApp;
  let port: number;
  const clients: MqttClient[] = [];
  const replyTopic = (controller: string) => `portal/v1/${controller}/reply`;

  beforeAll(async () => {
    ({ t, port } = await startBrokerApp({ MQTT_SESSIONS_PER_CONTROLLER: String(PER_CONTROLLER), MQTT_SESSION_QUEUE_TOTAL_BYTES: String(TOTAL_BYTES) }));
    await addOtherCompanyController(t, B_CONTROLLER);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await t?.close();
  });

  const connect = async (username: string, password: string, clientId: string, clean: boolean) => {
    const c = await connectAsync(`mqtt://127.0.0.1:${port}`, { username, password, protocolVersion: 4, reconnectPeriod: 0, clientId, clean });
    clients.push(c);
    return c;
  };
  const metric = async (name: string) => {
    const body = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const line = body.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    if (!line) throw new Error(`no ${name} in /metrics: ${body.slice(0, 300)}`);
    return Number(line.split(' ').pop());
  };
  /** Connects a persistent session subscribed to its reply topic and parks it (disconnects). */
  const park = async (controller: string, token: string, suffix: string) => {
    const c = await connect(controller, token, `${controller}:${suffix}`, false);
    await c.subscribeAsync(replyTopic(controller), { qos: 1 });
    await c.endAsync();
  };
  const batch = (id: string) => JSON.stringify({ batch_id: id, rows: [] });

  it(`one controller holds at most ${PER_CONTROLLER} persistent sessions (more refused at CONNECT, its reconnects admitted, a clean CONNECT frees a place); all parked sessions keep at most ${TOTAL_BYTES} bytes together, the largest dropping first; company B's controller keeps flowing`, async () => {
    const A = { id: DEMO_CONTROLLER_ID, token: t.demo.demoToken };
    const B = { id: B_CONTROLLER, token: t.demo.otherToken };
    for (let i = 1; i <= PER_CONTROLLER; i++) await park(A.id, A.token, `s${i}`);
    const refusedBefore = await metric('portal_mqtt_session_refusals_total');
    // one more suffix, persistent: refused "not authorized"; the same suffixes again: admitted
    for (const suffix of ['s3', 's4']) await expect(connect(A.id, A.token, `${A.id}:${suffix}`, false)).rejects.toMatchObject({ code: 5 });
    expect((await metric('portal_mqtt_session_refusals_total')) - refusedBefore).toBe(2);
    await (await connect(A.id, A.token, `${A.id}:s1`, false)).endAsync();
    // clean sessions are not counted: the publisher comes in
    const publisher = await connect(A.id, A.token, `${A.id}:pub`, true);
    // company B's controller parks its own persistent session
    await park(B.id, B.token, 'b1');

    const droppedBefore = await metric('portal_mqtt_session_dropped_messages_total');
    const n = 30;
    for (let i = 0; i < n; i++) await publisher.publishAsync(`portal/v1/${A.id}/telemetry`, batch(`a-${i}`), { qos: 1 });
    const bPublisher = await connect(B.id, B.token, `${B.id}:pub`, true);
    // publishAsync resolves on the PUBACK: B's publishes are acknowledged
    for (let i = 0; i < 3; i++) await bPublisher.publishAsync(`portal/v1/${B.id}/telemetry`, batch(`b-${i}`), { qos: 1 });
    expect(
      await eventually(
        async () => (await metric('portal_mqtt_session_queued_messages')) >= 3 && (await metric('portal_mqtt_session_dropped_messages_total')) > droppedBefore,
      ),
    ).toBe(true);
    await sleep(300);
    expect(await metric('portal_mqtt_session_queued_bytes')).toBeLessThanOrEqual(TOTAL_BYTES);
    expect(await metric('portal_mqtt_session_queued_bytes')).toBeGreaterThan(TOTAL_BYTES / 2);

    // B's parked session kept every reply of its own, in order
    const bReceived: string[] = [];
    const bBack = await connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: B.id,
      password: B.token,
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: `${B.id}:b1`,
      clean: false,
    });
    clients.push(bBack);
    bBack.on('message', (_topic, payload) => bReceived.push(JSON.parse(payload.toString()).batch_id));
    expect(await eventually(async () => bReceived.length === 3)).toBe(true);
    expect(bReceived).toEqual(['b-0', 'b-1', 'b-2']);

    // A's parked session got only the newest replies (the oldest were dropped), in order
    const aReceived: string[] = [];
    const aBack = await connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: A.id,
      password: A.token,
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: `${A.id}:s2`,
      clean: false,
    });
    clients.push(aBack);
    aBack.on('message', (_topic, payload) => aReceived.push(JSON.parse(payload.toString()).batch_id));
    expect(await eventually(async () => aReceived.length > 0)).toBe(true);
    await sleep(300);
    expect(aReceived.length).toBeLessThan(n);
    expect(aReceived).toEqual(Array.from({ length: aReceived.length }, (_, i) => `a-${n - aReceived.length + i}`));
    await aBack.endAsync();

    // a clean CONNECT under a held suffix ends that session and frees its place
    await (await connect(A.id, A.token, `${A.id}:s2`, true)).endAsync();
    await (await connect(A.id, A.token, `${A.id}:s3`, false)).endAsync();
    await expect(connect(A.id, A.token, `${A.id}:s4`, false)).rejects.toMatchObject({ code: 5 });
  });
});
