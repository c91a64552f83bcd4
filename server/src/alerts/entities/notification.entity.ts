import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { NOTIFICATION_SEVERITIES, PG_ENUM_NAMES, type NotificationSeverityValue } from '../../../../shared/common/enums';
import { NotificationTriggerEntity } from './notification-trigger.entity';

/** A notification sent because a trigger changed state. */
@Entity({ name: 'notification' })
@Index('ix_notification_trigger_cuid_sent_at', ['trigger_cuid', 'sent_at'])
export class NotificationEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'notification_cuid', primaryKeyConstraintName: 'pk_notification' })
  notification_cuid: string;

  @Column({ type: 'text', name: 'message' })
  message: string;

  @Column({ type: 'timestamptz', name: 'sent_at', default: () => 'now()' })
  sent_at: Date;

  @Column({ type: 'enum', enum: NOTIFICATION_SEVERITIES, enumName: PG_ENUM_NAMES.notificationSeverity, name: 'severity_level' })
  severity_level: NotificationSeverityValue;

  @Column({ type: 'varchar', length: 32, name: 'trigger_cuid' })
  trigger_cuid: string;

  @ManyToOne(() => NotificationTriggerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_cuid', foreignKeyConstraintName: 'fk_notification_trigger_cuid' })
  trigger: Relation<NotificationTriggerEntity>;
}
