import { connectAsync, type MqttClient } from 'mqtt';
import { AckAfterCommitClient } from '../../server/src/gateway/ack-after-commit-client';
import { eventually, type Mosquitto, sleep, startMosquitto } from './support/telemetry-app';

/**
 * The ingest side's MQTT 5 client against a real Mosquitto: a delivery is acknowledged only when
 * its handler settles, a delivery never acknowledged comes back after a reconnect (persistent
 * session), and instances in one share group split the deliveries.
 */
describe('ack-after-commit MQTT client (Mosquitto)', () => {
  let broker: Mosquitto;
  let publisher: MqttClient;
  const filter = (group: string) => `$share/${group}/portal/v1/+/telemetry`;

  beforeAll(async () => {
    broker = await startMosquitto();
    publisher = await connectAsync(broker.url, { clientId: 'test-publisher', protocolVersion: 5 });
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await broker?.stop();
  });

  const publish = (topic: string, payload: string) => publisher.publishAsync(topic, payload, { qos: 1 });

  it('does not acknowledge a delivery before its handler settles: the broker resends it after a reconnect', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const held = new Promise<number>((resolve) => (release = () => resolve(0)));
    const first = new AckAfterCommitClient(
      { url: broker.url, clientId: 'ingest-a', receiveMaximum: 10, subscriptions: [filter('g1')] },
      async (_topic, payload) => {
        seen.push(payload.toString());
        return held; // "the commit" never finishes on this connection
      },
    );
    await first.start();
    await publish('portal/v1/c1/telemetry', 'm1');
    expect(await eventually(async () => seen.length === 1)).toBe(true);
    await first.stop(); // gone before the commit: no PUBACK was sent
    release();

    const again: string[] = [];
    const second = new AckAfterCommitClient(
      { url: broker.url, clientId: 'ingest-a', receiveMaximum: 10, subscriptions: [filter('g1')] },
      async (_topic, payload) => {
        again.push(payload.toString());
        return 0;
      },
    );
    await second.start();
    expect(await eventually(async () => again.includes('m1'))).toBe(true);
    await second.stop();

    // Acknowledged now: a third session gets nothing more.
    const third: string[] = [];
    const last = new AckAfterCommitClient(
      { url: broker.url, clientId: 'ingest-a', receiveMaximum: 10, subscriptions: [filter('g1')] },
      async (_topic, payload) => {
        third.push(payload.toString());
        return 0;
      },
    );
    await last.start();
    await sleep(500);
    expect(third).toEqual([]);
    await last.stop();
  });

  it('handles deliveries concurrently but acknowledges them in arrival order', async () => {
    const started: string[] = [];
    const resolvers = new Map<string, () => void>();
    const options = { url: broker.url, clientId: 'ingest-order', receiveMaximum: 10, subscriptions: [filter('g2')] };
    const client = new AckAfterCommitClient(
      options,
      (_topic, payload) =>
        new Promise<number>((resolve) => {
          started.push(payload.toString());
          resolvers.set(payload.toString(), () => resolve(0));
        }),
    );
    await client.start();
    for (const m of ['a', 'b', 'c']) await publish('portal/v1/c2/telemetry', m);
    // All three are being handled at once (no waiting for the first commit).
    expect(await eventually(async () => started.length === 3)).toBe(true);
    resolvers.get('c')!();
    resolvers.get('b')!();
    await sleep(200);
    await client.stop();
    // b and c were done but waited behind a: nothing was acknowledged, all three come back.
    const redelivered: string[] = [];
    const next = new AckAfterCommitClient(options, async (_topic, payload) => {
      redelivered.push(payload.toString());
      return 0;
    });
    await next.start();
    expect(await eventually(async () => redelivered.length >= 3)).toBe(true);
    expect([...redelivered].sort()).toEqual(['a', 'b', 'c']);
    await sleep(100);
    await next.stop();
    const after: string[] = [];
    const last = new AckAfterCommitClient(options, async (_topic, payload) => {
      after.push(payload.toString());
      return 0;
    });
    await last.start();
    await sleep(300);
    expect(after).toEqual([]);
    await last.stop();
  });

  it('instances in one share group split the deliveries, each message handled once', async () => {
    const got = { x: [] as string[], y: [] as string[] };
    const make = (name: 'x' | 'y') =>
      new AckAfterCommitClient({ url: broker.url, clientId: `ingest-${name}`, receiveMaximum: 50, subscriptions: [filter('g3')] }, async (_t, payload) => {
        got[name].push(payload.toString());
        return 0;
      });
    const x = make('x');
    const y = make('y');
    await Promise.all([x.start(), y.start()]);
    const messages = Array.from({ length: 100 }, (_, i) => `m${i}`);
    await Promise.all(messages.map((m, i) => publish(`portal/v1/c${i % 7}/telemetry`, m)));
    expect(await eventually(async () => got.x.length + got.y.length >= 100)).toBe(true);
    await sleep(200);
    expect([...got.x, ...got.y].sort()).toEqual([...messages].sort());
    expect(got.x.length).toBeGreaterThan(0);
    expect(got.y.length).toBeGreaterThan(0);
    await Promise.all([x.stop(), y.stop()]);
  });
});
