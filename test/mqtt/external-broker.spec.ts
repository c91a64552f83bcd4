import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { parsePrometheus, total } from '../factories/prometheus';
import { eventually, type Mosquitto, startMosquitto, startTelemetryTestApp, type TelemetryTestApp } from './support/telemetry-app';

/**
 * MQTT_URL set: the portal subscribes at a real Mosquitto (shared subscription, persistent
 * session, QoS 1) and answers each batch on the controller's reply topic.
 */
describe('ingest through an external broker (Mosquitto)', () => {
  let broker: Mosquitto;
  let t: TelemetryTestApp;
  let controller: MqttClient;
  const replies: any[] = [];

  beforeAll(async () => {
    broker = await startMosquitto();
    t = await startTelemetryTestApp({ env: { MQTT_URL: broker.url, MQTT_CLIENT_ID: `portal-test-${process.pid}` } });
    controller = await connectAsync(broker.url, { clientId: 'ctrl-demo', protocolVersion: 4 });
    controller.on('message', (_topic, payload) => replies.push(JSON.parse(payload.toString())));
    await controller.subscribeAsync(`portal/v1/${DEMO_CONTROLLER_ID}/reply`, { qos: 1 });
    await controller.subscribeAsync('portal/v1/ghost-ctrl/reply', { qos: 1 });
  });
  afterAll(async () => {
    await controller?.endAsync();
    await t?.close();
    await broker?.stop();
  });

  const rows = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) => ({ timestamp: from + i * 10_000, entity_cuid: t.demo.inverter, parameter_id: 'ac_output_power', value: 100 + i }));

  it('stores batches published with QoS 1 exactly once and answers each on the reply topic', async () => {
    const from = Date.now() - 4 * 3_600_000;
    for (let i = 0; i < 20; i++) {
      await controller.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, JSON.stringify({ batch_id: `x-${i}`, rows: rows(50, from + i * 500_000) }), {
        qos: 1,
      });
    }
    // A retransmit of the first batch.
    await controller.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, JSON.stringify({ batch_id: 'x-0', rows: rows(50, from) }), { qos: 1 });
    expect(await eventually(async () => replies.length >= 21)).toBe(true);
    const byBatch = new Map(replies.map((r) => [r.batch_id, r]));
    expect(byBatch.size).toBe(20);
    expect(replies.every((r) => r.rejected.length === 0)).toBe(true);
    expect(replies.filter((r) => r.batch_id === 'x-0').map((r) => [r.accepted, r.duplicates])).toEqual([
      [50, 0],
      [0, 50],
    ]);
    const [{ n }] = await t.query(`SELECT count(*)::int AS n FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = 'ac_output_power'`, [
      t.demo.inverter,
    ]);
    expect(n).toBe(1000);
  });

  it('answers an unknown controller and a broken payload on the reply topic, storing nothing', async () => {
    replies.length = 0;
    await controller.publishAsync('portal/v1/ghost-ctrl/telemetry', JSON.stringify({ rows: rows(1, Date.now()) }), { qos: 1 });
    await controller.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, JSON.stringify({ rows: 7 }), { qos: 1 });
    expect(await eventually(async () => replies.length >= 2)).toBe(true);
    expect(replies).toEqual(
      expect.arrayContaining([
        { code: 'FORBIDDEN', message: "Unknown controller 'ghost-ctrl'" },
        { code: 'BAD_REQUEST', message: expect.stringMatching(/not a telemetry batch: rows/) },
      ]),
    );
  });

  it('moves portal_ingest_rows_total{transport="mqtt"} by the rows stored and the refused counter by the rows rejected; portal_mqtt_connected is 1', async () => {
    const scrape = async () => parsePrometheus(await (await fetch(`${t.baseUrl}/metrics`)).text());
    const before = await scrape();
    expect(total(before, 'portal_mqtt_connected')).toBe(1);
    replies.length = 0;
    const from = Date.now() - 6 * 3_600_000;
    const bad = { timestamp: from, entity_cuid: t.demo.inverter, parameter_id: 'no_such_parameter', value: 1 };
    await controller.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, JSON.stringify({ batch_id: 'm-1', rows: [...rows(5, from), bad] }), { qos: 1 });
    expect(await eventually(async () => replies.some((r) => r.batch_id === 'm-1'))).toBe(true);
    const answer = replies.find((r) => r.batch_id === 'm-1');
    expect([answer.accepted, answer.rejected.length]).toEqual([5, 1]);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    expect(moved('portal_ingest_rows_total', { transport: 'mqtt' })).toBe(5);
    expect(moved('portal_ingest_refused_rows_total', { transport: 'mqtt', reason: 'invalid' })).toBe(1);
    expect(moved('portal_ingest_rows_total', { transport: 'http' })).toBe(0);
  });
});
