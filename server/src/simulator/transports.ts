import { connectAsync, type MqttClient } from 'mqtt';
import type { SendResult, SimController, SimTransport, TelemetryMessage } from './simulator';

const ACK_TIMEOUT_MS = 60_000;

/**
 * MQTT, QoS 1: one connection per controller (username = controller_id, password = its
 * company's API token), protocol 3.1.1 so it works with the in-process broker and Mosquitto.
 * A message counts as acknowledged when its PUBACK arrives.
 */
export class MqttTransport implements SimTransport {
  private readonly clients = new Map<string, Promise<MqttClient>>();

  constructor(
    private readonly url: string,
    private readonly topicPrefix = 'portal/v1',
  ) {}

  private client(c: SimController): Promise<MqttClient> {
    let client = this.clients.get(c.controller_id);
    if (!client) {
      client = connectAsync(this.url, {
        clientId: `${c.controller_id}:sim`, // the broker accepts a controller's own id, or with a :suffix
        username: c.controller_id,
        password: c.token,
        protocolVersion: 4,
        clean: true,
        reconnectPeriod: 1000,
        connectTimeout: 10_000,
      });
      this.clients.set(c.controller_id, client);
      client.catch(() => this.clients.delete(c.controller_id));
    }
    return client;
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
    const clients = await Promise.allSettled([...this.clients.values()]);
    this.clients.clear();
    await Promise.all(
      clients.map((r) => (r.status === 'fulfilled' ? r.value.endAsync(true).catch(() => undefined) : undefined)),
    );
  }
}

/** HTTP: POST /api/ingest/<controller_id>/telemetry with the token; acknowledged = 200. */
export class HttpTransport implements SimTransport {
  constructor(private readonly baseUrl: string) {}

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

  async close(): Promise<void> {}
}

/** In process (the embedded portal without an MQTT port): calls ingest directly. */
export class DirectTransport implements SimTransport {
  constructor(
    private readonly send: (controller_id: string, kind: 'telemetry' | 'heartbeat', payload: unknown) => Promise<SendResult['answer'] | undefined>,
  ) {}

  async telemetry(c: SimController, message: TelemetryMessage): Promise<SendResult> {
    return { answer: await this.send(c.controller_id, 'telemetry', JSON.parse(JSON.stringify(message))) };
  }

  async heartbeat(c: SimController): Promise<void> {
    await this.send(c.controller_id, 'heartbeat', {});
  }

  async close(): Promise<void> {}
}
