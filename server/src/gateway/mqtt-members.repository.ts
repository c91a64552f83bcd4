import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { SystemJob } from '../common/system-job';
import { updatedRows } from '../database/returned-rows';
import { DATA_SOURCE } from '../database/database.module';

/** Lease terms of one member: its client id, share group, instance name and lease length. */
export interface MemberLease {
  clientId: string;
  shareGroup: string;
  instance: string;
  leaseSeconds: number;
}

/**
 * The SQL of MQTT share-group members' leases (`mqtt_member`, docs/ingest-failover.md): renewing
 * this instance's own lease, claiming a lapsed member's (FOR UPDATE SKIP LOCKED) and keeping or
 * dropping that claim. Broker plumbing, no company data: every method takes the member job's identity.
 */
@Injectable()
export class MqttMembersRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** Our own lease, `leaseSeconds` from now (and no adopter). */
  async renewOwn(_job: SystemJob, me: MemberLease): Promise<void> {
    await this.ds.query(
      `INSERT INTO mqtt_member (client_id, share_group, instance, lease_until, adopted_by)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4), NULL)
       ON CONFLICT (client_id) DO UPDATE SET share_group = EXCLUDED.share_group, instance = EXCLUDED.instance,
         lease_until = EXCLUDED.lease_until, adopted_by = NULL`,
      [me.clientId, me.shareGroup, me.instance, me.leaseSeconds],
    );
  }

  /** Claims one other member of our group whose lease lapsed more than a lease ago (its own or an adopter's); its client id. */
  async claimLapsed(_job: SystemJob, me: MemberLease): Promise<string | undefined> {
    const rows = await this.ds.query<unknown>(
      `UPDATE mqtt_member SET adopted_by = $3, lease_until = now() + make_interval(secs => $4)
        WHERE client_id = (SELECT client_id FROM mqtt_member
                            WHERE share_group = $1 AND client_id <> $2
                              AND lease_until < now() - make_interval(secs => $4)
                            ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING client_id`,
      [me.shareGroup, me.clientId, me.instance, me.leaseSeconds],
    );
    return updatedRows<{ client_id: string }>(rows)[0]?.client_id;
  }

  /** Keeps our claim on `clientId` alive; false once its owner took it back (or another adopter did). */
  async renewClaim(_job: SystemJob, me: MemberLease, clientId: string): Promise<boolean> {
    const rows = await this.ds.query<unknown>(
      `UPDATE mqtt_member SET lease_until = now() + make_interval(secs => $3)
        WHERE client_id = $1 AND adopted_by = $2 RETURNING client_id`,
      [clientId, me.instance, me.leaseSeconds],
    );
    return updatedRows<unknown>(rows).length > 0;
  }

  /** A retired member's row, if we still hold its claim. */
  async dropClaimed(_job: SystemJob, me: MemberLease, clientId: string): Promise<void> {
    await this.ds.query(`DELETE FROM mqtt_member WHERE client_id = $1 AND adopted_by = $2`, [clientId, me.instance]);
  }

  /** Our own row (we left the group with an empty session: nobody needs to watch our lease). */
  async dropOwn(_job: SystemJob, me: Pick<MemberLease, 'clientId'>): Promise<void> {
    await this.ds.query(`DELETE FROM mqtt_member WHERE client_id = $1`, [me.clientId]);
  }
}
