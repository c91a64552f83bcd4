import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { NotificationChannelEntity } from './notification-channel.entity';

/** Discord details of a channel (an incoming-webhook URL: a secret, never returned in full). */
@Entity({ name: 'discord_notification_channel' })
@Unique('uq_discord_notification_channel_channel_cuid', ['channel_cuid'])
export class DiscordNotificationChannelEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'discord_channel_cuid',
    primaryKeyConstraintName: 'pk_discord_notification_channel',
  })
  discord_channel_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'varchar', length: 32, name: 'channel_cuid' })
  channel_cuid: string;

  @ManyToOne(() => NotificationChannelEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_cuid', foreignKeyConstraintName: 'fk_discord_notification_channel_channel_cuid' })
  channel: Relation<NotificationChannelEntity>;

  @Column({ type: 'varchar', length: 2048, name: 'webhook' })
  webhook: string;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;
}
