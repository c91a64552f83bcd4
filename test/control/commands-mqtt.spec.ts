import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { loadFleet } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { MqttTransport } from '../../server/src/simulator/transports';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { type Mosquitto, startMosquitto } from '../factories/mosquitto';

/**
 * Commands end to end through Mosquitto with the simulator as the controller: the portal joins the
 * broker (MQTT_URL), the simulated demo controller holds a persistent session subscribed to its
 * command topic and answers on …/command/ack.
 */
describe('commands through Mosquitto to a simulated controller', () => {
  let broker: Mosquitto;
  let t: TestApp;
  let installer: HttpClient;
  let transport: MqttTransport;
  let sim: SimController;
  let battery: string;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

  const status = async (id: string) =>
    (await q(`SELECT status::text AS status, message, applied_config FROM controller_command WHERE command_id = $1`, [id]))[0];
  const until = async (id: string, wanted: string[], ms = 15_000) => {
    const end = Date.now() + ms;
    let row = await status(id);
    while (!wanted.includes(row?.status) && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      row = await status(id);
    }
    return row;
  };
  const send = (input: Record<string, unknown>) =>
    installer.mutate<any>('controllerCommand.send', { controller_id: DEMO_CONTROLLER_ID, payload: {}, ...input });

  beforeAll(async () => {
    broker = await startMosquitto();
    t = await startTestApp({ MQTT_URL: broker.url, MQTT_CLIENT_ID: `portal-commands-${process.pid}`, COMMAND_POLL_MS: '200' });
    installer = new HttpClient(t.baseUrl);
    expect((await installer.login('installer@demo.local')).status).toBe(200);
    [sim] = await loadFleet(t.db.dataSource, { controllers: [DEMO_CONTROLLER_ID] });
    [{ entity_cuid: battery }] = await q(`SELECT entity_cuid FROM entity WHERE controller_id = $1 AND entitytype_id = 'pylontech-us5000'`, [
      DEMO_CONTROLLER_ID,
    ]);
    transport = new MqttTransport(broker.url, 'portal/v1', { delayMs: 300 });
    await transport.connectAll([sim]);
  });
  afterAll(async () => {
    await transport?.close();
    await t?.close();
    await broker?.stop();
  });

  it('round trip SUCCESS: the simulator applies the configuration and reports what it runs', async () => {
    const sent = await send({ kind: 'apply_config', payload: { devices: { [battery]: { battery_min_soc: 30 } } } });
    expect(sent.error).toBeUndefined();
    const id = sent.data.command_id;
    const row = await until(id, ['SUCCESS', 'FAILURE']);
    expect(row.status).toBe('SUCCESS');
    expect(row.message).toBe('configuration applied');
    const expected = { ...sim.config!.devices[battery], battery_min_soc: 30 };
    expect(row.applied_config).toEqual({ devices: { [battery]: expected } });
    const [e] = await q(`SELECT config, reported_config FROM entity WHERE entity_cuid = $1`, [battery]);
    expect(e.reported_config).toEqual(expected);
    expect(e.config).toMatchObject({ battery_min_soc: 30 });
  });

  it('round trip FAILURE: a bad configuration is refused with the controller’s reason and nothing changes on its side', async () => {
    const sent = await send({ kind: 'apply_config', payload: { devices: { [battery]: { battery_min_soc: 140 } } } });
    expect(sent.error).toBeUndefined();
    const row = await until(sent.data.command_id, ['SUCCESS', 'FAILURE']);
    expect(row).toMatchObject({
      status: 'FAILURE',
      message: `device ${battery}: battery_min_soc must be a number from 0 to 100 (got 140)`,
      applied_config: null,
    });
    const [e] = await q(`SELECT reported_config FROM entity WHERE entity_cuid = $1`, [battery]);
    expect(e.reported_config.battery_min_soc).toBe(30);
  });

  it('an offline controller gets its command when it comes back', async () => {
    transport.link(sim, false);
    await new Promise((r) => setTimeout(r, 500));
    const sent = await send({ kind: 'set_export_limit', payload: { limit_w: 5000 } });
    expect(sent.error).toBeUndefined();
    const id = sent.data.command_id;
    await new Promise((r) => setTimeout(r, 1500));
    expect(['PENDING', 'SENT']).toContain((await status(id)).status);
    transport.link(sim, true);
    const row = await until(id, ['SUCCESS', 'FAILURE']);
    expect(row).toMatchObject({ status: 'SUCCESS', message: 'set_export_limit done' });
  });
});
