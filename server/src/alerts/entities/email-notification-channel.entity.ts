import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { NotificationChannelEntity } from './notification-channel.entity';

/** E-mail details of a channel; deliveries start once `verified_at` is set. */
@Entity({ name: 'email_notification_channel' })
@Unique('uq_email_notification_channel_channel_cuid', ['channel_cuid'])
export class EmailNotificationChannelEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'email_channel_cuid',
    primaryKeyConstraintName: 'pk_email_notification_channel',
  })
  email_channel_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'channel_cuid' })
  channel_cuid: string;

  @ManyToOne(() => NotificationChannelEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_cuid', foreignKeyConstraintName: 'fk_email_notification_channel_channel_cuid' })
  channel: Relation<NotificationChannelEntity>;

  @Column({ type: 'varchar', length: 254, name: 'email' })
  email: string;

  @Column({ type: 'timestamptz', name: 'verified_at', nullable: true })
  verified_at: Date | null;
}
