import { connect, type MqttClient } from 'mqtt';
import type { TCommandAck } from '../../../shared/controllers/command-wire';
import { SimCommandRunner } from './commands';
import type { SendResult, SimController, SimTransport, TelemetryMessage } from './simulator';

const ACK_TIMEOUT_MS = 60_000;

/** Commands on a simulated controller: how long applying a configuration takes, and who wants to see the answers. */
export interface SimCommandOptions {
  /** Delay before an apply_config is answered (0 = at once). */
  delayMs: number;
  /** Each acknowledgement sent (benches, logs). */
  onAck?(controller_id: string, ack: TCommandAck): void;
}

/**
 * MQTT, QoS 1: one connection per controller (username = controller_id, password = its
 * company's API token, client id `<controller_id>:sim`), protocol 3.1.1 so it works with the
 * in-process broker and Mosquitto. A message counts as acknowledged when its PUBACK arrives.
 *
 * With `commands`: a persistent session (clean: false) subscribed to `<prefix>/<id>/command` with
 * QoS 1, so the broker keeps the commands sent while the link is down and delivers them on
 * return; each is answered on `<prefix>/<id>/command/ack` (SimCommandRunner). `link(c, false)`
 * really closes the connection, `link(c, true)` opens it again.
 */
export class MqttTransport implements SimTransport {
  private readonly clients = new Map<string, Promise<MqttClient>>();
  private readonly runners = new Map<string, SimCommandRunner>();
  /** Controllers whose link is down: nothing is sent, acks wait here until it is back. */
  private readonly down = new Map<string, string[]>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly topicPrefix = 'portal/v1',
    private readonly commands?: SimCommandOptions,
  ) {}

  attach(controllers: SimController[]): void {
    if (!this.commands) return;
    // Connect (and subscribe) now: commands can arrive before the first sample is sent.
    for (const c of controllers) void this.client(c).catch(() => undefined);
  }

  /** Connects every controller and resolves once each holds its command subscription (benches). */
  async connectAll(controllers: SimController[]): Promise<void> {
    await Promise.all(controllers.map((c) => this.client(c)));
  }

  private runner(c: SimController): SimCommandRunner {
    let r = this.runners.get(c.controller_id);
    if (!r) this.runners.set(c.controller_id, (r = SimCommandRunner.for(c, { commandDelayMs: this.commands?.delayMs ?? 0 })));
    return r;
  }

  private client(c: SimController): Promise<MqttClient> {
    if (this.closed) return Promise.reject(new Error('transport closed'));
    if (this.down.has(c.controller_id)) return Promise.reject(new Error('link down'));
    let client = this.clients.get(c.controller_id);
    if (!client) {
      const commandTopic = `${this.topicPrefix}/${c.controller_id}/command`;
      const mqtt = connect(this.url, {
        clientId: `${c.controller_id}:sim`, // the broker accepts a controller's own id, or with a :suffix
        username: c.controller_id,
        password: c.token,
        protocolVersion: 4,
        clean: !this.commands, // with commands: a persistent session, the broker queues them while we are away
        reconnectPeriod: 1000,
        connectTimeout: 10_000,
      });
      if (this.commands) {
        // Before the CONNACK: a returning persistent session gets its queued commands right after it.
        mqtt.on('message', (topic, payload) => {
          if (topic === commandTopic) this.onCommand(c, mqtt, payload);
        });
      }
      client = new Promise<MqttClient>((resolve, reject) => {
        const failed = (error: Error) => {
          mqtt.off('connect', connected);
          mqtt.end(true);
          reject(error);
        };
        const connected = () => {
          mqtt.off('error', failed);
          resolve(mqtt);
        };
        mqtt.once('connect', connected);
        mqtt.once('error', failed);
      }).then(async (ready) => {
        if (this.commands) {
          // Subscribed again on every reconnect, then a heartbeat: the portal sees us back (with an
          // external broker that is how it knows) and delivers what waits for us.
          const hello = () => ready.publish(`${this.topicPrefix}/${c.controller_id}/heartbeat`, JSON.stringify({ timestamp: Date.now() }), { qos: 1 });
          ready.on('connect', () => void ready.subscribeAsync(commandTopic, { qos: 1 }).then(hello, () => undefined));
          await ready.subscribeAsync(commandTopic, { qos: 1 });
          hello();
        }
        return ready;
      });
      this.clients.set(c.controller_id, client);
      client.catch(() => {
        if (this.clients.get(c.controller_id) === client) this.clients.delete(c.controller_id);
      });
    }
    return client;
  }

  private onCommand(c: SimController, mqtt: MqttClient, payload: Buffer): void {
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return; // not a command: nothing to answer
    }
    const handled = this.runner(c).handle(body);
    if (!handled) return;
    void handled.answer.then(async (ack) => {
      this.commands?.onAck?.(c.controller_id, ack);
      await this.sendAck(c, JSON.stringify(ack));
      if (handled.restart && ack.status === 'SUCCESS') await this.restart(c, mqtt);
    });
  }

  private async sendAck(c: SimController, ack: string): Promise<void> {
    const waiting = this.down.get(c.controller_id);
    if (waiting) {
      waiting.push(ack); // sent when the link is back
      return;
    }
    try {
      await this.publish(c, 'command/ack', ack);
    } catch {
      // Lost with the connection: the portal sends the command again and gets the same answer.
    }
  }

  /** A restart: the connection is dropped and opened again (the session stays). */
  private async restart(c: SimController, mqtt: MqttClient): Promise<void> {
    if (this.clients.get(c.controller_id) === undefined) return;
    this.clients.delete(c.controller_id);
    await mqtt.endAsync().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    if (!this.down.has(c.controller_id) && !this.closed) void this.client(c).catch(() => undefined);
  }

  link(c: SimController, up: boolean): void {
    if (!up) {
      if (this.down.has(c.controller_id)) return;
      this.down.set(c.controller_id, []);
      const client = this.clients.get(c.controller_id);
      this.clients.delete(c.controller_id);
      void client?.then((m) => m.endAsync(true)).catch(() => undefined);
      return;
    }
    const waiting = this.down.get(c.controller_id);
    if (!waiting) return;
    this.down.delete(c.controller_id);
    if (!this.commands) return; // reconnects on the next publish
    void this.client(c).then(
      () => Promise.all(waiting.map((ack) => this.publish(c, 'command/ack', ack).catch(() => undefined))),
      () => undefined,
    );
  }

  private async publish(c: SimController, kind: string, payload: string): Promise<void> {
    const client = await this.client(c);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no PUBACK in time')), ACK_TIMEOUT_MS);
      client.publish(`${this.topicPrefix}/${c.controller_id}/${kind}`, payload, { qos: 1 }, (error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      });
    });
  }

  async telemetry(c: SimController, message: TelemetryMessage): Promise<SendResult> {
    await this.publish(c, 'telemetry', JSON.stringify(message));
    return {};
  }

  async heartbeat(c: SimController): Promise<void> {
    await this.publish(c, 'heartbeat', JSON.stringify({ timestamp: Date.now() }));
  }

  async close(): Promise<void> {
    this.closed = true;
    const clients = await Promise.allSettled([...this.clients.values()]);
    this.clients.clear();
    await Promise.all(clients.map((r) => (r.status === 'fulfilled' ? r.value.endAsync(true).catch(() => undefined) : Promise.resolve())));
  }
}

/**
 * HTTP: POST /api/ingest/<controller_id>/telemetry with the token; acknowledged = 200.
 *
 * With `commands`: every `pollMs` each controller whose link is up fetches
 * GET /api/ingest/<controller_id>/commands and answers each with
 * POST /api/ingest/<controller_id>/commands/ack (SimCommandRunner: a repeated id gets the same answer).
 */
export class HttpTransport implements SimTransport {
  private readonly runners = new Map<string, SimCommandRunner>();
  private readonly down = new Set<string>();
  private timer?: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly baseUrl: string,
    private readonly commands?: SimCommandOptions & { pollMs?: number },
  ) {}

  attach(controllers: SimController[]): void {
    if (!this.commands || this.timer) return;
    for (const c of controllers) this.runners.set(c.controller_id, SimCommandRunner.for(c, { commandDelayMs: this.commands.delayMs }));
    this.timer = setInterval(() => {
      if (this.polling) return;
      this.polling = true;
      void Promise.all(controllers.filter((c) => !this.down.has(c.controller_id)).map((c) => this.poll(c).catch(() => undefined))).finally(() => {
        this.polling = false;
      });
    }, this.commands.pollMs ?? 3000);
    this.timer.unref();
  }

  link(c: SimController, up: boolean): void {
    if (up) this.down.delete(c.controller_id);
    else this.down.add(c.controller_id);
  }

  /** One fetch of a controller's waiting commands, each answered. */
  async poll(c: SimController): Promise<number> {
    const res = await fetch(`${this.baseUrl}/api/ingest/${encodeURIComponent(c.controller_id)}/commands?limit=50`, {
      headers: { authorization: `Bearer ${c.token}` },
      signal: AbortSignal.timeout(ACK_TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const { commands } = (await res.json()) as { commands: unknown[] };
    const runner = this.runners.get(c.controller_id) ?? SimCommandRunner.for(c, { commandDelayMs: this.commands?.delayMs ?? 0 });
    this.runners.set(c.controller_id, runner);
    await Promise.all(
      commands.map(async (command) => {
        const handled = runner.handle(command);
        if (!handled) return;
        const ack = await handled.answer;
        this.commands?.onAck?.(c.controller_id, ack);
        await this.post(c, 'commands/ack', ack).catch(() => undefined); // not recorded: fetched and answered again later
      }),
    );
    return commands.length;
  }

  private async post(c: SimController, kind: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${this.baseUrl}/api/ingest/${encodeURIComponent(c.controller_id)}/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${c.token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ACK_TIMEOUT_MS),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text);
  }

  async telemetry(c: SimController, message: TelemetryMessage): Promise<SendResult> {
    return { answer: (await this.post(c, 'telemetry', message)) as SendResult['answer'] };
  }

  async heartbeat(c: SimController): Promise<void> {
    await this.post(c, 'heartbeat', { timestamp: Date.now() });
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
  }
}

/** In process (the embedded portal without an MQTT port): calls ingest directly. */
export class DirectTransport implements SimTransport {
  constructor(private readonly send: (controller_id: string, kind: 'telemetry' | 'heartbeat', payload: unknown) => Promise<SendResult['answer'] | undefined>) {}

  async telemetry(c: SimController, message: TelemetryMessage): Promise<SendResult> {
    return { answer: await this.send(c.controller_id, 'telemetry', JSON.parse(JSON.stringify(message))) };
  }

  async heartbeat(c: SimController): Promise<void> {
    await this.send(c.controller_id, 'heartbeat', {});
  }

  async close(): Promise<void> {}
}
