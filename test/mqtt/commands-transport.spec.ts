import { connect, connectAsync, type MqttClient } from 'mqtt';
import type { TCommandMessage } from '../../shared/controllers/command-wire';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { COMMAND_LINK, CommandAckError, type CommandLink } from '../../server/src/gateway/command-link';
import { addVictimAndDatabaseRefusals, VICTIM_CONTROLLER } from './support/poison';
import { eventually, freePort, type Mosquitto, sleep, startMosquitto, startTelemetryTestApp, type TelemetryTestApp } from './support/telemetry-app';

/**
 * The broker side of commands (CommandLink): `<prefix>/<id>/command` down, `<prefix>/<id>/command/ack`
 * up, with the in-process broker and with Mosquitto. The command service itself is not involved:
 * the test registers its own ack handler and publishes through the link.
 */

const message = (id: string): TCommandMessage => ({
  id,
  kind: 'restart',
  payload: {},
  not_after: new Date(Date.now() + 60_000).toISOString(),
  requested_at: new Date().toISOString(),
});

/** A deferred promise the test resolves by hand. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('commands over the in-process broker', () => {
  let t: TelemetryTestApp;
  let link: CommandLink;
  let url: string;
  const clients: MqttClient[] = [];
  const acks: { controller_id: string; body: unknown }[] = [];
  let gate: Promise<void> | undefined;
  let refuse: CommandAckError | undefined;

  beforeAll(async () => {
    const port = await freePort();
    t = await startTelemetryTestApp({ env: { MQTT_PORT: String(port), MQTT_HOST: '127.0.0.1' } });
    url = `mqtt://127.0.0.1:${port}`;
    await addVictimAndDatabaseRefusals(t);
    link = t.app.get<CommandLink>(COMMAND_LINK);
    link.onCommandAck(async (controller_id, payload) => {
      await gate;
      if (refuse) throw refuse;
      acks.push({ controller_id, body: JSON.parse(payload.toString()) });
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await t?.close();
  });

  const join = async (controller_id: string, token: string, suffix = '') => {
    const c = await connectAsync(url, { clientId: controller_id + suffix, username: controller_id, password: token, protocolVersion: 4, reconnectPeriod: 0 });
    clients.push(c);
    const received: { topic: string; body: any }[] = [];
    c.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) }));
    return { c, received };
  };

  it('lets a controller subscribe to its own command topic only, and knows who is subscribed', async () => {
    const subscribed: string[] = [];
    link.onCommandSubscribe((id) => subscribed.push(id));
    expect(link.isSubscribed(DEMO_CONTROLLER_ID)).toBe(false);
    const { c } = await join(DEMO_CONTROLLER_ID, t.demo.demoToken);
    const own = await c.subscribeAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command`, { qos: 1 });
    expect(own.map((g) => g.qos)).toEqual([1]);
    // Another controller's command topic, or a wildcard: a failed SUBACK (0x80); the connection stays.
    await expect(c.subscribeAsync(`portal/v1/${VICTIM_CONTROLLER}/command`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await expect(c.subscribeAsync('portal/v1/+/command', { qos: 1 })).rejects.toThrow(/Subscribe error/);
    expect(c.connected).toBe(true);
    expect(link.isSubscribed(DEMO_CONTROLLER_ID)).toBe(true);
    expect(link.isSubscribed(VICTIM_CONTROLLER)).toBe(false);
    expect(subscribed).toEqual([DEMO_CONTROLLER_ID]);
    await c.unsubscribeAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command`);
    expect(await eventually(async () => link.isSubscribed(DEMO_CONTROLLER_ID) === false, 3000)).toBe(true);
    await c.subscribeAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command`, { qos: 1 });
    expect(link.isSubscribed(DEMO_CONTROLLER_ID)).toBe(true);
    expect(subscribed).toEqual([DEMO_CONTROLLER_ID, DEMO_CONTROLLER_ID]);
    await c.endAsync();
    expect(await eventually(async () => link.isSubscribed(DEMO_CONTROLLER_ID) === false, 3000)).toBe(true);
  });

  it('publishCommand reaches only its own controller', async () => {
    const mine = await join(DEMO_CONTROLLER_ID, t.demo.demoToken);
    const other = await join(VICTIM_CONTROLLER, t.demo.otherToken);
    await mine.c.subscribeAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command`, { qos: 1 });
    await other.c.subscribeAsync(`portal/v1/${VICTIM_CONTROLLER}/command`, { qos: 1 });
    expect(await link.publishCommand(DEMO_CONTROLLER_ID, message('cmd-for-demo-1'))).toBe(true);
    expect(await eventually(async () => mine.received.length === 1, 3000)).toBe(true);
    expect(mine.received[0]).toEqual({
      topic: `portal/v1/${DEMO_CONTROLLER_ID}/command`,
      body: expect.objectContaining({ id: 'cmd-for-demo-1', kind: 'restart' }),
    });
    await sleep(300);
    expect(other.received).toEqual([]);
    await Promise.all([mine.c.endAsync(), other.c.endAsync()]);
  });

  it('keeps a command for a persistent session that is offline and delivers it on return', async () => {
    const opts = {
      clientId: `${DEMO_CONTROLLER_ID}:persistent`,
      username: DEMO_CONTROLLER_ID,
      password: t.demo.demoToken,
      protocolVersion: 4 as const,
      reconnectPeriod: 0,
      clean: false,
    };
    const first = await connectAsync(url, opts);
    await first.subscribeAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command`, { qos: 1 });
    await first.endAsync();
    expect(await eventually(async () => link.isSubscribed(DEMO_CONTROLLER_ID) === false, 3000)).toBe(true);
    expect(await link.publishCommand(DEMO_CONTROLLER_ID, message('cmd-while-away'))).toBe(true);
    const back = connect(url, opts);
    clients.push(back);
    const got: string[] = [];
    back.on('message', (_topic, payload) => got.push(JSON.parse(payload.toString()).id));
    expect(await eventually(async () => got.includes('cmd-while-away'), 5000)).toBe(true);
    expect(link.isSubscribed(DEMO_CONTROLLER_ID)).toBe(true); // the restored subscription counts
    await back.endAsync();
  });

  it('hands an ack on the own topic to the handler, and sends the PUBACK only after the handler resolved', async () => {
    const { c } = await join(DEMO_CONTROLLER_ID, t.demo.demoToken);
    acks.length = 0;
    const hold = deferred();
    gate = hold.promise;
    let pubacked = false;
    const published = c
      .publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command/ack`, JSON.stringify({ id: 'cmd-for-demo-1', status: 'SUCCESS' }), { qos: 1 })
      .then(() => {
        pubacked = true;
      });
    await sleep(400);
    expect(pubacked).toBe(false);
    hold.resolve();
    await published;
    gate = undefined;
    expect(acks).toEqual([{ controller_id: DEMO_CONTROLLER_ID, body: { id: 'cmd-for-demo-1', status: 'SUCCESS' } }]);
    await c.endAsync();
  });

  it('explains a refused ack on the reply topic and acknowledges it', async () => {
    const { c, received } = await join(DEMO_CONTROLLER_ID, t.demo.demoToken);
    await c.subscribeAsync(`portal/v1/${DEMO_CONTROLLER_ID}/reply`, { qos: 1 });
    refuse = new CommandAckError(404, 'NOT_FOUND', "No command 'nope-nope-1' for this controller");
    try {
      await c.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command/ack`, JSON.stringify({ id: 'nope-nope-1', status: 'SUCCESS' }), { qos: 1 });
      expect(await eventually(async () => received.length === 1, 3000)).toBe(true);
      expect(received[0]).toEqual({
        topic: `portal/v1/${DEMO_CONTROLLER_ID}/reply`,
        body: { code: 'NOT_FOUND', message: "No command 'nope-nope-1' for this controller" },
      });
      expect(c.connected).toBe(true);
    } finally {
      refuse = undefined;
    }
    await c.endAsync();
  });

  it('drops a controller that publishes on another controller’s ack topic; the handler is not called', async () => {
    const { c } = await join(DEMO_CONTROLLER_ID, t.demo.demoToken);
    acks.length = 0;
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    const outcome = await Promise.race([
      c.publishAsync(`portal/v1/${VICTIM_CONTROLLER}/command/ack`, JSON.stringify({ id: 'cmd-for-other', status: 'SUCCESS' }), { qos: 1 }).then(
        () => 'puback',
        () => 'lost',
      ),
      closed.then(() => 'closed'),
      sleep(5000).then(() => 'nothing'),
    ]);
    expect(outcome).not.toBe('puback');
    expect(outcome).not.toBe('nothing');
    await sleep(200);
    expect(acks).toEqual([]);
  });
});

describe('commands over an external broker (Mosquitto)', () => {
  let broker: Mosquitto;
  let t: TelemetryTestApp;
  let link: CommandLink;
  let controller: MqttClient;
  const received: { topic: string; body: any }[] = [];
  const acks: { controller_id: string; body: any }[] = [];
  let failures = 0;

  beforeAll(async () => {
    broker = await startMosquitto();
    t = await startTelemetryTestApp({ env: { MQTT_URL: broker.url, MQTT_CLIENT_ID: `portal-cmd-test-${process.pid}` } });
    link = t.app.get<CommandLink>(COMMAND_LINK);
    link.onCommandAck(async (controller_id, payload) => {
      const body = JSON.parse(payload.toString());
      if (body.id === 'flaky-ack-1' && failures++ === 0) throw new Error('database away');
      if (body.id === 'unknown-ack-1') throw new CommandAckError(404, 'NOT_FOUND', "No command 'unknown-ack-1' for this controller");
      acks.push({ controller_id, body });
    });
    controller = await connectAsync(broker.url, { clientId: `${DEMO_CONTROLLER_ID}:sim`, protocolVersion: 4, clean: false });
    controller.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) }));
    await controller.subscribeAsync([`portal/v1/${DEMO_CONTROLLER_ID}/command`, `portal/v1/${DEMO_CONTROLLER_ID}/reply`], { qos: 1 });
  });
  afterAll(async () => {
    await controller?.endAsync(true);
    await t?.close();
    await broker?.stop();
  });

  it('does not know who is subscribed (the broker does)', () => {
    expect(link.isSubscribed(DEMO_CONTROLLER_ID)).toBeUndefined();
  });

  it('publishCommand resolves true on the broker’s PUBACK and the controller gets the command', async () => {
    expect(await link.publishCommand(DEMO_CONTROLLER_ID, message('ext-cmd-0001'))).toBe(true);
    expect(await eventually(async () => received.some((r) => r.body.id === 'ext-cmd-0001'), 5000)).toBe(true);
    expect(received.find((r) => r.body.id === 'ext-cmd-0001')!.topic).toBe(`portal/v1/${DEMO_CONTROLLER_ID}/command`);
  });

  it('takes acks through the shared subscription', async () => {
    await controller.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command/ack`, JSON.stringify({ id: 'ext-cmd-0001', status: 'SUCCESS', message: 'done' }), {
      qos: 1,
    });
    expect(await eventually(async () => acks.length === 1, 5000)).toBe(true);
    expect(acks[0]).toEqual({ controller_id: DEMO_CONTROLLER_ID, body: { id: 'ext-cmd-0001', status: 'SUCCESS', message: 'done' } });
  });

  it('a refused ack is explained on the reply topic and not delivered again; a failed one is delivered again', async () => {
    received.length = 0;
    acks.length = 0;
    await controller.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command/ack`, JSON.stringify({ id: 'unknown-ack-1', status: 'SUCCESS' }), { qos: 1 });
    expect(await eventually(async () => received.length === 1, 5000)).toBe(true);
    expect(received[0]).toEqual({
      topic: `portal/v1/${DEMO_CONTROLLER_ID}/reply`,
      body: { code: 'NOT_FOUND', message: "No command 'unknown-ack-1' for this controller" },
    });
    await controller.publishAsync(`portal/v1/${DEMO_CONTROLLER_ID}/command/ack`, JSON.stringify({ id: 'flaky-ack-1', status: 'FAILURE', message: 'no' }), {
      qos: 1,
    });
    // The first attempt fails (no PUBACK, the portal reconnects); Mosquitto delivers it again.
    expect(await eventually(async () => acks.length === 1, 15_000)).toBe(true);
    expect(failures).toBe(2);
    expect(acks[0].body.id).toBe('flaky-ack-1');
    await sleep(300);
    expect(received).toHaveLength(1); // the refused one was not redelivered
  });

  it('publishCommand resolves false when the broker is away', async () => {
    await broker.stop();
    expect(await eventually(async () => !(await link.publishCommand(DEMO_CONTROLLER_ID, message('ext-cmd-0002'))), 5000)).toBe(true);
  });
});
