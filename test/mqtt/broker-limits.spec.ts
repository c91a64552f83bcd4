import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { connect as mqttConnect, connectAsync, type MqttClient } from 'mqtt';
import { connect as tcpConnect, type Socket } from 'node:net';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { eventually, sleep, startBrokerApp, type TelemetryTestApp } from './support/telemetry-app';

/**
 * What an unauthenticated (or authenticated but misbehaving) client can cost the in-process
 * broker: packet sizes are checked from the fixed header before anything is buffered, a socket
 * must finish CONNECT and authentication within the connect timeout, and one address may hold
 * only so many connections. The broker runs in this test process, so its memory is ours to measure.
 */
describe('in-process MQTT broker limits', () => {
  let t: TelemetryTestApp;
  let port: number;
  let url: string;
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];
  const CONNECT_TIMEOUT_S = 1;
  const PER_ADDRESS = 4;
  const BODY_LIMIT = 64 * 1024;

  beforeAll(async () => {
    ({ t, port, url } = await startBrokerApp({
      MQTT_CONNECT_TIMEOUT_SECONDS: String(CONNECT_TIMEOUT_S),
      MQTT_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      TELEMETRY_MAX_BODY_BYTES: String(BODY_LIMIT),
    }));
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true).catch(() => undefined)));
    await sleep(100);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A raw TCP connection; `closedAt` is set when the server closes it. */
  const raw = async () => {
    const s = tcpConnect(port, '127.0.0.1');
    sockets.push(s);
    const state = { closedAt: 0, received: 0 };
    s.on('data', (d) => (state.received += d.length));
    s.on('close', () => (state.closedAt = Date.now()));
    s.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      s.once('connect', resolve);
      s.once('error', reject);
    });
    return { s, state };
  };
  /** MQTT remaining length (variable byte integer). */
  const varint = (n: number) => {
    const out: number[] = [];
    do {
      let b = n % 128;
      n = Math.floor(n / 128);
      if (n > 0) b |= 128;
      out.push(b);
    } while (n > 0);
    return Buffer.from(out);
  };
  const mqtt = async (clientId = `${DEMO_CONTROLLER_ID}:${Math.random().toString(36).slice(2)}`) => {
    const c = await connectAsync(url, {
      clientId,
      username: DEMO_CONTROLLER_ID,
      password: t.demo.demoToken,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 3000,
    });
    clients.push(c);
    return c;
  };
  /** One MQTT connect attempt: 'connected', or 'closed' when the broker drops it. */
  const attempt = async () => {
    const c = mqttConnect(url, {
      clientId: DEMO_CONTROLLER_ID,
      username: DEMO_CONTROLLER_ID,
      password: t.demo.demoToken,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    clients.push(c);
    return new Promise<string>((resolve) => {
      c.once('connect', () => resolve('connected'));
      c.once('close', () => resolve('closed'));
      c.once('error', () => resolve('closed'));
    });
  };
  // Collected before each reading: the portal's own timers (alert engine, outbox) leave garbage
  // that would otherwise count as memory the broker kept.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const memory = () => {
    gc();
    const m = process.memoryUsage();
    return m.arrayBuffers + m.heapUsed;
  };

  it('closes a connection whose CONNECT announces 250 MB at once, without buffering what follows', async () => {
    const before = memory();
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    const attackers = await Promise.all([raw(), raw(), raw()]);
    const sent = await Promise.all(
      attackers.map(async ({ s, state }) => {
        let bytes = 0;
        s.write(Buffer.concat([Buffer.from([0x10]), varint(250 * 1024 * 1024)]));
        while (!state.closedAt && bytes < 48 * 1024 * 1024) {
          const ok = s.write(chunk);
          bytes += chunk.length;
          if (!ok) await Promise.race([new Promise((r) => s.once('drain', r)), new Promise((r) => s.once('close', r))]);
        }
        return bytes;
      }),
    );
    await sleep(300);
    for (const { state } of attackers) {
      expect(state.closedAt).toBeGreaterThan(0);
      expect(state.received).toBe(0); // not even a CONNACK: nothing was parsed
    }
    // The three connections together may have cost a few chunks, not the tens of MB they sent.
    expect(memory() - before).toBeLessThan(8 * 1024 * 1024);
    expect(sent.every((n) => n < 48 * 1024 * 1024)).toBe(true);
  });

  it('refuses any packet over the pre-authentication limit before authenticating (a 20 KB password)', async () => {
    const { s, state } = await raw();
    const password = Buffer.alloc(20 * 1024, 0x61);
    const id = Buffer.from(DEMO_CONTROLLER_ID);
    const body = Buffer.concat([
      Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 4, 0xc2, 0, 30]), // "MQTT", v4, username+password+clean, keepalive
      Buffer.from([0, id.length]),
      id,
      Buffer.from([0, id.length]),
      id,
      Buffer.from([password.length >> 8, password.length & 0xff]),
      password,
    ]);
    s.write(Buffer.concat([Buffer.from([0x10]), varint(body.length), body]));
    expect(await eventually(async () => state.closedAt > 0, 2000, 20)).toBe(true);
    expect(state.received).toBe(0);
  });

  it('closes a socket that does not complete CONNECT within the connect timeout (idle, or trickling a CONNECT)', async () => {
    const idle = await raw();
    const trickle = await raw();
    const opened = Date.now();
    trickle.s.write(Buffer.from([0x10, 100, 0, 4]));
    const timer = setInterval(() => trickle.s.write(Buffer.from([0x4d])), 200);
    try {
      expect(await eventually(async () => idle.state.closedAt > 0 && trickle.state.closedAt > 0, 5000, 50)).toBe(true);
    } finally {
      clearInterval(timer);
    }
    for (const { state } of [idle, trickle]) {
      expect(state.closedAt - opened).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_S * 1000 - 100);
      expect(state.closedAt - opened).toBeLessThan(CONNECT_TIMEOUT_S * 1000 + 1500);
    }
    // An authenticated connection is not cut by the timer.
    const c = await mqtt();
    await sleep(CONNECT_TIMEOUT_S * 1000 + 300);
    expect(c.connected).toBe(true);
  });

  it(`refuses connections of one address above the cap (${PER_ADDRESS}), and accepts again once one closes`, async () => {
    const held = [await mqtt(), await mqtt()];
    const idle = [await raw(), await raw()];
    const extra = await raw();
    // Closed at once, long before the connect timeout.
    expect(await eventually(async () => extra.state.closedAt > 0, 500, 10)).toBe(true);
    expect(await attempt()).toBe('closed');
    expect(held.every((c) => c.connected)).toBe(true);
    idle[0].s.destroy();
    await sleep(100);
    expect(await attempt()).toBe('connected');
  });

  it('closes an authenticated connection that sends a packet over TELEMETRY_MAX_BODY_BYTES; one just under it is stored', async () => {
    const rows = [{ timestamp: Date.now() - 1000, entity_cuid: t.demo.battery, parameter_id: 'battery_temperature', value: 21 }];
    const fits = await mqtt();
    await fits.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, JSON.stringify({ rows, pad: 'x'.repeat(BODY_LIMIT - 500) }), { qos: 1 });
    const [{ n }] = await t.query(`SELECT count(*)::int AS n FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = 'battery_temperature'`, [
      t.demo.battery,
    ]);
    expect(n).toBe(1);

    const big = await mqtt();
    const closed = new Promise<void>((r) => big.once('close', () => r()));
    big.publish(
      `portal/v1/${DEMO_CONTROLLER_ID}/telemetry`,
      JSON.stringify({ rows: [{ ...rows[0], timestamp: Date.now() }], pad: 'x'.repeat(2 * BODY_LIMIT) }),
      { qos: 1 },
    );
    await expect(Promise.race([closed.then(() => 'closed'), sleep(3000).then(() => 'open')])).resolves.toBe('closed');
    const [{ n: after }] = await t.query(`SELECT count(*)::int AS n FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = 'battery_temperature'`, [
      t.demo.battery,
    ]);
    expect(after).toBe(1);
  });
});
