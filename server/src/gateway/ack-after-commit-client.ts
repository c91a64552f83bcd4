import { EventEmitter } from 'node:events';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import * as mqttPacket from 'mqtt-packet';
import { type AckAfterCommitOptions, type DeliveryHandler, redact } from './ack-after-commit-options';

export { type AckAfterCommitOptions, type DeliveryHandler, redact } from './ack-after-commit-options';

interface Inbound {
  messageId: number;
  code?: number;
}

/**
 * A small MQTT 5 client for the ingest side of an external broker: QoS 1 subscriptions on a
 * persistent session, and a PUBACK for each delivery sent only when its handler says so (after
 * the database commit).
 *
 * Why not MQTT.js: with `customHandleAcks` it reads the next packet only after the previous one
 * was acknowledged, i.e. one message per database commit. Here deliveries are handled
 * concurrently (up to the Receive Maximum we announce, the broker's flow control), and the acks
 * are released in the order the publishes arrived, as MQTT 5 §4.6 asks.
 *
 * A delivery whose handler fails is never acknowledged: the broker keeps it in the session and
 * sends it again after a reconnect (the writes are idempotent, so that is safe). The client
 * reconnects on its own (1 s doubling to 30 s).
 */
export class AckAfterCommitClient extends EventEmitter {
  private socket?: Socket;
  private parser?: mqttPacket.Parser;
  private stopped = false;
  private connected = false;
  /** Connected and the broker answered the subscriptions (SUBACK) on this connection. */
  private subscribed = false;
  private backoff = 1000;
  private reconnectTimer?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;
  private lastSend = 0;
  private awaitingPong = false;
  /** Deliveries of the current connection in arrival order, until acknowledged. */
  private inbound: Inbound[] = [];
  private nextId = 1;
  /** Our QoS 1 publishes of the current connection waiting for their PUBACK (→ its confirmation, if asked for). */
  private readonly outbound = new Map<number, ((acked: boolean) => void) | undefined>();
  private connectionSerial = 0;
  /** leave(): the UNSUBSCRIBE waiting for its UNSUBACK. */
  private unsubscribing?: { messageId: number; done: () => void };
  private readonly opts: Required<Omit<AckAfterCommitOptions, 'username' | 'password'>> & Pick<AckAfterCommitOptions, 'username' | 'password'>;
  /** When the last delivery arrived (ms since the epoch; 0 = none yet on this client). */
  lastDeliveryAt = 0;

  constructor(
    options: AckAfterCommitOptions,
    private readonly handler: DeliveryHandler,
  ) {
    super();
    this.opts = { keepaliveSeconds: 30, sessionExpirySeconds: 7 * 86_400, ...options };
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** Connected and subscribed: deliveries can reach this instance (readiness, portal_mqtt_connected). */
  get isSubscribed(): boolean {
    return this.connected && this.subscribed;
  }

  /** Connects (and keeps reconnecting); resolves on the first successful CONNACK + SUBACK, or rejects on timeout. */
  start(timeoutMs = 15_000): Promise<void> {
    this.stopped = false;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('ready', ok);
        reject(new Error(`no connection to the MQTT broker at ${redact(this.opts.url)} within ${timeoutMs} ms`));
      }, timeoutMs);
      const ok = () => {
        clearTimeout(timer);
        resolve();
      };
      this.once('ready', ok);
      this.open();
    });
  }

  /** Publishes with QoS 1 (best effort: not resent after a reconnect). Returns false when offline. */
  publish(topic: string, payload: string | Buffer): boolean {
    return this.sendPublish(topic, payload, undefined) > 0;
  }

  /**
   * Publishes with QoS 1 and resolves true once the broker's PUBACK (reason < 0x80) arrives; false
   * when offline, when the broker refuses it, when the connection drops first, or after `timeoutMs`.
   * Not resent after a reconnect: the caller decides (a command stays PENDING and is tried again).
   */
  publishConfirmed(topic: string, payload: string | Buffer, timeoutMs = 5000): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      let id = 0;
      const timer = setTimeout(() => finish(false), timeoutMs);
      timer.unref();
      const finish = (acked: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (id && this.outbound.get(id) === finish) this.outbound.set(id, undefined); // a late PUBACK just frees the id
        resolve(acked);
      };
      id = this.sendPublish(topic, payload, finish) || 0;
      if (!id) finish(false);
    });
  }

  /** Sends one QoS 1 publish; returns its packet id, or 0 when offline or out of ids. */
  private sendPublish(topic: string, payload: string | Buffer, confirm: ((acked: boolean) => void) | undefined): number {
    if (!this.connected) return 0;
    const id = this.freeId();
    if (!id) return 0;
    this.outbound.set(id, confirm);
    this.send({ cmd: 'publish', topic, payload, qos: 1, dup: false, retain: false, messageId: id });
    return id;
  }

  /** The connection is gone: publishes still waiting for a PUBACK will not get one. */
  private failOutbound(): void {
    const waiting = [...this.outbound.values()];
    this.outbound.clear();
    for (const confirm of waiting) confirm?.(false);
  }

  /** Disconnects cleanly; the broker keeps the session (and anything unacknowledged) for the expiry interval. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    if (this.connected) this.send({ cmd: 'disconnect', reasonCode: 0 });
    await this.closeSocket(socket);
  }

  /**
   * Leaves the share group for good (a replica retired while the others go on): UNSUBSCRIBE, so
   * the broker deals this session no new deliveries; take what it already sent or queued for it
   * (each acknowledged after its commit, as always); and once every delivery is acknowledged and
   * none came for `quietMs`, DISCONNECT with a session expiry of 0: the broker drops the session,
   * empty. When that cannot be done within `timeoutMs` (a commit failing, the connection lost), it
   * stops as stop() does: the session keeps what is left for the same client id. Resolves true when
   * the session was ended empty. Never on the last member: with no session subscribed, the broker
   * drops what controllers publish.
   */
  async leave(quietMs = 1000, timeoutMs = 15_000): Promise<boolean> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (!this.connected) {
      await this.stop();
      return false;
    }
    const until = Date.now() + timeoutMs;
    const serial = this.connectionSerial;
    const messageId = this.freeId();
    const unsubscribed = messageId
      ? await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), Math.max(0, until - Date.now()));
          this.unsubscribing = {
            messageId,
            done: () => {
              clearTimeout(timer);
              resolve(true);
            },
          };
          this.send({ cmd: 'unsubscribe', messageId, unsubscriptions: this.opts.subscriptions });
        })
      : false;
    this.unsubscribing = undefined;
    const since = Date.now();
    while (unsubscribed && Date.now() < until) {
      if (!this.connected || serial !== this.connectionSerial) break;
      const now = Date.now();
      if (this.inbound.length === 0 && now - Math.max(this.lastDeliveryAt, since) >= quietMs) {
        const socket = this.socket!;
        this.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } });
        await this.closeSocket(socket);
        return true;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    this.emit('warning', 'could not hand the session back empty; it keeps what is left for this client id');
    await this.stop();
    return false;
  }

  /** A packet id free for our own packets (publish, unsubscribe); 0 when none. */
  private freeId(): number {
    for (let tries = 0; tries < 65535; tries++) {
      const candidate = this.nextId;
      this.nextId = candidate >= 65535 ? 2 : candidate + 1;
      if (!this.outbound.has(candidate) && this.unsubscribing?.messageId !== candidate) return candidate;
    }
    return 0;
  }

  private closeSocket(socket: Socket): Promise<void> {
    return new Promise<void>((done) => {
      const t = setTimeout(() => {
        socket.destroy();
        done();
      }, 1000);
      socket.once('close', () => {
        clearTimeout(t);
        done();
      });
      socket.end();
    });
  }

  private open(): void {
    if (this.stopped) return;
    const url = new URL(this.opts.url);
    const secure = url.protocol === 'mqtts:' || url.protocol === 'ssl:';
    const port = Number(url.port || (secure ? 8883 : 1883));
    const host = url.hostname;
    const serial = ++this.connectionSerial;
    const socket = secure ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port });
    socket.setNoDelay(true);
    this.socket = socket;
    this.inbound = [];
    this.failOutbound();
    const parser = mqttPacket.parser({ protocolVersion: 5 });
    this.parser = parser;
    parser.on('packet', (packet) => this.onPacket(packet, serial));
    parser.on('error', (error: Error) => {
      this.emit('warning', `MQTT protocol error: ${error.message}`);
      socket.destroy();
    });
    socket.on(secure ? 'secureConnect' : 'connect', () => {
      const connect: mqttPacket.IConnectPacket = {
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 5,
        clientId: this.opts.clientId,
        clean: false,
        keepalive: this.opts.keepaliveSeconds,
        properties: { sessionExpiryInterval: this.opts.sessionExpirySeconds, receiveMaximum: this.opts.receiveMaximum },
      };
      if (this.opts.username !== undefined) connect.username = this.opts.username;
      if (this.opts.password !== undefined) connect.password = Buffer.from(this.opts.password);
      this.send(connect);
    });
    socket.on('data', (chunk: Buffer) => parser.parse(chunk));
    socket.on('error', (error: Error) => this.emit('warning', `MQTT connection error: ${error.message}`));
    socket.on('close', () => {
      if (serial !== this.connectionSerial) return;
      const was = this.connected;
      this.connected = false;
      this.subscribed = false;
      this.inbound = [];
      this.failOutbound();
      if (this.pingTimer) clearInterval(this.pingTimer);
      if (was) this.emit('offline');
      if (!this.stopped) {
        this.reconnectTimer = setTimeout(() => this.open(), this.backoff);
        this.reconnectTimer.unref();
        this.backoff = Math.min(this.backoff * 2, 30_000);
      }
    });
  }

  private send(packet: mqttPacket.Packet): void {
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    this.lastSend = Date.now();
    socket.write(mqttPacket.generate(packet, { protocolVersion: 5 }));
  }

  private onPacket(packet: mqttPacket.Packet, serial: number): void {
    if (serial !== this.connectionSerial) return;
    switch (packet.cmd) {
      case 'connack': {
        const code = packet.reasonCode ?? packet.returnCode ?? 0;
        if (code !== 0) {
          this.emit('warning', `the MQTT broker refused the connection (reason 0x${code.toString(16)})`);
          this.socket?.destroy();
          return;
        }
        this.connected = true;
        this.backoff = 1000;
        this.startKeepalive();
        this.send({
          cmd: 'subscribe',
          messageId: 1,
          subscriptions: this.opts.subscriptions.map((topic) => ({ topic, qos: 1 as const })),
        });
        this.nextId = 2;
        return;
      }
      case 'suback': {
        const refused = (packet.granted as number[]).filter((g) => g >= 0x80);
        if (refused.length) {
          this.emit('warning', `the MQTT broker refused ${refused.length} subscription(s) (reason 0x${refused[0].toString(16)})`);
        }
        this.subscribed = refused.length < (packet.granted as number[]).length;
        this.emit('ready');
        return;
      }
      case 'publish':
        this.onPublish(packet, serial);
        return;
      case 'puback':
        if (packet.messageId !== undefined && this.outbound.has(packet.messageId)) {
          const confirm = this.outbound.get(packet.messageId);
          this.outbound.delete(packet.messageId);
          confirm?.((packet.reasonCode ?? 0) < 0x80);
        }
        return;
      case 'unsuback':
        if (this.unsubscribing && packet.messageId === this.unsubscribing.messageId) this.unsubscribing.done();
        return;
      case 'pingresp':
        this.awaitingPong = false;
        return;
      case 'disconnect':
        this.emit('warning', `the MQTT broker closed the session (reason 0x${(packet.reasonCode ?? 0).toString(16)})`);
        this.socket?.destroy();
        return;
      default:
        return;
    }
  }

  private onPublish(packet: mqttPacket.IPublishPacket, serial: number): void {
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    this.lastDeliveryAt = Date.now();
    if (packet.qos === 0) {
      void this.handler(packet.topic, payload, packet).catch(() => undefined);
      return;
    }
    if (packet.qos === 2) {
      // We subscribe with QoS 1 only, so the broker never sends QoS 2; refuse rather than half-implement it.
      this.send({ cmd: 'pubrec', messageId: packet.messageId, reasonCode: 0x9b });
      return;
    }
    const entry: Inbound = { messageId: packet.messageId! };
    this.inbound.push(entry);
    this.handler(packet.topic, payload, packet).then(
      (code) => {
        if (serial !== this.connectionSerial) return; // connection gone: the broker will resend
        entry.code = code;
        this.releaseAcks();
      },
      (error: unknown) => {
        // Not stored: no PUBACK. Drop the connection so the broker delivers it again.
        this.emit('warning', `delivery not stored, reconnecting for redelivery: ${(error as Error).message}`);
        if (serial === this.connectionSerial) this.socket?.destroy();
      },
    );
  }

  /** PUBACKs go out in arrival order: a finished delivery waits for the earlier ones. */
  private releaseAcks(): void {
    while (this.inbound.length && this.inbound[0].code !== undefined) {
      const { messageId, code } = this.inbound.shift()!;
      this.send({ cmd: 'puback', messageId, reasonCode: code });
    }
  }

  private startKeepalive(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    const ms = this.opts.keepaliveSeconds * 1000;
    this.awaitingPong = false;
    this.pingTimer = setInterval(() => {
      if (this.awaitingPong) {
        this.emit('warning', 'the MQTT broker stopped answering; reconnecting');
        this.socket?.destroy();
        return;
      }
      if (Date.now() - this.lastSend >= ms / 2) {
        this.awaitingPong = true;
        this.send({ cmd: 'pingreq' });
      }
    }, ms / 2);
    this.pingTimer.unref();
  }
}
