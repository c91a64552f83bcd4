import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { SharedSignals, SIGNAL_TOPICS } from '../database/shared-signals';
import { createServer, type Server } from 'node:net';
import type Aedes from 'aedes';
import { PortalMetrics } from '../common/metrics';
import { systemJob } from '../common/system-job';
import type { Client as AedesClient, PublishPacket } from 'aedes';
import type { TCommandMessage } from '../../../shared/controllers/command-wire';
import { CommandAckError, type CommandLink } from './command-link';
import type { DirectoryController } from '../telemetry/controller-directory.service';
import { IngestError } from '../telemetry/ingest-validator';
import { IngestService, parseJsonPayload } from '../telemetry/ingest.service';
import { TELEMETRY_SETTINGS, type TelemetrySettings } from '../telemetry/telemetry.config';
import type { TIngestAnswer } from '../telemetry/telemetry.schema';
import { AckAfterCommitClient, redact } from './ack-after-commit-client';
import { boundedPersistence } from './bounded-persistence';
import { acceptSocket, type ControllerSession, listenOn, wireEmbeddedBroker } from './embedded-broker-hooks';
import { MqttMembersRepository } from './mqtt-members.repository';
import { MqttMembersWorker } from './mqtt-members.worker';
import { PersistentSessionQuota } from './session-quota';
import { ControllerTopics, type PublishKind } from './topics';

export { ownsClientId } from './embedded-broker-hooks';

/** How long publishCommand waits for the external broker's PUBACK. */
const COMMAND_PUBACK_TIMEOUT_MS = 5000;

/** MQTT 5 PUBACK reason codes we use toward the external broker. */
const PUBACK = { success: 0, notAuthorized: 0x87, payloadInvalid: 0x99, quotaExceeded: 0x97 } as const;

/**
 * MQTT side of ingest, in one of two modes:
 *
 * - MQTT_URL set: this instance joins the external broker (Mosquitto) as a privileged client with
 *   a persistent session and shared subscriptions `$share/<group>/<prefix>/+/{telemetry,heartbeat,
 *   state}` (several instances split the deliveries), and acknowledges each delivery after its
 *   batch committed. The broker authenticates the controllers (see docs/controller-protocol.md).
 * - otherwise: an in-process broker (aedes) on MQTT_PORT (0 = none). Its authenticate hook checks
 *   username = controller_id and password = an API token of the controller's company; the publish
 *   and subscribe hooks keep each controller to its own topics; a publish is acknowledged only
 *   after its batch committed (the hook calls back after the commit).
 *
 * Both answer each telemetry/state batch on `<prefix>/<controller_id>/reply`.
 *
 * Commands (CommandLink, docs/controller-protocol.md *Commands*): the portal publishes on
 * `<prefix>/<controller_id>/command` (QoS 1) and takes acknowledgements from
 * `<prefix>/<controller_id>/command/ack`, acknowledged (PUBACK) after the ack handler resolved; a
 * refused ack (CommandAckError) is explained on the reply topic and acknowledged.
 */
@Injectable()
export class MqttIngestService implements CommandLink, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('MQTT');
  private readonly topics: ControllerTopics;
  private external?: AckAfterCommitClient;
  private members?: MqttMembersWorker;
  /** Sessions of dead members this instance is retiring right now. */
  private readonly retiring = new Set<AckAfterCommitClient>();
  private broker?: Aedes;
  private server?: Server;
  private readonly sessions = new WeakMap<AedesClient, ControllerSession>();
  /** Sockets of the in-process broker whose client is authenticated (bigger packets, no connect timer). */
  private readonly authenticated = new WeakSet<object>();
  /** Open sockets of the in-process broker per client address. */
  private readonly perAddress = new Map<string, number>();
  /** Port the in-process broker listens on (0 when none). */
  listeningPort = 0;
  /** In-process broker: the clients of each controller holding a subscription to its command topic. */
  private readonly commandSubscribers = new Map<string, Set<AedesClient>>();
  private ackHandler?: (controller_id: string, payload: Buffer) => Promise<void>;
  private readonly subscribeHandlers: ((controller_id: string) => void)[] = [];

  /** Bumped when a token is revoked on any instance: every session checks its token again on its next publish. */
  private tokenEpoch = 0;

  constructor(
    private readonly ingest: IngestService,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
    private readonly memberRows: MqttMembersRepository,
    private readonly metrics: PortalMetrics,
    @Optional() signals?: SharedSignals,
  ) {
    this.topics = new ControllerTopics(settings.mqtt.topicPrefix);
    signals?.on(SIGNAL_TOPICS.authTokens, () => void this.tokenEpoch++);
  }

  get mode(): 'external' | 'embedded' | 'off' {
    if (this.settings.mqtt.url) return 'external';
    return this.broker ? 'embedded' : 'off';
  }

  /**
   * Whether MQTT deliveries can reach this instance (readiness, portal_mqtt_connected): with
   * MQTT_URL the client is connected and subscribed; with the in-process broker its listener is up
   * (`down` when MQTT_PORT is set but it could not listen); `off` when neither is configured.
   */
  get brokerState(): 'up' | 'down' | 'off' {
    if (this.settings.mqtt.url) return this.external?.isSubscribed ? 'up' : 'down';
    if (this.settings.mqtt.port <= 0) return 'off';
    return this.server?.listening && this.broker && !this.broker.closed ? 'up' : 'down';
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.settings.mqtt.url) await this.startExternal();
    else if (this.settings.mqtt.port > 0) await this.startEmbedded();
  }

  /**
   * MQTT_LEAVE_ON_STOP: hand this instance's share back to the group before the database closes
   * (what is in flight or queued for it is stored and acknowledged first), and end the session.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.external || !this.settings.mqtt.leaveOnStop) return;
    await this.members?.stop();
    const empty = await this.external.leave();
    if (!empty) return;
    this.logger.log(`left share group ${this.settings.mqtt.shareGroup}; session ${this.settings.mqtt.clientId} ended empty`);
    // No session left to retire: nobody needs to watch this member's lease.
    await this.memberRows.dropOwn(systemJob('telemetry.mqtt-members'), { clientId: this.settings.mqtt.clientId }).catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.members?.stop();
    await Promise.all([...this.retiring].map((c) => c.stop()));
    await this.external?.stop();
    if (this.server) await new Promise<void>((done) => this.server!.close(() => done()));
    if (this.broker) await new Promise<void>((done) => this.broker!.close(() => done()));
  }

  // ---- commands (CommandLink) -------------------------------------------------------------------

  async publishCommand(controller_id: string, message: TCommandMessage): Promise<boolean> {
    const topic = this.topics.command(controller_id);
    const payload = JSON.stringify(message);
    if (this.external) return this.external.publishConfirmed(topic, payload, COMMAND_PUBACK_TIMEOUT_MS);
    const broker = this.broker;
    if (!broker || broker.closed) return false;
    return new Promise((resolve) => {
      broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (error) => resolve(!error));
    });
  }

  isSubscribed(controller_id: string): boolean | undefined {
    if (this.external || !this.broker) return undefined;
    return (this.commandSubscribers.get(controller_id)?.size ?? 0) > 0;
  }

  onCommandAck(handler: (controller_id: string, payload: Buffer) => Promise<void>): void {
    this.ackHandler = handler;
  }

  onCommandSubscribe(handler: (controller_id: string) => void): void {
    this.subscribeHandlers.push(handler);
  }

  /**
   * A controller's acknowledgement (either broker): resolves once the handler recorded it, or after
   * a refusal for good (CommandAckError) was explained on the reply topic; rejects otherwise (not
   * acknowledged, delivered again).
   */
  private async commandAck(controller_id: string, payload: Buffer): Promise<void> {
    if (!this.ackHandler) throw new Error('commands are not taken by this instance');
    try {
      await this.ackHandler(controller_id, payload);
    } catch (error) {
      if (error instanceof CommandAckError) {
        this.reply(controller_id, { code: error.code, message: error.message });
        return;
      }
      throw error;
    }
  }

  private trackCommandSubscriber(client: AedesClient, subscribed: boolean): void {
    const session = this.sessions.get(client);
    if (!session) return;
    let set = this.commandSubscribers.get(session.controller_id);
    if (subscribed) {
      if (!set) this.commandSubscribers.set(session.controller_id, (set = new Set()));
      set.add(client);
      for (const handler of this.subscribeHandlers) {
        try {
          handler(session.controller_id);
        } catch (error) {
          this.logger.warn(`command subscribe handler failed: ${(error as Error).message}`);
        }
      }
    } else if (set) {
      set.delete(client);
      if (!set.size) this.commandSubscribers.delete(session.controller_id);
    }
  }

  // ---- external broker -------------------------------------------------------------------------

  private async startExternal(): Promise<void> {
    const m = this.settings.mqtt;
    this.external = this.externalClient(m.clientId);
    this.external.on('warning', (message: string) => this.logger.warn(message));
    this.external.on('offline', () => this.logger.warn('lost the MQTT broker; reconnecting'));
    this.external.on('ready', () => this.logger.log(`subscribed at ${redact(m.url!)} as ${m.clientId} (group ${m.shareGroup})`));
    try {
      await this.external.start();
    } catch (error) {
      // Keep serving HTTP; the client goes on trying in the background.
      this.logger.error(`${(error as Error).message}; still trying`);
    }
    this.members = new MqttMembersWorker(this.memberRows, {
      clientId: m.clientId,
      shareGroup: m.shareGroup,
      instance: m.instance,
      leaseSeconds: m.memberLeaseSeconds,
      connected: () => this.external?.isConnected === true,
      retire: (clientId, renew) => this.retireSession(clientId, renew),
    });
    this.members.start();
  }

  /**
   * Takes over a dead member's session (same client id) and leaves the share group for it
   * (AckAfterCommitClient.leave: unsubscribe, store and acknowledge what the session held like any
   * delivery, end it empty). Fails, and the claim lapses for a later round, when the member comes
   * back and takes its session over, when the connection drops or when it does not drain in time.
   */
  private async retireSession(clientId: string, renew: () => Promise<boolean>): Promise<void> {
    const m = this.settings.mqtt;
    const client = this.externalClient(clientId);
    client.on('warning', (message: string) => this.logger.warn(`retiring ${clientId}: ${message}`));
    this.retiring.add(client);
    // Keep the claim while draining; once the owner renewed its own lease, leave the session to it.
    const keep = setInterval(
      () =>
        void renew().then(
          (ours) => (ours ? undefined : client.stop()),
          () => undefined,
        ),
      Math.max(1000, (m.memberLeaseSeconds * 1000) / 3),
    );
    try {
      await client.start();
      if (!(await client.leave(2000, 5 * 60_000))) throw new Error('the session was taken over, the connection dropped, or it did not drain in time');
      this.metrics.mqttSessionsRetired.inc();
    } finally {
      clearInterval(keep);
      this.retiring.delete(client);
      await client.stop().catch(() => undefined);
    }
  }

  /** A client of the external broker under `clientId` (ours, or a dead member's being retired), on the group's shared filters. */
  private externalClient(clientId: string): AckAfterCommitClient {
    const m = this.settings.mqtt;
    return new AckAfterCommitClient(
      {
        url: m.url!,
        clientId,
        username: m.username,
        password: m.password,
        receiveMaximum: m.receiveMaximum,
        sessionExpirySeconds: m.sessionExpirySeconds,
        subscriptions: this.topics.sharedFilters(m.shareGroup),
      },
      (topic, payload) => this.onExternalDelivery(topic, payload),
    );
  }

  /** One delivery from the external broker → PUBACK reason code (after the commit). */
  private async onExternalDelivery(topic: string, payload: Buffer): Promise<number> {
    const parsed = this.topics.parse(topic);
    if (!parsed) return PUBACK.success; // not ours: nothing to store, do not have it resent
    if (parsed.kind === 'command_ack') {
      // The broker's ACL keeps a controller to its own ack topic; the command service checks the id is this controller's.
      await this.commandAck(parsed.controller_id, payload);
      return PUBACK.success;
    }
    const kind = parsed.kind;
    let controller: DirectoryController;
    try {
      controller = await this.ingest.known(parsed.controller_id);
    } catch (error) {
      if (error instanceof IngestError && error.status !== 503) {
        this.reply(parsed.controller_id, { code: error.code, message: error.message });
        return PUBACK.notAuthorized;
      }
      throw error;
    }
    try {
      const answer = await this.process(controller, kind, payload);
      if (answer) this.reply(parsed.controller_id, answer);
      return PUBACK.success;
    } catch (error) {
      if (error instanceof IngestError && error.status !== 503) {
        this.reply(parsed.controller_id, { code: error.code, message: error.message });
        return error.status === 413 ? PUBACK.quotaExceeded : PUBACK.payloadInvalid;
      }
      throw error; // not stored: no PUBACK, the broker delivers it again
    }
  }

  private async process(controller: DirectoryController, kind: PublishKind, payload: Buffer): Promise<TIngestAnswer | undefined> {
    const body = parseJsonPayload(payload);
    switch (kind) {
      case 'telemetry':
        return this.ingest.telemetry(controller, body, 'mqtt');
      case 'state':
        return this.ingest.states(controller, body, 'mqtt');
      case 'heartbeat':
        this.ingest.heartbeat(controller, body, 'mqtt');
        return undefined;
    }
  }

  private reply(controller_id: string, body: unknown): void {
    const topic = this.topics.reply(controller_id);
    const payload = JSON.stringify(body);
    if (this.external) {
      this.external.publish(topic, payload);
    } else if (this.broker) {
      this.broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, () => undefined);
    }
  }

  // ---- in-process broker -----------------------------------------------------------------------

  private async startEmbedded(): Promise<void> {
    const { default: createAedes } = (await import('aedes')) as unknown as { default: (opts?: object) => Aedes };
    const m = this.settings.mqtt;
    const bounded = boundedPersistence(m.sessionQueue, this.logger, this.metrics.registry);
    const quota = new PersistentSessionQuota(m.sessionsPerController, this.metrics.registry);
    const broker = createAedes({ id: 'portal-embedded', heartbeatInterval: 60_000, connectTimeout: m.connectTimeoutMs, persistence: bounded.persistence });
    wireEmbeddedBroker(broker, {
      topics: this.topics,
      mqtt: m,
      sessions: this.sessions,
      authenticated: this.authenticated,
      quota,
      ingest: this.ingest,
      endSession: (id) => bounded.outgoing.endSession(id),
      tokenEpoch: () => this.tokenEpoch,
      onPublish: (client, packet) => this.onEmbeddedPublish(client, packet),
      trackCommandSubscriber: (client, subscribed) => this.trackCommandSubscriber(client, subscribed),
    });

    const server = createServer((socket) => acceptSocket(socket, broker, { mqtt: m, perAddress: this.perAddress, authenticated: this.authenticated }));
    server.maxConnections = m.maxConnections;
    try {
      await listenOn(server, m.port, m.host);
    } catch (error) {
      this.logger.error(
        `the in-process MQTT broker could not listen on ${this.settings.mqtt.host}:${this.settings.mqtt.port} (${(error as Error).message}); ` +
          'MQTT ingest is off. Set MQTT_PORT to a free port, MQTT_PORT=0, or MQTT_URL for an external broker.',
      );
      await new Promise<void>((done) => broker.close(() => done()));
      return;
    }
    this.broker = broker;
    this.server = server;
    this.listeningPort = (server.address() as { port: number }).port;
    this.logger.log(`in-process MQTT broker on ${this.settings.mqtt.host}:${this.listeningPort}`);
  }

  /**
   * A controller's publish on the in-process broker: its own topics only; telemetry and states
   * are stored before this resolves (so aedes sends the PUBACK after the commit). A payload that
   * can never be stored is acknowledged (so it is not resent forever) and explained on the reply
   * topic; a storage failure rejects, aedes drops the connection, the controller sends it again.
   */
  private async onEmbeddedPublish(client: AedesClient, packet: PublishPacket): Promise<void> {
    const session = this.sessions.get(client);
    const parsed = this.topics.parse(packet.topic);
    if (!session || !parsed || parsed.controller_id !== session.controller_id) {
      throw new Error(`controllers may publish only to ${this.topics.topic('<own controller_id>', 'telemetry')}, …/heartbeat, …/state and …/command/ack`);
    }
    let controller: DirectoryController;
    if (session.epoch !== this.tokenEpoch || Date.now() - session.checkedAt > Math.max(this.settings.ingest.cacheTtlMs, 1000)) {
      const epoch = this.tokenEpoch;
      controller = await this.ingest.authorize(session.controller_id, session.token); // token revoked meanwhile → refused
      session.checkedAt = Date.now();
      session.epoch = epoch;
    } else {
      controller = await this.ingest.known(session.controller_id);
    }
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    if (parsed.kind === 'command_ack') {
      await this.commandAck(controller.controller_id, payload); // PUBACK after the ack is recorded (or refused and explained)
      return;
    }
    try {
      const answer = await this.process(controller, parsed.kind, payload);
      if (answer) this.reply(session.controller_id, answer);
    } catch (error) {
      if (error instanceof IngestError && error.status !== 503) {
        this.reply(session.controller_id, { code: error.code, message: error.message });
        return;
      }
      throw error;
    }
  }
}
