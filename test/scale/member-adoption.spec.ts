import { join } from 'node:path';
import { loadFleet } from '../../server/src/simulator/fleet';
import { Simulator } from '../../server/src/simulator/simulator';
import { MqttTransport } from '../../server/src/simulator/transports';
import { type StreamWorld, startStreamWorld } from './stream-world';

const eventually = async (check: () => Promise<boolean>, timeoutMs: number, everyMs = 250): Promise<boolean> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

/**
 * A member of the shared subscription dies and is NOT restarted. The broker keeps routing a share of
 * every controller's messages to its persistent session; the other instance notices the lapsed
 * lease (MQTT_MEMBER_LEASE_SECONDS), retires that session (stores and acknowledges what it held,
 * unsubscribes it, ends it) and from then on receives everything: every row the broker
 * acknowledged to the controllers is stored exactly once, without the dead instance coming back.
 * PostgreSQL (TEST_DATABASE_URL), a Mosquitto of the test's own, HAProxy, the built server.
 */
describe('a dead MQTT member is retired by the survivor', () => {
  let world: StreamWorld;

  beforeAll(async () => {
    world = await startStreamWorld('member-adoption', { env: { MQTT_MEMBER_LEASE_SECONDS: '2' } });
  }, 180_000);
  afterAll(() => world?.close());

  it('stores every acknowledged row exactly once while the dead instance stays dead', async () => {
    const { db, broker, cluster, dir, stored } = world;
    // Both members hold a lease.
    expect(await eventually(async () => (await db.dataSource.query(`SELECT count(*)::int AS n FROM mqtt_member`))[0].n === 2, 20_000)).toBe(true);
    const fleet = await loadFleet(db.dataSource);
    const transport = new MqttTransport(broker.url);
    const until = Date.now() - 60_000;
    const sim = new Simulator(fleet, transport, {
      intervalSeconds: 10,
      speed: 0,
      from: until - 6 * 3_600_000,
      until,
      rowsPerMessage: 100,
      inFlight: 4,
      dropoutRate: 0,
      offlinePerHour: 0,
      seed: 7,
      ledgerFile: join(dir, 'ledger.jsonl'),
    });
    const running = sim.start();
    expect(await eventually(async () => (await stored()) > 5_000, 60_000, 50)).toBe(true);
    await cluster.kill('a');
    const atKill = await stored();
    await running;
    await transport.close();
    expect(sim.stats.failures).toBe(0);
    const ledger = sim.ledger.rows;
    expect(atKill).toBeLessThan(ledger.size);

    // Without the retirement, the share routed to portal-a would wait in its session until it came back.
    expect(await eventually(async () => (await stored()) >= ledger.size, 90_000, 250)).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await stored()).toBe(ledger.size);
    expect(await world.duplicates()).toBe(0);
    // The dead member's row is gone (its session retired); the survivor's lease is live.
    expect(
      await eventually(async () => {
        const rows = await db.dataSource.query<{ client_id: string }[]>(`SELECT client_id FROM mqtt_member ORDER BY client_id`);
        return rows.map((r) => r.client_id).join(',') === 'portal-b';
      }, 20_000),
    ).toBe(true);
    expect(cluster.instances.find((i) => i.name === 'b')!.server!.output()).toMatch(/portal-a.*retir/);
    const scrape = await fetch(`http://127.0.0.1:${cluster.instances.find((i) => i.name === 'b')!.port}/metrics`).then((r) => r.text());
    expect(scrape).toMatch(/^portal_mqtt_sessions_retired_total\{instance="b"\} 1$/m);

    // The dead instance comes back later: it rejoins the group with a fresh session and a lease.
    await cluster.restart('a');
    expect(await eventually(async () => (await db.dataSource.query(`SELECT count(*)::int AS n FROM mqtt_member`))[0].n === 2, 20_000)).toBe(true);
  }, 240_000);
});
