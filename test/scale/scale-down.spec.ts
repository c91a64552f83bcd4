import { connect } from 'node:net';
import { join } from 'node:path';
import * as mqttPacket from 'mqtt-packet';
import { loadFleet } from '../../server/src/simulator/fleet';
import { Simulator } from '../../server/src/simulator/simulator';
import { MqttTransport } from '../../server/src/simulator/transports';
import { type StreamWorld, startStreamWorld } from './stream-world';

/**
 * Retiring a replica while the stream flows (scale from 2 to 1): instance b runs with
 * MQTT_LEAVE_ON_STOP and is stopped gracefully (SIGTERM) in the middle. It hands its share back:
 * every row the broker acknowledged ends up stored once, by a alone after b left, and b's session
 * is gone from the broker (nothing waits in it for an instance that will not return). Needs
 * PostgreSQL (TEST_DATABASE_URL) and a build.
 */
describe('scaling down: a replica leaves the share group on a graceful stop', () => {
  let world: StreamWorld;

  beforeAll(async () => {
    world = await startStreamWorld('scale-down', {
      env: { DATABASE_POOL_SIZE: '6' },
      envOf: (name): Record<string, string> => (name === 'b' ? { MQTT_LEAVE_ON_STOP: 'true', LOG_LEVEL: 'log' } : {}),
    });
  }, 240_000);
  afterAll(() => world?.close());

  it('every acknowledged row stored once; the retired replica leaves no session behind', async () => {
    const { db, broker, cluster, dir, stored } = world;
    const fleet = await loadFleet(db.dataSource);
    const transport = new MqttTransport(broker.url);
    const until = Date.now() - 60_000;
    const sim = new Simulator(fleet, transport, {
      intervalSeconds: 30,
      speed: 0,
      // two days of 30 s rows (about 274,000): still flowing when b has finished its graceful stop
      from: until - 48 * 3_600_000,
      until,
      rowsPerMessage: 200,
      inFlight: 4,
      seed: 11,
      ledgerFile: join(dir, 'ledger.jsonl'),
    });
    const running = sim.start();
    const started = Date.now();
    while ((await stored()) < 10_000) {
      if (Date.now() - started > 120_000) throw new Error('the stream did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const b = cluster.instances.find((i) => i.name === 'b')!;
    const output = () => b.server?.output() ?? '';
    const log = { text: '' };
    await b.server!.stop().then(() => (log.text = output()));
    b.server = undefined;
    const atLeave = await stored();
    await running;
    await transport.close();
    expect(sim.stats.failures).toBe(0);
    const ledger = sim.ledger.rows;
    expect(atLeave).toBeLessThan(ledger.size); // b left in the middle of the stream

    const deadline = Date.now() + 120_000;
    while ((await stored()) < ledger.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 500));
    const [{ n, keys }] = await db.dataSource.query(
      `SELECT count(*)::int AS n, count(DISTINCT (entity_cuid, parameter_id, "timestamp"))::int AS keys FROM parameter_log`,
    );
    expect({ n, keys }).toEqual({ n: ledger.size, keys: ledger.size });
    expect(log.text).toMatch(/left share group portal; session portal-b ended empty/);

    // The broker holds no session for portal-b any more.
    expect(await sessionPresent(broker.port, 'portal-b')).toBe(false);
    console.log(JSON.stringify({ figure: 'scale_down_leave', rows_acked: ledger.size, rows_stored: n, rows_stored_when_b_left: atLeave }));
  }, 300_000);
});

/** Connects with `clientId` (clean start off) and tells whether the broker had a session for it; ends it again. */
async function sessionPresent(port: number, clientId: string): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  const parser = mqttPacket.parser({ protocolVersion: 5 });
  const send = (p: mqttPacket.Packet) => socket.write(mqttPacket.generate(p, { protocolVersion: 5 }));
  const present = await new Promise<boolean>((resolve, reject) => {
    socket.on('data', (d) => parser.parse(d));
    socket.on('error', reject);
    parser.on('packet', (p) => {
      if (p.cmd === 'connack') resolve(!!p.sessionPresent);
    });
    socket.once('connect', () =>
      send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 5, clientId, clean: false, keepalive: 30, properties: { sessionExpiryInterval: 60 } }),
    );
  });
  send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } });
  socket.end();
  return present;
}
