import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../../database/database.module';
import { updatedRows } from '../../database/returned-rows';
import type { OutboxJob } from './outbox-job';

/** One delivery as the delivery loop claimed it. */
export interface ClaimedDelivery {
  event_cuid: string;
  channel_cuid: string;
  company_cuid: string;
  notification_cuid: string;
  event_timestamp: Date;
  attempts: number;
  deferrals: number;
  duplicates: number;
  /** Claimed again after its lease ran out (it may have been sent already). */
  reclaimed: boolean;
}

/** A delivery's key: "<event_cuid>/<channel_cuid>". */
export const deliveryKey = (d: { event_cuid: string; channel_cuid: string }): string => `${d.event_cuid}/${d.channel_cuid}`;

/**
 * The delivery loop's claims (docs/alerts.md, "The worker: two loops" and "Duplicates"). A claim
 * sets due deliveries SENDING under one token (one delivery round of one instance) with a lease;
 * the holder renews the lease while it works (`renew`) and, right before each send, checks that
 * the deliveries are still its own (`hold`). So another instance claims a SENDING delivery only
 * after its holder stopped renewing for a whole lease (killed, frozen), and a holder that lost a
 * delivery that way never sends it. The job (OutboxJob) comes first.
 */
@Injectable()
export class DeliveryClaimsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /**
   * Claims up to `limit` due deliveries for `token`: PENDING and due, or SENDING with a lease that
   * ran out (counted in `duplicates`: it may have gone out already). `FOR UPDATE SKIP LOCKED`, so
   * two instances never claim the same row.
   */
  async claimDue(_job: OutboxJob, token: string, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    return updatedRows<ClaimedDelivery>(
      await this.ds.query(
        `WITH due AS (
           SELECT d.event_cuid, d.channel_cuid, d.status::text AS was FROM notification_delivery d
            WHERE (d.status = 'PENDING' AND d.next_attempt_at <= now())
               OR (d.status = 'SENDING' AND d.lease_until <= now())
            -- A channel's due deliveries stay together in a claim (they share a due time: the group
            -- window), so a burst over many channels is grouped per channel instead of being cut
            -- into slices of every channel (one event-loop transaction gives them all the same due time).
            ORDER BY d.next_attempt_at, d.channel_cuid, d.event_timestamp
            LIMIT $1
            FOR UPDATE SKIP LOCKED)
         UPDATE notification_delivery d
            SET duplicates = d.duplicates + CASE WHEN d.status = 'SENDING' THEN 1 ELSE 0 END,
                status = 'SENDING', started_at = now(), lease_until = now() + make_interval(secs => $2), claim_token = $3
           FROM due
          WHERE d.event_cuid = due.event_cuid AND d.channel_cuid = due.channel_cuid
         RETURNING d.event_cuid, d.channel_cuid, d.company_cuid, d.notification_cuid, d.event_timestamp, d.attempts, d.deferrals, d.duplicates,
                   (due.was = 'SENDING') AS reclaimed`,
        [limit, leaseSeconds, token],
      ),
    );
  }

  /**
   * The holder's heartbeat: every delivery still SENDING under `token` gets a full lease again.
   * Rows locked right now (their answer is being recorded) are skipped, never waited for: the
   * heartbeat never holds a row another statement of the holder waits on. Answers how many it renewed.
   */
  async renew(_job: OutboxJob, token: string, leaseSeconds: number): Promise<number> {
    return updatedRows<{ event_cuid: string }>(
      await this.ds.query(
        `UPDATE notification_delivery d SET lease_until = now() + make_interval(secs => $2)
           FROM (SELECT event_cuid, channel_cuid FROM notification_delivery
                  WHERE claim_token = $1 AND status = 'SENDING'
                  FOR UPDATE SKIP LOCKED) AS mine
          WHERE d.event_cuid = mine.event_cuid AND d.channel_cuid = mine.channel_cuid
         RETURNING d.event_cuid`,
        [token, leaseSeconds],
      ),
    ).length;
  }

  /**
   * Right before a send: renews the lease of `deliveries` that are still SENDING under `token` and
   * answers their keys (deliveryKey). A delivery missing from the answer is no longer this claim's
   * (another instance took it after this one's lease ran out, or it was finished): not to be sent.
   */
  async hold(_job: OutboxJob, token: string, deliveries: readonly { event_cuid: string; channel_cuid: string }[], leaseSeconds: number): Promise<Set<string>> {
    if (!deliveries.length) return new Set();
    const rows = updatedRows<{ event_cuid: string; channel_cuid: string }>(
      await this.ds.query(
        `UPDATE notification_delivery d SET lease_until = now() + make_interval(secs => $3)
           FROM unnest($1::varchar[], $2::varchar[]) AS k(event_cuid, channel_cuid)
          WHERE d.event_cuid = k.event_cuid AND d.channel_cuid = k.channel_cuid AND d.status = 'SENDING' AND d.claim_token = $4
         RETURNING d.event_cuid, d.channel_cuid`,
        [deliveries.map((d) => d.event_cuid), deliveries.map((d) => d.channel_cuid), leaseSeconds, token],
      ),
    );
    return new Set(rows.map(deliveryKey));
  }
}
