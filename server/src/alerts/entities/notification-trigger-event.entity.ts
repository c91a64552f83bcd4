import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PG_ENUM_NAMES, TRIGGER_EVENT_STATUSES, type JsonValue, type TriggerEventStatusValue } from '../../../../shared/common/enums';
import { NotificationTriggerEntity } from './notification-trigger.entity';
import { NotificationEntity } from './notification.entity';

/**
 * The outbox: a trigger state change waiting to be delivered. Written PENDING in the same
 * transaction as its trigger log; claimed with `FOR UPDATE SKIP LOCKED` (SENDING), then SENT.
 * Range-partitioned by month on "timestamp".
 *
 * `log_cuid` has no foreign key: the log table's key is (log_cuid, timestamp) because it is
 * partitioned, and the event's own "timestamp" need not equal the log's.
 * `attempts`, `next_attempt_at` and `last_error` are not in the spec: the delivery worker uses
 * them for retries with back-off and to record why a delivery finally failed.
 */
@Entity({ name: 'notification_trigger_event' })
@Index('ix_notification_trigger_event_status', ['status'])
@Index('ix_notification_trigger_event_trigger_cuid_timestamp', ['trigger_cuid', 'timestamp'])
@Index('ix_notification_trigger_event_notification_cuid', ['notification_cuid'])
export class NotificationTriggerEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'event_cuid', primaryKeyConstraintName: 'pk_notification_trigger_event' })
  event_cuid: string;

  @PrimaryColumn({ type: 'timestamptz', name: 'timestamp', primaryKeyConstraintName: 'pk_notification_trigger_event' })
  timestamp: Date;

  @Column({ type: 'varchar', length: 32, name: 'log_cuid', nullable: true })
  log_cuid: string | null;

  /** The value(s) that caused the state change. */
  @Column({ type: 'jsonb', name: 'value', nullable: true })
  value: JsonValue | null;

  @Column({ type: 'varchar', length: 32, name: 'trigger_cuid' })
  trigger_cuid: string;

  @ManyToOne(() => NotificationTriggerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_cuid', foreignKeyConstraintName: 'fk_notification_trigger_event_trigger_cuid' })
  trigger: Relation<NotificationTriggerEntity>;

  /** The notification this event produced, once delivered. */
  @Column({ type: 'varchar', length: 32, name: 'notification_cuid', nullable: true })
  notification_cuid: string | null;

  @ManyToOne(() => NotificationEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'notification_cuid', foreignKeyConstraintName: 'fk_notification_trigger_event_notification_cuid' })
  notification: Relation<NotificationEntity> | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;

  @Column({
    type: 'enum',
    enum: TRIGGER_EVENT_STATUSES,
    enumName: PG_ENUM_NAMES.triggerEventStatus,
    name: 'status',
    default: 'PENDING',
  })
  status: TriggerEventStatusValue;

  @Column({ type: 'integer', name: 'attempts', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', name: 'next_attempt_at', nullable: true })
  next_attempt_at: Date | null;

  @Column({ type: 'text', name: 'last_error', nullable: true })
  last_error: string | null;
}
