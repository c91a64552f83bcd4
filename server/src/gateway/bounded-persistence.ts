import type { Logger } from '@nestjs/common';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { Counter, Gauge, type Registry } from 'prom-client';

const load = createRequire(__filename);

/** The limits of every persistent session of the in-process broker (docs/controller-protocol.md "Settings"). */
export interface SessionQueueLimits {
  /** Messages one session keeps (queued while away, or sent and not yet acknowledged); past it the oldest is dropped. */
  maxMessages: number;
  /** Bytes (payload + topic) one session keeps; past it the oldest is dropped. */
  maxBytes: number;
  /** Messages one connected client may have sent to it and not acknowledged; the rest wait in its session. */
  maxInflight: number;
  /** Bytes all persistent sessions keep together; past it the oldest messages of the largest session are dropped first. */
  maxTotalBytes: number;
}

/** A packet as aedes hands it to its persistence (aedes-packet), with what we read of it. */
interface Pkt {
  brokerId?: string;
  brokerCounter?: number;
  messageId?: number;
  topic: string;
  payload: Buffer | string;
  qos?: number;
  cmd?: string;
  /** Set by aedes on the packet it asks to deliver: calling it goes on without writing. */
  writeCallback?: (error?: Error | null) => void;
}

/** The aedes Client, as far as this file uses it. */
interface BrokerClient {
  id: string;
  connected?: boolean;
  closed?: boolean;
  broker: { authorizeForward: (client: BrokerClient, packet: Pkt) => Pkt | null | undefined };
}

interface Entry {
  packet: Pkt;
  bytes: number;
  /** The connection it was written to and not yet acknowledged on (in flight there); undefined: waiting. */
  sentTo?: BrokerClient;
}

type Callback = (...args: unknown[]) => void;

const OVERHEAD_BYTES = 64;
const sizeOf = (p: Pkt) => (typeof p.payload === 'string' ? Buffer.byteLength(p.payload) : p.payload.length) + Buffer.byteLength(p.topic) + OVERHEAD_BYTES;
const samePacket = (a: Pkt, b: Pkt) => a.brokerId === b.brokerId && a.brokerCounter === b.brokerCounter;

/**
 * The in-process broker's persistence: aedes' memory persistence (subscriptions, retained
 * messages, wills, incoming QoS 2) with its own bounded outgoing queues. aedes keeps, per
 * persistent session (clean = false), every QoS 1 message for it until it is acknowledged: the
 * messages waiting while the client is away and those sent and not yet acknowledged. The memory
 * persistence keeps them without bound (one parked session and a flood of replies fill the
 * process); here each session keeps at most `maxMessages` and `maxBytes` (the oldest is dropped,
 * with a log line and portal_mqtt_session_dropped_messages_total), and a connected client has at
 * most `maxInflight` sent and not acknowledged: the next one goes out when one is acknowledged
 * (the MQTT 5 "receive maximum", for every protocol version).
 *
 * A clean session (clean = true) keeps nothing here: aedes writes its QoS 1 messages once and
 * forgets them.
 */
export class BoundedOutgoing {
  private readonly queues = new Map<string, Entry[]>();
  private readonly bytes = new Map<string, number>();
  /** Drops not yet logged, per client id, and when each client's last drop line was written. */
  private readonly dropLog = new Map<string, { count: number; at: number }>();
  private readonly write: (client: BrokerClient, packet: Pkt, done: Callback) => void;
  private readonly QoSPacket: new (original: Pkt, client: BrokerClient) => Pkt;
  private readonly Packet: new (original: Pkt) => Pkt;
  private readonly dropped: Counter;
  private readonly queued: Gauge;
  private readonly queuedBytes: Gauge;
  private total = 0;
  /** Bytes kept for all sessions together (bounded by maxTotalBytes). */
  private totalBytes = 0;

  constructor(
    private readonly limits: SessionQueueLimits,
    private readonly logger: Logger,
    registry: Registry,
  ) {
    this.write = load('aedes/lib/write.js') as BoundedOutgoing['write'];
    this.QoSPacket = load('aedes/lib/qos-packet.js') as BoundedOutgoing['QoSPacket'];
    this.Packet = load('aedes-packet') as BoundedOutgoing['Packet'];
    this.dropped = new Counter({
      name: 'portal_mqtt_session_dropped_messages_total',
      help: 'Messages the in-process broker dropped from a persistent session over MQTT_SESSION_QUEUE_MAX_MESSAGES or MQTT_SESSION_QUEUE_MAX_BYTES, or from the largest session over MQTT_SESSION_QUEUE_TOTAL_BYTES (the oldest first), or with a session a clean CONNECT ended.',
      registers: [registry],
    });
    this.queued = new Gauge({
      name: 'portal_mqtt_session_queued_messages',
      help: 'Messages the in-process broker keeps for persistent sessions (waiting, or sent and not acknowledged), all sessions together.',
      registers: [registry],
    });
    this.queuedBytes = new Gauge({
      name: 'portal_mqtt_session_queued_bytes',
      help: 'Bytes (payload + topic + 64 each) the in-process broker keeps for persistent sessions, all sessions together (at most MQTT_SESSION_QUEUE_TOTAL_BYTES).',
      registers: [registry],
      collect: () => this.queuedBytes.set(this.totalBytes),
    });
    this.dropped.inc(0);
  }

  /** aedes' memory persistence with these queues in place of its own outgoing ones. */
  wrap(inner: object): object {
    const own: Record<string, Callback> = {
      outgoingEnqueue: (sub, packet, cb) => this.enqueue([sub as { clientId: string }], packet as Pkt, cb as Callback),
      outgoingEnqueueCombi: (subs, packet, cb) => this.enqueue(subs as { clientId: string }[], packet as Pkt, cb as Callback),
      outgoingUpdate: (client, packet, cb) => this.update(client as BrokerClient, packet as Pkt, cb as Callback),
      outgoingClearMessageId: (client, packet, cb) => this.clear(client as BrokerClient, packet as Pkt, cb as Callback | undefined),
      outgoingStream: (client) => Readable.from([...(this.queues.get((client as BrokerClient).id) ?? [])].map((e) => e.packet)),
    };
    return new Proxy(inner, {
      get: (target, prop) => {
        if (typeof prop === 'string' && Object.hasOwn(own, prop)) return own[prop];
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as Callback).bind(target) : value;
      },
      set: (target, prop, value) => Reflect.set(target, prop, value, target),
    });
  }

  /** Messages kept for one client id now (tests, the gauge). */
  size(clientId: string): number {
    return this.queues.get(clientId)?.length ?? 0;
  }

  private enqueue(subs: readonly { clientId: string }[], packet: Pkt, cb: Callback): void {
    for (const sub of subs) {
      const queue = this.queues.get(sub.clientId) ?? [];
      if (queue.length === 0) this.queues.set(sub.clientId, queue);
      const copy = new this.Packet(packet);
      const entry: Entry = { packet: copy, bytes: sizeOf(copy) };
      queue.push(entry);
      this.total++;
      this.totalBytes += entry.bytes;
      let bytes = (this.bytes.get(sub.clientId) ?? 0) + entry.bytes;
      let dropped = 0;
      while (queue.length && (queue.length > this.limits.maxMessages || bytes > this.limits.maxBytes)) {
        const gone = queue.shift()!.bytes;
        bytes -= gone;
        this.totalBytes -= gone;
        this.total--;
        dropped++;
      }
      this.bytes.set(sub.clientId, bytes);
      if (queue.length === 0) this.forget(sub.clientId);
      if (dropped) this.noteDrops(sub.clientId, dropped);
    }
    this.boundTotal();
    this.queued.set(this.total);
    process.nextTick(cb);
  }

  /**
   * aedes is about to write a message to a connected client (live, or from its session at
   * connect): written when the client has room in flight, else kept waiting (sent when an
   * acknowledgement frees a place). A message dropped meanwhile is not written.
   */
  private update(client: BrokerClient, packet: Pkt, cb: Callback): void {
    const queue = this.queues.get(client.id) ?? [];
    const entry =
      queue.find((e) => samePacket(e.packet, packet)) ?? (packet.cmd === 'pubrel' ? queue.find((e) => e.packet.messageId === packet.messageId) : undefined);
    if (!entry) {
      if (packet.writeCallback) return packet.writeCallback(); // dropped from the session: nothing to send
      return cb(new Error('no such packet'), client, packet);
    }
    if (entry.sentTo !== client && this.inflight(queue, client) >= this.limits.maxInflight) {
      entry.sentTo = undefined;
      entry.packet.messageId = undefined;
      if (packet.writeCallback) return packet.writeCallback(); // waits for a free place
    }
    if (packet.cmd === 'pubrel') entry.packet = packet;
    entry.packet.messageId = packet.messageId;
    entry.sentTo = client;
    cb(null, client, packet);
  }

  /** An acknowledgement (or aedes giving a message up): the message leaves the session, and a waiting one may go out. */
  private clear(client: BrokerClient, packet: Pkt, cb?: Callback): void {
    const queue = this.queues.get(client.id) ?? [];
    const i =
      packet.messageId === undefined
        ? queue.findIndex((e) => samePacket(e.packet, packet))
        : queue.findIndex((e) => e.sentTo === client && e.packet.messageId === packet.messageId);
    if (i < 0) return cb?.();
    const [entry] = queue.splice(i, 1);
    this.total--;
    this.totalBytes -= entry.bytes;
    this.bytes.set(client.id, (this.bytes.get(client.id) ?? entry.bytes) - entry.bytes);
    if (queue.length === 0) this.forget(client.id);
    this.queued.set(this.total);
    if (queue.length) setImmediate(() => this.sendWaitingSafely(client));
    cb?.(null, entry.packet);
  }

  /** Over maxTotalBytes (all sessions together): the oldest messages of the largest session go first, until it fits. */
  private boundTotal(): void {
    while (this.totalBytes > this.limits.maxTotalBytes) {
      let largest: string | undefined;
      let most = 0;
      for (const [clientId, bytes] of this.bytes) if (bytes > most) [largest, most] = [clientId, bytes];
      const queue = largest === undefined ? undefined : this.queues.get(largest);
      if (largest === undefined || !queue?.length) return;
      const gone = queue.shift()!.bytes;
      this.bytes.set(largest, most - gone);
      this.totalBytes -= gone;
      this.total--;
      if (queue.length === 0) this.forget(largest);
      this.noteDrops(largest, 1);
    }
  }

  /** A persistent session ended (its client id came back with a clean session): its queue goes, counted as dropped. */
  endSession(clientId: string): void {
    const queue = this.queues.get(clientId);
    if (!queue) return;
    this.total -= queue.length;
    this.totalBytes -= this.bytes.get(clientId) ?? 0;
    this.dropped.inc(queue.length);
    this.forget(clientId);
    this.queued.set(this.total);
  }

  /** Bytes kept for all sessions together now (tests). */
  totalKeptBytes(): number {
    return this.totalBytes;
  }

  private sendWaitingSafely(client: BrokerClient): void {
    try {
      this.sendWaiting(client);
    } catch (error) {
      this.logger.warn(`could not send the waiting messages of '${String(client.id).slice(0, 80)}': ${(error as Error).message}`);
    }
  }

  /** Writes waiting messages of a connected client while it has room in flight (oldest first). */
  private sendWaiting(client: BrokerClient): void {
    if (!client.connected || client.closed) return;
    const queue = this.queues.get(client.id);
    if (!queue) return;
    let room = this.limits.maxInflight - this.inflight(queue, client);
    for (const entry of [...queue]) {
      if (room <= 0) return;
      if (entry.sentTo === client) continue;
      entry.packet.messageId = undefined;
      const out = new this.QoSPacket(entry.packet, client);
      if (!client.broker.authorizeForward(client, out)) {
        this.clear(client, { ...entry.packet, messageId: undefined }, undefined);
        continue;
      }
      entry.packet.messageId = out.messageId;
      entry.sentTo = client;
      room--;
      this.write(client, out, () => undefined);
    }
  }

  private inflight(queue: readonly Entry[], client: BrokerClient): number {
    let n = 0;
    for (const e of queue) if (e.sentTo === client) n++;
    return n;
  }

  private forget(clientId: string): void {
    this.queues.delete(clientId);
    this.bytes.delete(clientId);
  }

  /** The metric at once; a log line per client at most every 10 s, with the count since the last one. */
  private noteDrops(clientId: string, n: number): void {
    this.dropped.inc(n);
    const now = Date.now();
    const log = this.dropLog.get(clientId) ?? { count: 0, at: 0 };
    log.count += n;
    if (now - log.at >= 10_000) {
      this.logger.warn(
        `session '${clientId.slice(0, 80)}' is over its queue (MQTT_SESSION_QUEUE_MAX_MESSAGES ${this.limits.maxMessages}, MQTT_SESSION_QUEUE_MAX_BYTES ${this.limits.maxBytes}): dropped its ${log.count} oldest message(s)`,
      );
      log.count = 0;
      log.at = now;
    }
    this.dropLog.set(clientId, log);
    if (this.dropLog.size > 10_000) this.dropLog.clear();
  }
}

/** aedes' memory persistence with bounded outgoing queues (see BoundedOutgoing). */
export function boundedPersistence(limits: SessionQueueLimits, logger: Logger, registry: Registry): { persistence: object; outgoing: BoundedOutgoing } {
  const outgoing = new BoundedOutgoing(limits, logger, registry);
  const memory = load('aedes-persistence') as () => object;
  return { persistence: outgoing.wrap(memory()), outgoing };
}
