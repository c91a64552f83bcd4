import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { NotificationChannelEntity } from './notification-channel.entity';
import { NotificationTriggerEntity } from './notification-trigger.entity';

/** Which channels deliver which triggers. */
@Entity({ name: 'notification_channel_to_trigger' })
@Index('ix_notification_channel_to_trigger_trigger_cuid', ['trigger_cuid'])
export class NotificationChannelToTriggerEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'channel_cuid', primaryKeyConstraintName: 'pk_notification_channel_to_trigger' })
  channel_cuid: string;

  @PrimaryColumn({ type: 'varchar', length: 32, name: 'trigger_cuid', primaryKeyConstraintName: 'pk_notification_channel_to_trigger' })
  trigger_cuid: string;

  @ManyToOne(() => NotificationChannelEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_cuid', foreignKeyConstraintName: 'fk_notification_channel_to_trigger_channel_cuid' })
  channel: Relation<NotificationChannelEntity>;

  @ManyToOne(() => NotificationTriggerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_cuid', foreignKeyConstraintName: 'fk_notification_channel_to_trigger_trigger_cuid' })
  trigger: Relation<NotificationTriggerEntity>;

  @Column({ type: 'boolean', name: 'enabled', default: true })
  enabled: boolean;
}
