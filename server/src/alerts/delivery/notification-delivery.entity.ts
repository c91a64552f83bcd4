import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PG_ENUM_NAMES, TRIGGER_EVENT_STATUSES, type TriggerEventStatusValue } from '../../../../shared/common/enums';
import { NotificationChannelEntity } from '../entities/notification-channel.entity';
import { NotificationEntity } from '../entities/notification.entity';

/**
 * Not in the spec: one alert event's delivery to one channel (migration 1764120000000). The
 * event row is the queue; this row tracks each channel separately so a retry sends only to the
 * channels that have not had it. See docs/alerts.md, "The outbox".
 */
@Entity({ name: 'notification_delivery' })
@Index('ix_notification_delivery_due', ['status', 'next_attempt_at'])
@Index('ix_notification_delivery_channel_cuid', ['channel_cuid'])
@Index('ix_notification_delivery_notification_cuid', ['notification_cuid'])
export class NotificationDeliveryEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'event_cuid', primaryKeyConstraintName: 'pk_notification_delivery' })
  event_cuid: string;

  @PrimaryColumn({ type: 'varchar', length: 32, name: 'channel_cuid', primaryKeyConstraintName: 'pk_notification_delivery' })
  channel_cuid: string;

  @ManyToOne(() => NotificationChannelEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_cuid', foreignKeyConstraintName: 'fk_notification_delivery_channel_cuid' })
  channel: Relation<NotificationChannelEntity>;

  /** The event's "timestamp" (its partition key). */
  @Column({ type: 'timestamptz', name: 'event_timestamp' })
  event_timestamp: Date;

  @Column({ type: 'varchar', length: 32, name: 'notification_cuid' })
  notification_cuid: string;

  @ManyToOne(() => NotificationEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'notification_cuid', foreignKeyConstraintName: 'fk_notification_delivery_notification_cuid' })
  notification: Relation<NotificationEntity>;

  /** The channel's company (grouping is per company and channel). */
  @Column({ type: 'varchar', length: 32, name: 'company_cuid' })
  company_cuid: string;

  @Column({ type: 'enum', enum: TRIGGER_EVENT_STATUSES, enumName: PG_ENUM_NAMES.triggerEventStatus, name: 'status', default: 'PENDING' })
  status: TriggerEventStatusValue;

  /** Failed sends (toward ALERTS_DELIVERY_MAX_ATTEMPTS). */
  @Column({ type: 'integer', name: 'attempts', default: 0 })
  attempts: number;

  /** "Wait" answers (429 retry_after): not failures, bounded by ALERTS_DELIVERY_MAX_DEFERRALS. */
  @Column({ type: 'integer', name: 'deferrals', default: 0 })
  deferrals: number;

  /** Sends that may have gone out twice: claimed again after a lease ran out mid-send. */
  @Column({ type: 'integer', name: 'duplicates', default: 0 })
  duplicates: number;

  @Column({ type: 'timestamptz', name: 'next_attempt_at', default: () => 'now()' })
  next_attempt_at: Date;

  /** While SENDING: when another worker may claim it again (its holder renews it while it works). */
  @Column({ type: 'timestamptz', name: 'lease_until', nullable: true })
  lease_until: Date | null;

  /** The claim (one delivery round of one instance) that set it SENDING; it sends only while this is still its own. */
  @Column({ type: 'varchar', length: 32, name: 'claim_token', nullable: true })
  claim_token: string | null;

  @Column({ type: 'timestamptz', name: 'started_at', nullable: true })
  started_at: Date | null;

  @Column({ type: 'timestamptz', name: 'sent_at', nullable: true })
  sent_at: Date | null;

  @Column({ type: 'text', name: 'last_error', nullable: true })
  last_error: string | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;
}
