import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { addVictimAndDatabaseRefusals, bucketClock, ONE_LANE, POISONS, VICTIM_BATTERY, VICTIM_CONTROLLER } from './support/poison';
import { eventually, freePort, startTelemetryTestApp, type TelemetryTestApp } from './support/telemetry-app';

/**
 * One tenant's input never fails another tenant's write (MQTT ingest, in-process broker): every
 * controller on one write lane; in each round the demo company's controller publishes a poison
 * while the other company's controller publishes good rows. (The HTTP twin is
 * test/http/telemetry-isolation.spec.ts.)
 */
describe('MQTT ingest: one controller’s bad batch never fails another company’s', () => {
  let t: TelemetryTestApp;
  let url: string;
  const clients: MqttClient[] = [];
  const ROUNDS = 4;

  beforeAll(async () => {
    const port = await freePort();
    t = await startTelemetryTestApp({ env: { ...ONE_LANE, MQTT_PORT: String(port), MQTT_HOST: '127.0.0.1' } });
    url = `mqtt://127.0.0.1:${port}`;
    await addVictimAndDatabaseRefusals(t);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await t?.close();
  });

  const connect = async (controller_id: string, token: string) => {
    const c = await connectAsync(url, { clientId: controller_id, username: controller_id, password: token, protocolVersion: 4, reconnectPeriod: 0 });
    clients.push(c);
    const replies: any[] = [];
    c.on('message', (_topic, payload) => replies.push(JSON.parse(payload.toString())));
    await c.subscribeAsync(`portal/v1/${controller_id}/reply`, { qos: 1 });
    return { c, replies };
  };
  /** A QoS 1 publish: 'puback' once acknowledged, 'lost' when no PUBACK comes (connection dropped). */
  const publish = (c: MqttClient, topic: string, body: unknown) =>
    Promise.race([
      c.publishAsync(topic, JSON.stringify(body), { qos: 1 }).then(
        () => 'puback',
        () => 'lost',
      ),
      new Promise<string>((r) => setTimeout(() => r('lost'), 5000)),
    ]);
  const stored = async () =>
    (await t.query(`SELECT count(*)::int AS n FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = 'battery_soc'`, [VICTIM_BATTERY]))[0].n as number;

  it.each(POISONS.map((p, k) => [p.name, p, k] as const))('%s: the other company always gets its PUBACK and its rows are stored', async (_name, poison, k) => {
    const sender = await connect(DEMO_CONTROLLER_ID, t.demo.demoToken);
    const victim = await connect(VICTIM_CONTROLLER, t.demo.otherToken);
    const ts = bucketClock();
    const before = await stored();
    for (let round = 0; round < ROUNDS; round++) {
      const good = {
        rows: [0, 1, 2].map((i) => ({ timestamp: ts(round * 10 + i + 3 + k / 100), entity_cuid: VICTIM_BATTERY, parameter_id: 'battery_soc', value: 40 + i })),
      };
      const [bad, ok] = await Promise.all([
        publish(sender.c, `portal/v1/${DEMO_CONTROLLER_ID}/${poison.kind === 'states' ? 'state' : 'telemetry'}`, poison.body(t, round, ts)),
        publish(victim.c, `portal/v1/${VICTIM_CONTROLLER}/telemetry`, good),
      ]);
      expect({ round, ok }).toEqual({ round, ok: 'puback' });
      expect(await eventually(async () => victim.replies.length === round + 1, 5000)).toBe(true);
      expect(victim.replies[round]).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
      // The poison is acknowledged (never resent forever) and explained on the sender's reply topic.
      expect({ round, bad }).toEqual({ round, bad: 'puback' });
      expect(await eventually(async () => sender.replies.length === round + 1, 5000)).toBe(true);
      if (poison.expect === 'rows refused') {
        expect(sender.replies[round]).toMatchObject({ accepted: 0 });
        expect(sender.replies[round].rejected.length).toBeGreaterThan(0);
        for (const r of sender.replies[round].rejected) expect(r.reason).toMatch(/must be between -1e15 and 1e15/);
      } else {
        expect(sender.replies[round]).toEqual({ code: 'UNPROCESSABLE', message: expect.any(String) });
      }
    }
    expect(await stored()).toBe(before + ROUNDS * 3);
    expect(victim.c.connected && sender.c.connected).toBe(true);
    await Promise.all([sender.c.endAsync(), victim.c.endAsync()]);
  });
});
