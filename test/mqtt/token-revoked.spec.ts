import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { issueSimulatorToken } from '../../server/src/simulator/fleet';
import { HttpClient } from '../factories/http-client';
import { eventually, freePort, startTelemetryTestApp, type TelemetryTestApp } from './support/telemetry-app';

/**
 * In-process broker: a connected controller's token is checked at connect and then again only
 * after the directory's lifetime (60 s here) — unless a token is revoked (on any instance: the
 * `auth-tokens` signal), then every session checks its token on its next publish.
 */
describe('in-process MQTT broker: a revoked token', () => {
  let t: TelemetryTestApp;
  let url: string;
  let client: MqttClient | undefined;

  beforeAll(async () => {
    const port = await freePort();
    t = await startTelemetryTestApp({ env: { MQTT_PORT: String(port), MQTT_HOST: '127.0.0.1', TELEMETRY_CACHE_TTL_MS: '60000' } });
    url = `mqtt://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await client?.endAsync(true).catch(() => undefined);
    await t?.close();
  });

  const count = async () =>
    (await t.query(`SELECT count(*)::int AS n FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = 'battery_soc'`, [t.demo.battery]))[0].n as number;
  const batch = (value: number) => JSON.stringify({ rows: [{ timestamp: Date.now(), entity_cuid: t.demo.battery, parameter_id: 'battery_soc', value }] });

  it('stops the connected controller at its next publish, long before the lifetime', async () => {
    const token = await issueSimulatorToken(t.db.dataSource, t.demo.demoCompany, 'revoked while connected');
    client = await connectAsync(url, {
      username: DEMO_CONTROLLER_ID,
      password: token,
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: `${DEMO_CONTROLLER_ID}:revoked`,
    });
    const before = await count();
    await client.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, batch(40), { qos: 1 });
    expect(await count()).toBe(before + 1);

    const admin = new HttpClient(t.baseUrl);
    expect((await admin.login('superuser@demo.local')).status).toBe(200);
    const token_cuid = /^ppt_([a-z0-9]+)_/.exec(token)![1];
    expect((await admin.mutate('authToken.revoke', { token_cuid })).status).toBe(200);

    const closed = new Promise<void>((done) => client!.once('close', () => done()));
    void client.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/telemetry`, batch(41), { qos: 1 }).catch(() => undefined);
    // Refused: the broker drops the connection (without the re-check it would go on for 60 s).
    await Promise.race([closed, new Promise((_, fail) => setTimeout(() => fail(new Error('still connected 10 s after the revoke')), 10_000))]);
    expect(await eventually(async () => !client!.connected)).toBe(true);
    expect(await count()).toBe(before + 1);
  });
});
