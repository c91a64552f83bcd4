import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import {
  NEXT_EXECUTION_TRIGGERS,
  PG_ENUM_NAMES,
  TRIGGER_LOG_PROCESSING_STATUSES,
  TRIGGER_STATES,
  type NextExecutionTriggerValue,
  type TriggerLogProcessingStatusValue,
  type TriggerStateValue,
  type JsonObject,
} from '../../../../shared/common/enums';
import { NotificationTriggerEntity } from './notification-trigger.entity';

/**
 * One evaluation of a trigger. Range-partitioned by month on "timestamp", so the key includes
 * "timestamp": a log is addressed by (log_cuid, timestamp).
 */
@Entity({ name: 'notification_trigger_log' })
@Index('ix_notification_trigger_log_trigger_cuid_timestamp', ['trigger_cuid', 'timestamp'])
export class NotificationTriggerLogEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'log_cuid', primaryKeyConstraintName: 'pk_notification_trigger_log' })
  log_cuid: string;

  @PrimaryColumn({ type: 'timestamptz', name: 'timestamp', primaryKeyConstraintName: 'pk_notification_trigger_log' })
  timestamp: Date;

  @Column({ type: 'varchar', length: 32, name: 'trigger_cuid' })
  trigger_cuid: string;

  @ManyToOne(() => NotificationTriggerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_cuid', foreignKeyConstraintName: 'fk_notification_trigger_log_trigger_cuid' })
  trigger: Relation<NotificationTriggerEntity>;

  @Column({
    type: 'enum',
    enum: TRIGGER_LOG_PROCESSING_STATUSES,
    enumName: PG_ENUM_NAMES.triggerLogProcessingStatus,
    name: 'processing_status',
  })
  processing_status: TriggerLogProcessingStatusValue;

  @Column({ type: 'enum', enum: TRIGGER_STATES, enumName: PG_ENUM_NAMES.triggerState, name: 'trigger_state' })
  trigger_state: TriggerStateValue;

  /** The evaluated query and its parameters (for diagnosis). */
  @Column({ type: 'jsonb', name: 'query', default: {} })
  query: JsonObject;

  @Column({ type: 'timestamptz', name: 'next_execution', nullable: true })
  next_execution: Date | null;

  @Column({
    type: 'enum',
    enum: NEXT_EXECUTION_TRIGGERS,
    enumName: PG_ENUM_NAMES.nextExecutionTrigger,
    name: 'next_execution_trigger',
    nullable: true,
  })
  next_execution_trigger: NextExecutionTriggerValue | null;
}
