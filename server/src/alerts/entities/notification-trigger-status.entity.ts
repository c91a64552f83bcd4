import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, type Relation } from 'typeorm';
import {
  NEXT_EXECUTION_TRIGGERS,
  PG_ENUM_NAMES,
  TRIGGER_LOG_PROCESSING_STATUSES,
  TRIGGER_STATES,
  type JsonValue,
  type NextExecutionTriggerValue,
  type TriggerLogProcessingStatusValue,
  type TriggerStateValue,
} from '../../../../shared/common/enums';
import { NotificationTriggerEntity } from './notification-trigger.entity';

/**
 * A trigger's current state: a copy of its latest NotificationTriggerLog (the history) plus the
 * pending duration and how far in device time it has been judged. Not in the spec: the engine
 * locks this row (one per trigger) and the timer finds due work by `next_execution`.
 */
@Entity({ name: 'notification_trigger_status' })
@Index('ix_notification_trigger_status_due', ['next_execution'])
export class NotificationTriggerStatusEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'trigger_cuid', primaryKeyConstraintName: 'pk_notification_trigger_status' })
  trigger_cuid: string;

  @OneToOne(() => NotificationTriggerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_cuid', foreignKeyConstraintName: 'fk_notification_trigger_status_trigger_cuid' })
  trigger: Relation<NotificationTriggerEntity>;

  @Column({ type: 'enum', enum: TRIGGER_STATES, enumName: PG_ENUM_NAMES.triggerState, name: 'trigger_state', default: 'RELEASED' })
  trigger_state: TriggerStateValue;

  /** Device time of the last state change. */
  @Column({ type: 'timestamptz', name: 'state_since', nullable: true })
  state_since: Date | null;

  @Column({
    type: 'enum',
    enum: TRIGGER_LOG_PROCESSING_STATUSES,
    enumName: PG_ENUM_NAMES.triggerLogProcessingStatus,
    name: 'processing_status',
    nullable: true,
  })
  processing_status: TriggerLogProcessingStatusValue | null;

  /** The latest log row (its key is (log_cuid, timestamp): the log table is partitioned). */
  @Column({ type: 'varchar', length: 32, name: 'log_cuid', nullable: true })
  log_cuid: string | null;

  @Column({ type: 'timestamptz', name: 'log_timestamp', nullable: true })
  log_timestamp: Date | null;

  /** Wall time of the last evaluation. */
  @Column({ type: 'timestamptz', name: 'evaluated_at', nullable: true })
  evaluated_at: Date | null;

  /** Device time up to which values have been judged (older values arriving later are ignored). */
  @Column({ type: 'timestamptz', name: 'evaluated_until', nullable: true })
  evaluated_until: Date | null;

  /** The state a running duration (for_seconds / release_for_seconds / after_seconds) leads to. */
  @Column({ type: 'enum', enum: TRIGGER_STATES, enumName: PG_ENUM_NAMES.triggerState, name: 'pending_state', nullable: true })
  pending_state: TriggerStateValue | null;

  /** Device time the pending duration started. */
  @Column({ type: 'timestamptz', name: 'pending_since', nullable: true })
  pending_since: Date | null;

  @Column({ type: 'jsonb', name: 'last_value', nullable: true })
  last_value: JsonValue | null;

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
