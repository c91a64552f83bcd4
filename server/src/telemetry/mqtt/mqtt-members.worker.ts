import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

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
 */
export class MqttMembers {
  private readonly logger = new Logger('MqttMembers');
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private adopting?: Promise<void>;
  private closed = false;

  constructor(
    private readonly ds: DataSource,
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

  private async renewOwn(): Promise<void> {
    await this.ds.query(
      `INSERT INTO mqtt_member (client_id, share_group, instance, lease_until, adopted_by)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4), NULL)
       ON CONFLICT (client_id) DO UPDATE SET share_group = EXCLUDED.share_group, instance = EXCLUDED.instance,
         lease_until = EXCLUDED.lease_until, adopted_by = NULL`,
      [this.opts.clientId, this.opts.shareGroup, this.opts.instance, this.opts.leaseSeconds],
    );
  }

  /** Claims one member of our group whose lease lapsed more than a lease ago (its own or an adopter's). */
  private async claimLapsed(): Promise<string | undefined> {
    const rows = (await this.ds.query(
      `UPDATE mqtt_member SET adopted_by = $3, lease_until = now() + make_interval(secs => $4)
        WHERE client_id = (SELECT client_id FROM mqtt_member
                            WHERE share_group = $1 AND client_id <> $2
                              AND lease_until < now() - make_interval(secs => $4)
                            ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING client_id`,
      [this.opts.shareGroup, this.opts.clientId, this.opts.instance, this.opts.leaseSeconds],
    )) as unknown as [{ client_id: string }[], number] | { client_id: string }[];
    const list = Array.isArray(rows[0]) ? (rows[0] as { client_id: string }[]) : (rows as { client_id: string }[]);
    return list[0]?.client_id;
  }

  /** Keeps our claim on `clientId` alive; false once its owner took it back (or another adopter did). */
  private async renewClaim(clientId: string): Promise<boolean> {
    const rows = (await this.ds.query(
      `UPDATE mqtt_member SET lease_until = now() + make_interval(secs => $3)
        WHERE client_id = $1 AND adopted_by = $2 RETURNING client_id`,
      [clientId, this.opts.instance, this.opts.leaseSeconds],
    )) as unknown as [unknown[], number] | unknown[];
    const list = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return list.length > 0;
  }

  private async adopt(clientId: string): Promise<void> {
    this.logger.warn(`MQTT member ${clientId} stopped renewing its lease: retiring its session here`);
    try {
      await this.opts.retire(clientId, () => this.renewClaim(clientId));
      await this.ds.query(`DELETE FROM mqtt_member WHERE client_id = $1 AND adopted_by = $2`, [clientId, this.opts.instance]);
      this.logger.log(`MQTT member ${clientId}: session retired`);
    } catch (e) {
      // The claim lapses and this or another instance tries again.
      this.logger.warn(`MQTT member ${clientId}: could not retire its session: ${(e as Error).message}`);
    }
  }
}
