import { connect, type Socket } from 'node:net';
import * as mqttPacket from 'mqtt-packet';
import { connectAsync, type MqttClient } from 'mqtt';
import { AckAfterCommitClient } from '../../server/src/gateway/ack-after-commit-client';
import { loadTelemetrySettings, TelemetryConfigError } from '../../server/src/telemetry/telemetry.config';
import { eventually, type Mosquitto, sleep, startMosquitto } from './support/telemetry-app';

/**
 * What the broker the portal ships with (Debian's Mosquitto 2) does with a member of a shared
 * subscription that dies — kill -9: the TCP connection closes, no DISCONNECT — while holding QoS 1
 * deliveries it has not acknowledged (in flight), with more queued behind them. docs/ingest-failover.md
 * builds on exactly this; if a broker upgrade changes it, this test says so.
 */

/** A bare MQTT 5 member: records every delivery, acknowledges only when told, dies without a word. */
class Member {
  readonly got: { id: string; dup: boolean }[] = [];
  private socket!: Socket;
  private readonly held: number[] = [];

  constructor(
    private readonly port: number,
    readonly clientId: string,
    private readonly opts: { ack: boolean; receiveMaximum: number; sessionExpiry: number; filter: string },
  ) {}

  async connect(): Promise<{ sessionPresent: boolean }> {
    const parser = mqttPacket.parser({ protocolVersion: 5 });
    this.socket = connect(this.port, '127.0.0.1');
    this.socket.on('data', (d) => parser.parse(d));
    this.socket.on('error', () => undefined);
    let present = false;
    const ready = new Promise<void>((resolve) => {
      parser.on('packet', (p) => {
        if (p.cmd === 'connack') {
          present = !!p.sessionPresent;
          this.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: this.opts.filter, qos: 1 }] });
        } else if (p.cmd === 'suback') resolve();
        else if (p.cmd === 'publish') {
          this.got.push({ id: p.payload.toString(), dup: p.dup });
          if (this.opts.ack) this.send({ cmd: 'puback', messageId: p.messageId, reasonCode: 0 });
          else this.held.push(p.messageId!);
        }
      });
    });
    this.socket.once('connect', () =>
      this.send({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 5,
        clientId: this.clientId,
        clean: false,
        keepalive: 30,
        properties: { sessionExpiryInterval: this.opts.sessionExpiry, receiveMaximum: this.opts.receiveMaximum },
      }),
    );
    await ready;
    return { sessionPresent: present };
  }

  /** Acknowledges what it held, and from now on everything at once. */
  ackAll(): void {
    this.opts.ack = true;
    for (const id of this.held.splice(0)) this.send({ cmd: 'puback', messageId: id, reasonCode: 0 });
  }

  /** Leaves the share group: the broker deals it no new messages (what it holds or queued for it stays). */
  unsubscribe(): void {
    this.send({ cmd: 'unsubscribe', messageId: 2, unsubscriptions: [this.opts.filter] });
  }

  /** DISCONNECT with a session expiry of 0: the broker drops the session now. */
  async end(): Promise<void> {
    this.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } });
    await new Promise<void>((done) => {
      this.socket.once('close', () => done());
      this.socket.end();
    });
  }

  /** As kill -9 leaves it: the kernel closes the socket, nothing is said to the broker. */
  async die(): Promise<void> {
    await new Promise<void>((done) => {
      this.socket.once('close', () => done());
      this.socket.destroy();
    });
  }

  async disconnect(): Promise<void> {
    this.send({ cmd: 'disconnect', reasonCode: 0 });
    await new Promise<void>((done) => {
      this.socket.once('close', () => done());
      this.socket.end();
    });
  }

  get ids(): string[] {
    return this.got.map((g) => g.id);
  }

  private send(packet: mqttPacket.Packet): void {
    this.socket.write(mqttPacket.generate(packet, { protocolVersion: 5 }));
  }
}

describe('Mosquitto 2 shared subscriptions: a member that dies, expires or leaves with unacknowledged QoS 1 messages', () => {
  let broker: Mosquitto;
  let publisher: MqttClient;

  beforeAll(async () => {
    broker = await startMosquitto();
    publisher = await connectAsync(broker.url, { clientId: 'failover-publisher', protocolVersion: 5 });
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await broker?.stop();
  });

  const publishAll = async (topic: string, ids: string[]) => {
    for (const id of ids) await publisher.publishAsync(topic, id, { qos: 1 });
  };
  const range = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it('keeps them (and what arrives while it is away) in the dead member’s session; the same client id gets them back, the other member never does', async () => {
    const filter = '$share/g1/site/+/telemetry';
    const a = new Member(broker.port, 'member-a', { ack: false, receiveMaximum: 5, sessionExpiry: 300, filter });
    const b = new Member(broker.port, 'member-b', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    await a.connect();
    await b.connect();

    const before = range('m', 30);
    await publishAll('site/c1/telemetry', before);
    // Round robin: each member gets its share; A holds 5 in flight (its Receive Maximum) and the rest are queued for it.
    expect(await eventually(async () => a.got.length === 5 && b.got.length + 5 <= 30)).toBe(true);
    await sleep(300);
    const inFlightOfA = a.ids;
    expect(inFlightOfA).toHaveLength(5);

    await a.die();
    const during = range('d', 30);
    await publishAll('site/c1/telemetry', during);
    await sleep(1000);
    // B does not receive A's in-flight messages…
    expect(b.ids.filter((id) => inFlightOfA.includes(id))).toEqual([]);
    // …nor everything published since: the broker goes on dealing A's share to A's (offline) session.
    const everything = [...before, ...during];
    const neverSeen = everything.filter((id) => !b.ids.includes(id) && !inFlightOfA.includes(id));
    expect(neverSeen.length).toBeGreaterThan(0);

    // A comes back with the same client id: the session is there, and it holds every one of them.
    const again = new Member(broker.port, 'member-a', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    expect((await again.connect()).sessionPresent).toBe(true);
    expect(await eventually(async () => again.got.length + b.got.length >= everything.length, 15_000)).toBe(true);
    await sleep(500);
    // The in-flight ones come again first, flagged as duplicates.
    expect(again.got.slice(0, 5)).toEqual(inFlightOfA.map((id) => ({ id, dup: true })));
    // Between the two members: every message, and (A's in-flight ones aside) each exactly once.
    const all = [...again.ids, ...b.ids];
    expect(new Set(all).size).toBe(everything.length);
    expect(all.length).toBe(everything.length);
    await again.disconnect();
    await b.disconnect();
  }, 180_000);

  it('loses them when the dead member’s session expires before it comes back', async () => {
    const filter = '$share/g2/site/+/telemetry';
    const a = new Member(broker.port, 'member-c', { ack: false, receiveMaximum: 5, sessionExpiry: 2, filter });
    const b = new Member(broker.port, 'member-d', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    await a.connect();
    await b.connect();
    const sent = range('x', 20);
    await publishAll('site/c2/telemetry', sent);
    expect(await eventually(async () => a.got.length === 5)).toBe(true);
    await sleep(300);
    await a.die();
    await sleep(4000); // past the 2 s session expiry
    const again = new Member(broker.port, 'member-c', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    expect((await again.connect()).sessionPresent).toBe(false);
    await sleep(1000);
    expect(again.got).toEqual([]);
    const lost = sent.filter((id) => !b.ids.includes(id));
    // A's whole share (in flight and queued) went with its session: B never got it.
    expect(lost.length).toBeGreaterThanOrEqual(5);
    await again.disconnect();
    await b.disconnect();
  }, 180_000);

  it('a member that leaves cleanly (DISCONNECT) but keeps its session still has its share queued for it', async () => {
    const filter = '$share/g3/site/+/telemetry';
    const a = new Member(broker.port, 'member-e', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    const b = new Member(broker.port, 'member-f', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    await a.connect();
    await b.connect();
    await a.disconnect();
    const sent = range('y', 20);
    await publishAll('site/c3/telemetry', sent);
    await sleep(1000);
    expect(b.got.length).toBeLessThan(sent.length);
    const again = new Member(broker.port, 'member-e', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    expect((await again.connect()).sessionPresent).toBe(true);
    expect(await eventually(async () => again.got.length + b.got.length === sent.length)).toBe(true);
    await again.disconnect();
    await b.disconnect();
  }, 180_000);

  it('the portal asks for a session of MQTT_SESSION_EXPIRY_SECONDS (7 days by default, at least 60): the broker keeps it while the instance is away', async () => {
    const filter = '$share/g4/site/+/telemetry';
    const absent = async (env: Record<string, string>, clientId: string, awayMs: number) => {
      const settings = loadTelemetrySettings({ MQTT_URL: broker.url, ...env }, false).mqtt;
      const portal = new AckAfterCommitClient(
        { url: broker.url, clientId, receiveMaximum: settings.receiveMaximum, sessionExpirySeconds: settings.sessionExpirySeconds, subscriptions: [filter] },
        async () => 0,
      );
      await portal.start();
      await portal.stop();
      await sleep(awayMs);
      const back = new Member(broker.port, clientId, { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
      const { sessionPresent } = await back.connect();
      await back.disconnect();
      return { seconds: settings.sessionExpirySeconds, sessionPresent };
    };
    expect(await absent({}, 'portal-default', 3000)).toEqual({ seconds: 604_800, sessionPresent: true });
    expect(await absent({ MQTT_SESSION_EXPIRY_SECONDS: '60' }, 'portal-60', 3000)).toEqual({ seconds: 60, sessionPresent: true });
    expect(() => loadTelemetrySettings({ MQTT_SESSION_EXPIRY_SECONDS: '0' }, false)).toThrow(TelemetryConfigError);
    expect(() => loadTelemetrySettings({ MQTT_SESSION_EXPIRY_SECONDS: '59' }, false)).toThrow(/MQTT_SESSION_EXPIRY_SECONDS/);
  }, 180_000);

  it('with a small max_queued_messages (Debian’s default is 1000) the dead member’s share beyond it is dropped, though the publisher got its PUBACK', async () => {
    const small = await startMosquitto(['max_queued_messages 10']);
    const pub = await connectAsync(small.url, { clientId: 'small-publisher', protocolVersion: 5 });
    try {
      const filter = '$share/g5/site/+/telemetry';
      const a = new Member(small.port, 'member-g', { ack: false, receiveMaximum: 5, sessionExpiry: 300, filter });
      const b = new Member(small.port, 'member-h', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
      await a.connect();
      await b.connect();
      await a.die();
      const sent = range('z', 200);
      for (const id of sent) await pub.publishAsync('site/c5/telemetry', id, { qos: 1 }); // every one acknowledged to the publisher
      const again = new Member(small.port, 'member-g', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
      expect((await again.connect()).sessionPresent).toBe(true);
      await sleep(1500);
      const lost = sent.filter((id) => !again.ids.includes(id) && !b.ids.includes(id));
      expect(again.got.length).toBeLessThanOrEqual(10);
      expect(lost.length).toBeGreaterThan(50);
      await again.disconnect();
      await b.disconnect();
    } finally {
      await pub.endAsync();
      await small.stop();
    }
  }, 180_000);

  it('a member that unsubscribes gets no new share, still receives what was queued for it, and can then end its session with nothing left behind', async () => {
    const filter = '$share/g6/site/+/telemetry';
    const a = new Member(broker.port, 'member-i', { ack: false, receiveMaximum: 5, sessionExpiry: 300, filter });
    const b = new Member(broker.port, 'member-j', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    await a.connect();
    await b.connect();
    const first = range('u', 30);
    await publishAll('site/c6/telemetry', first);
    expect(await eventually(async () => a.got.length === 5)).toBe(true);
    a.unsubscribe();
    await sleep(300);
    const later = range('v', 30);
    await publishAll('site/c6/telemetry', later);
    await sleep(500);
    expect(a.ids.filter((id) => id.startsWith('v'))).toEqual([]); // no new share
    const heldBefore = a.got.length;
    a.ackAll();
    await sleep(1000);
    const queuedForA = a.got.length - heldBefore;
    await a.end();
    const all = [...a.ids, ...b.ids];
    expect(all.length).toBe(first.length + later.length);
    expect(new Set(all).size).toBe(first.length + later.length);
    const back = new Member(broker.port, 'member-i', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    expect((await back.connect()).sessionPresent).toBe(false);
    await back.disconnect();
    await b.disconnect();
    expect(queuedForA).toBeGreaterThan(0);
  }, 180_000);

  it('the portal’s leave() (MQTT_LEAVE_ON_STOP): mid-stream, its share goes back to the group, what it held is stored once, the session ends empty', async () => {
    const filter = '$share/g7/site/+/telemetry';
    const storedByA: string[] = [];
    const storedByB: string[] = [];
    const slowCommit = (into: string[]) => async (_t: string, payload: Buffer) => {
      await sleep(20);
      into.push(payload.toString());
      return 0;
    };
    const a = new AckAfterCommitClient({ url: broker.url, clientId: 'portal-leaving', receiveMaximum: 5, subscriptions: [filter] }, slowCommit(storedByA));
    const b = new AckAfterCommitClient({ url: broker.url, clientId: 'portal-staying', receiveMaximum: 5, subscriptions: [filter] }, slowCommit(storedByB));
    await a.start();
    await b.start();
    const sent = range('w', 300);
    const publishing = publishAll('site/c7/telemetry', sent);
    expect(await eventually(async () => storedByA.length >= 10)).toBe(true);
    expect(await a.leave(500)).toBe(true);
    await publishing;
    const after = range('after', 50);
    await publishAll('site/c7/telemetry', after); // no member but B now
    const everything = [...sent, ...after];
    expect(await eventually(async () => storedByA.length + storedByB.length >= everything.length, 20_000)).toBe(true);
    await sleep(500);
    const all = [...storedByA, ...storedByB];
    expect(all.length).toBe(everything.length);
    expect(new Set(all).size).toBe(everything.length);
    expect(after.every((id) => storedByB.includes(id))).toBe(true);
    const back = new Member(broker.port, 'portal-leaving', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    expect((await back.connect()).sessionPresent).toBe(false);
    await back.end();
    await b.stop();
  }, 180_000);

  it('leave() that cannot store what it holds gives up and keeps the session: the same client id gets it again', async () => {
    const filter = '$share/g8/site/+/telemetry';
    const a = new AckAfterCommitClient(
      { url: broker.url, clientId: 'portal-stuck', receiveMaximum: 5, subscriptions: [filter] },
      () => new Promise<number>(() => undefined),
    );
    await a.start();
    await publishAll('site/c8/telemetry', ['s0', 's1']);
    await sleep(300);
    expect(await a.leave(200, 1500)).toBe(false);
    const back = new Member(broker.port, 'portal-stuck', { ack: true, receiveMaximum: 5, sessionExpiry: 300, filter });
    expect((await back.connect()).sessionPresent).toBe(true);
    expect(await eventually(async () => back.got.length === 2)).toBe(true);
    expect(back.ids.sort()).toEqual(['s0', 's1']);
    await back.end();
  }, 180_000);
});
