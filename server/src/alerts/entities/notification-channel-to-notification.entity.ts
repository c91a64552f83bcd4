import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { NotificationChannelEntity } from './notification-channel.entity';
import { NotificationEntity } from './notification.entity';

/** Which channels a notification was delivered through. */
@Entity({ name: 'notification_channel_to_notification' })
@Index('ix_notification_channel_to_notification_notification_cuid', ['notification_cuid'])
export class NotificationChannelToNotificationEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'channel_cuid',
    primaryKeyConstraintName: 'pk_notification_channel_to_notification',
  })
  channel_cuid: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'notification_cuid',
    primaryKeyConstraintName: 'pk_notification_channel_to_notification',
  })
  notification_cuid: string;

  @ManyToOne(() => NotificationChannelEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_cuid', foreignKeyConstraintName: 'fk_notification_channel_to_notification_channel_cuid' })
  channel: Relation<NotificationChannelEntity>;

  @ManyToOne(() => NotificationEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'notification_cuid', foreignKeyConstraintName: 'fk_notification_channel_to_notification_notification_cuid' })
  notification: Relation<NotificationEntity>;
}
