import type { Server, Socket } from 'node:net';
import type Aedes from 'aedes';
import type { AuthenticateError, Client as AedesClient, PublishPacket, Subscription } from 'aedes';
import type { DirectoryController } from '../telemetry/controller-directory.service';
import { IngestError } from '../telemetry/ingest-validator';
import type { TelemetrySettings } from '../telemetry/telemetry.config';
import { PacketSizeGuard } from './packet-size-guard';
import type { PersistentSessionQuota } from './session-quota';
import type { ControllerTopics } from './topics';

/** What the broker side of a controller connection remembers (embedded broker). */
export interface ControllerSession {
  controller_id: string;
  token: string;
  checkedAt: number;
  /** The token epoch at the last check (see MqttIngestService.tokenEpoch). */
  epoch: number;
}

/**
 * The client ids a controller may use: its controller_id, or `<controller_id>:<anything>` (':' is
 * not a controller_id character, so no controller's ids are a prefix of another's). Checked at
 * authentication, before the broker registers the client, so a foreign id can never take over
 * (disconnect) another controller's session.
 */
export function ownsClientId(controller_id: string, clientId: string): boolean {
  return clientId === controller_id || clientId.startsWith(`${controller_id}:`);
}

/** What the in-process broker's hooks use: the owner's per-connection state and callbacks. */
export interface EmbeddedBrokerContext {
  topics: ControllerTopics;
  mqtt: TelemetrySettings['mqtt'];
  sessions: WeakMap<AedesClient, ControllerSession>;
  authenticated: WeakSet<object>;
  quota: PersistentSessionQuota;
  ingest: { authorize(controller_id: string, token: string): Promise<DirectoryController>; contact(controller_id: string, transport: string): void };
  /** Ends a persistent session the quota let go of. */
  endSession: (clientId: string) => void;
  tokenEpoch: () => number;
  /** A controller's publish (its own topics checked there); resolves after the commit. */
  onPublish: (client: AedesClient, packet: PublishPacket) => Promise<void>;
  trackCommandSubscriber: (client: AedesClient, subscribed: boolean) => void;
}

/**
 * The in-process broker's hooks: `authenticate` checks username = controller_id and password = an
 * API token of the controller's company, the client id and the persistent-session quota; publishes
 * go through `onPublish` (acknowledged after the commit); subscriptions and forwards are limited to
 * the controller's own reply and command topics; command subscribers are tracked for delivery.
 */
export function wireEmbeddedBroker(broker: Aedes, ctx: EmbeddedBrokerContext): void {
  const { topics, sessions } = ctx;
  broker.authenticate = (client, username, password, done) => {
    const controller_id = username ?? '';
    const token = password?.toString('utf8') ?? '';
    ctx.ingest.authorize(controller_id, token).then(
      (controller) => {
        if (!ownsClientId(controller.controller_id, client.id)) {
          const refused = new Error(`the client id must be '${controller.controller_id}' or '${controller.controller_id}:<suffix>'`) as AuthenticateError;
          refused.returnCode = 2; // identifier rejected
          return done(refused, false);
        }
        if (!ctx.quota.admit(controller.controller_id, client.id, (client as { clean?: boolean }).clean !== false, ctx.endSession)) {
          const refused = new Error(
            `not authorized: this controller already holds ${ctx.mqtt.sessionsPerController} persistent sessions (MQTT_SESSIONS_PER_CONTROLLER)`,
          ) as AuthenticateError;
          refused.returnCode = 5;
          return done(refused, false);
        }
        sessions.set(client, { controller_id: controller.controller_id, token, checkedAt: Date.now(), epoch: ctx.tokenEpoch() });
        ctx.authenticated.add(client.conn);
        done(null, true);
      },
      (error: unknown) => {
        const refused = new Error(error instanceof IngestError ? error.message : 'authentication failed') as AuthenticateError;
        // 4: bad user name or password; 5: not authorized; 3: server unavailable.
        refused.returnCode = error instanceof IngestError ? (error.status === 401 ? 4 : error.status === 503 ? 3 : 5) : 3;
        done(refused, false);
      },
    );
  };
  broker.authorizePublish = (client, packet, done) => {
    if (!client) return done(null); // the portal's own publishes (replies)
    void ctx.onPublish(client, packet).then(
      () => done(null),
      (error: Error) => done(error),
    );
  };
  broker.authorizeSubscribe = (client, sub: Subscription, done) => {
    const session = client ? sessions.get(client) : undefined;
    // Only the own reply and command topics; anything else gets a failed SUBACK (0x80), the connection stays.
    if (session && (sub.topic === topics.reply(session.controller_id) || sub.topic === topics.command(session.controller_id))) {
      return done(null, sub);
    }
    done(null, null);
  };
  // Replies, commands and other portal publishes are delivered only to their own controller.
  broker.authorizeForward = (client, packet) => {
    const session = sessions.get(client);
    if (!session) return null;
    return packet.topic === topics.reply(session.controller_id) || packet.topic === topics.command(session.controller_id) ? packet : null;
  };
  // Who holds a subscription to their command topic now: new subscriptions, and those a persistent
  // session restores at connect (aedes emits no 'subscribe' for these; they are in client.subscriptions by 'clientReady').
  broker.on('clientReady', (client) => {
    const session = sessions.get(client);
    const subscriptions = (client as unknown as { subscriptions?: Record<string, unknown> }).subscriptions ?? {};
    if (session && subscriptions[topics.command(session.controller_id)]) ctx.trackCommandSubscriber(client, true);
  });
  broker.on('subscribe', (subscriptions, client) => {
    const session = client ? sessions.get(client) : undefined;
    if (session && subscriptions.some((s) => s.topic === topics.command(session.controller_id) && (s.qos as number) !== 128)) {
      ctx.trackCommandSubscriber(client, true);
    }
  });
  broker.on('unsubscribe', (list, client) => {
    const session = client ? sessions.get(client) : undefined;
    if (session && list.includes(topics.command(session.controller_id))) ctx.trackCommandSubscriber(client, false);
  });
  broker.on('clientDisconnect', (client) => ctx.trackCommandSubscriber(client, false));
  broker.on('client', (client) => {
    const session = sessions.get(client);
    if (session) ctx.ingest.contact(session.controller_id, 'mqtt');
  });
  broker.on('ping', (_packet, client) => {
    const session = sessions.get(client);
    if (session) ctx.ingest.contact(session.controller_id, 'mqtt');
  });
}

/**
 * A new socket of the in-process broker, before aedes sees it: refused above the per-address
 * cap; closed unless CONNECT and authentication complete within the connect timeout; and every
 * packet's announced size is checked from its header as aedes reads the socket (small before
 * authentication, TELEMETRY_MAX_BODY_BYTES + 1 KiB after), so nothing big is buffered first.
 */
export function acceptSocket(
  socket: Socket,
  broker: Aedes,
  ctx: { mqtt: TelemetrySettings['mqtt']; perAddress: Map<string, number>; authenticated: WeakSet<object> },
): void {
  const m = ctx.mqtt;
  const address = socket.remoteAddress ?? '';
  const open = ctx.perAddress.get(address) ?? 0;
  if (open >= m.maxConnectionsPerAddress) {
    socket.destroy();
    return;
  }
  ctx.perAddress.set(address, open + 1);
  const timer = setTimeout(() => {
    if (!ctx.authenticated.has(socket)) socket.destroy();
  }, m.connectTimeoutMs);
  socket.once('close', () => {
    clearTimeout(timer);
    const left = (ctx.perAddress.get(address) ?? 1) - 1;
    if (left > 0) ctx.perAddress.set(address, left);
    else ctx.perAddress.delete(address);
  });
  const guard = new PacketSizeGuard(() => (ctx.authenticated.has(socket) ? m.maxPacketBytes : m.maxConnectBytes));
  const read = socket.read.bind(socket);
  socket.read = (size?: number) => {
    const chunk: unknown = read(size);
    if (chunk && !guard.accept(chunk as Uint8Array)) {
      socket.destroy();
      return null;
    }
    return chunk;
  };
  broker.handle(socket);
}

/** Starts listening; rejects when the port cannot be taken. */
export function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
