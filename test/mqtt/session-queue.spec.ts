import { connect as connectTcp, type Socket } from 'node:net';
import { connectAsync, type MqttClient } from 'mqtt';
import * as mqttPacket from 'mqtt-packet';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { addOtherCompanyController, eventually, sleep, startBrokerApp, type TelemetryTestApp } from './support/telemetry-app';

/**
 * The class of what the in-process broker keeps for a client (bounded-persistence.ts), over real
 * MQTT with two companies: a parked persistent session of company A flooded with replies keeps at
 * most MQTT_SESSION_QUEUE_MAX_MESSAGES messages and MQTT_SESSION_QUEUE_MAX_BYTES bytes (the oldest
 * dropped, counted in portal_mqtt_session_dropped_messages_total; the newest delivered, in order,
 * when it reconnects), while company B's controller's publishes are acknowledged and answered; a
 * connected client that acknowledges nothing has at most MQTT_MAX_INFLIGHT messages sent to it,
 * the next going out when it acknowledges one.
 */
const MAX_MESSAGES = 5;
const MAX_BYTES = 2048;
const MAX_INFLIGHT = 2;
const B_CONTROLLER = 'queue-b-ctrl';
const OVERHEAD = 64; // what bounded-persistence.ts counts per message beside its payload and topic

describe('in-process broker: bounded sessions', () => {
  let t: TelemetryTestApp;
  let port: number;
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];
  const replyTopic = (controller: string) => `portal/v1/${controller}/reply`;

  beforeAll(async () => {
    ({ t, port } = await startBrokerApp({
      MQTT_SESSION_QUEUE_MAX_MESSAGES: String(MAX_MESSAGES),
      MQTT_SESSION_QUEUE_MAX_BYTES: String(MAX_BYTES),
      MQTT_MAX_INFLIGHT: String(MAX_INFLIGHT),
    }));
    await addOtherCompanyController(t, B_CONTROLLER);
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await t?.close();
  });

  const connect = async (username: string, password: string, clientId: string, clean = true) => {
    const c = await connectAsync(`mqtt://127.0.0.1:${port}`, { username, password, protocolVersion: 4, reconnectPeriod: 0, clientId, clean });
    clients.push(c);
    return c;
  };
  const dropped = async () => {
    const body = await (await fetch(`${t.baseUrl}/metrics`)).text();
    return Number(
      body
        .split('\n')
        .find((l) => l.startsWith('portal_mqtt_session_dropped_messages_total'))
        ?.split(' ')
        .pop(),
    );
  };
  /** A telemetry batch with `rejected` rows: its reply names each, so replies grow with `bad`. */
  const batch = (id: string, bad = 0) =>
    JSON.stringify({
      batch_id: id,
      rows: Array.from({ length: bad }, (_, i) => ({ timestamp: Date.now(), entity_cuid: `not-a-device-${i}`, parameter_id: 'battery_soc', value: 1 })),
    });

  /** Parks a persistent session of company A subscribed to its reply topic, floods it with `n` replies, reconnects it: what it receives. */
  async function floodParked(name: string, n: number, bad: number): Promise<{ received: { batch_id: string; bytes: number }[]; bReplies: string[] }> {
    const parkedId = `${DEMO_CONTROLLER_ID}:${name}`;
    const parked = await connect(DEMO_CONTROLLER_ID, t.demo.demoToken, parkedId, false);
    await parked.subscribeAsync(replyTopic(DEMO_CONTROLLER_ID), { qos: 1 });
    await parked.endAsync();

    const publisher = await connect(DEMO_CONTROLLER_ID, t.demo.demoToken, `${DEMO_CONTROLLER_ID}:pub-${name}`);
    const b = await connect(B_CONTROLLER, t.demo.otherToken, `${B_CONTROLLER}:${name}`);
    const bReplies: string[] = [];
    b.on('message', (_topic, payload) => bReplies.push(JSON.parse(payload.toString()).batch_id));
    await b.subscribeAsync(replyTopic(B_CONTROLLER), { qos: 1 });
    const droppedBefore = await dropped();
    for (let i = 0; i < n; i++) {
      await publisher.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, batch(`${name}-${i}`, bad), { qos: 1 });
      // company B's controller publishes in the middle of the flood: acknowledged (publishAsync resolves on the PUBACK) and answered
      if (i % 4 === 0) await b.publishAsync(`portal/v1/${B_CONTROLLER}/telemetry`, batch(`b-${name}-${i}`), { qos: 1 });
    }
    expect(await eventually(async () => bReplies.length === Math.ceil(n / 4))).toBe(true);
    expect(await eventually(async () => (await dropped()) > droppedBefore)).toBe(true);

    const received: { batch_id: string; bytes: number }[] = [];
    const back = await connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: DEMO_CONTROLLER_ID,
      password: t.demo.demoToken,
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: parkedId,
      clean: false,
    });
    clients.push(back);
    back.on('message', (topic, payload) =>
      received.push({ batch_id: JSON.parse(payload.toString()).batch_id, bytes: payload.length + Buffer.byteLength(topic) + OVERHEAD }),
    );
    expect(await eventually(async () => received.length > 0)).toBe(true);
    await sleep(500); // anything more the session still held would have arrived by now
    return { received, bReplies };
  }

  it(`a parked session keeps at most ${MAX_MESSAGES} messages: the oldest are dropped (metric), the newest delivered in order on reconnect; company B's controller flows meanwhile`, async () => {
    const n = 12;
    const droppedBefore = await dropped();
    const { received, bReplies } = await floodParked('count', n, 0);
    expect(received.map((r) => r.batch_id)).toEqual(Array.from({ length: MAX_MESSAGES }, (_, i) => `count-${n - MAX_MESSAGES + i}`));
    expect((await dropped()) - droppedBefore).toBe(n - MAX_MESSAGES);
    expect(bReplies).toEqual(Array.from({ length: Math.ceil(n / 4) }, (_, i) => `b-count-${i * 4}`));
  });

  it(`a parked session keeps at most ${MAX_BYTES} bytes: the newest replies that fit, in order`, async () => {
    const n = 8;
    // replies of ~700 bytes each: the byte bound bites before the message bound
    const { received } = await floodParked('bytes', n, 12);
    const total = received.reduce((sum, r) => sum + r.bytes, 0);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(MAX_MESSAGES);
    expect(total).toBeLessThanOrEqual(MAX_BYTES);
    // one more (of the same size) would not have fitted, and what arrived is the newest, in order
    expect(total + received[0].bytes).toBeGreaterThan(MAX_BYTES);
    expect(received.map((r) => r.batch_id)).toEqual(Array.from({ length: received.length }, (_, i) => `bytes-${n - received.length + i}`));
  });

  it(`a client that acknowledges nothing has at most ${MAX_INFLIGHT} messages in flight; each acknowledgement lets the next one out`, async () => {
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    const publishes: { messageId: number; batch_id: string }[] = [];
    let subscribed = false;
    parser.on('packet', (p: any) => {
      if (p.cmd === 'publish') publishes.push({ messageId: p.messageId, batch_id: JSON.parse(p.payload.toString()).batch_id });
      if (p.cmd === 'suback') subscribed = true;
    });
    const socket = connectTcp(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('data', (d) => parser.parse(d));
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write(
      mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: false,
        clientId: `${DEMO_CONTROLLER_ID}:silent`,
        keepalive: 60,
        username: DEMO_CONTROLLER_ID,
        password: Buffer.from(t.demo.demoToken),
      }),
    );
    socket.write(mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: replyTopic(DEMO_CONTROLLER_ID), qos: 1 }] }));
    expect(await eventually(async () => subscribed)).toBe(true);

    const publisher = await connect(DEMO_CONTROLLER_ID, t.demo.demoToken, `${DEMO_CONTROLLER_ID}:pub-silent`);
    for (let i = 0; i < 4; i++) await publisher.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, batch(`silent-${i}`), { qos: 1 });
    expect(await eventually(async () => publishes.length === MAX_INFLIGHT)).toBe(true);
    await sleep(300);
    expect(publishes.map((p) => p.batch_id)).toEqual(['silent-0', 'silent-1']);

    socket.write(mqttPacket.generate({ cmd: 'puback', messageId: publishes[0].messageId }));
    expect(await eventually(async () => publishes.length === MAX_INFLIGHT + 1)).toBe(true);
    await sleep(300);
    expect(publishes.map((p) => p.batch_id)).toEqual(['silent-0', 'silent-1', 'silent-2']);
    socket.write(mqttPacket.generate({ cmd: 'puback', messageId: publishes[1].messageId }));
    socket.write(mqttPacket.generate({ cmd: 'puback', messageId: publishes[2].messageId }));
    expect(await eventually(async () => publishes.length === 4)).toBe(true);
    expect(publishes.map((p) => p.batch_id)).toEqual(['silent-0', 'silent-1', 'silent-2', 'silent-3']);
  });
});
