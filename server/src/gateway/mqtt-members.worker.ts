import { Logger } from '@nestjs/common';
import { systemJob } from '../common/system-job';
import type { MemberLease, MqttMembersRepository } from './mqtt-members.repository';

/** Who the lease statements run for. */
const JOB = systemJob('telemetry.mqtt-members');

/**
 * Who consumes which MQTT session (docs/ingest-failover.md). With shared subscriptions the broker
 * keeps routing messages to a member whose connection died: they wait in that member's persistent
 * session until a client with the same id connects (or the session expires, and they are gone).
 * An instance that died and is not restarted would hold a share of every controller's data back.
 *
 * So every instance holds a lease on its own client id in `mqtt_member`, renewed while it is
 * connected to the broker. When a member's lease has lapsed for `leaseSeconds`, one other instance
 * of the same share group claims it (`FOR UPDATE SKIP LOCKED`) and retires that session: it
 * connects with the dead member's client id, unsubscribes its shared filters (nothing new is routed
 * there), stores and acknowledges what the session held exactly like its own deliveries (after the
 * commit; the writes are idempotent), then disconnects with a session expiry of 0 and removes the
 * row. If the member comes back meanwhile, its connection takes the session over (the broker
 * closes the adopter's), it subscribes again and anything unacknowledged is delivered to it.
 *
 * This class is the lease loop (renew, claim, retire, stop); its SQL is in mqtt-members.repository.ts.
 */
export class MqttMembersWorker {
  private readonly logger = new Logger('MqttMembers');
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private adopting?: Promise<void>;
  private closed = false;

  constructor(
    private readonly rows: MqttMembersRepository,
    private readonly opts: {
      clientId: string;
      shareGroup: string;
      /** This instance (INSTANCE_NAME or host:pid), recorded as owner / adopter. */
      instance: string;
      leaseSeconds: number;
      /** Whether this instance is connected to the broker right now (its lease is renewed only then). */
      connected: () => boolean;
      /** Retires the session of `clientId`; resolves when done (or taken over). `renew` keeps the claim alive. */
      retire: (clientId: string, renew: () => Promise<boolean>) => Promise<void>;
    },
  ) {}

  start(): void {
    if (this.opts.leaseSeconds <= 0) return;
    const every = Math.max(1000, Math.round((this.opts.leaseSeconds * 1000) / 3));
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.ticking?.catch(() => undefined);
    await this.adopting?.catch(() => undefined);
  }

  /** One round: renew our own lease, then claim at most one lapsed member (not while retiring one). */
  tick(): Promise<void> {
    if (this.ticking || this.closed) return this.ticking ?? Promise.resolve();
    this.ticking = (async () => {
      try {
        if (this.opts.connected()) await this.renewOwn();
        if (!this.adopting && this.opts.connected()) {
          const lapsed = await this.claimLapsed();
          if (lapsed) {
            this.adopting = this.adopt(lapsed).finally(() => (this.adopting = undefined));
          }
        }
      } catch (e) {
        this.logger.warn(`MQTT member lease round failed: ${(e as Error).message}`);
      } finally {
        this.ticking = undefined;
      }
    })();
    return this.ticking;
  }

  private get lease(): MemberLease {
    return { clientId: this.opts.clientId, shareGroup: this.opts.shareGroup, instance: this.opts.instance, leaseSeconds: this.opts.leaseSeconds };
  }

  private renewOwn(): Promise<void> {
    return this.rows.renewOwn(JOB, this.lease);
  }

  /** Claims one member of our group whose lease lapsed more than a lease ago (its own or an adopter's). */
  private claimLapsed(): Promise<string | undefined> {
    return this.rows.claimLapsed(JOB, this.lease);
  }

  /** Keeps our claim on `clientId` alive; false once its owner took it back (or another adopter did). */
  private renewClaim(clientId: string): Promise<boolean> {
    return this.rows.renewClaim(JOB, this.lease, clientId);
  }

  private async adopt(clientId: string): Promise<void> {
    this.logger.warn(`MQTT member ${clientId} stopped renewing its lease: retiring its session here`);
    try {
      await this.opts.retire(clientId, () => this.renewClaim(clientId));
      await this.rows.dropClaimed(JOB, this.lease, clientId);
      this.logger.log(`MQTT member ${clientId}: session retired`);
    } catch (e) {
      // The claim lapses and this or another instance tries again.
      this.logger.warn(`MQTT member ${clientId}: could not retire its session: ${(e as Error).message}`);
    }
  }
}
