import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import type { JsonObject } from '../../../../shared/common/enums';
import { NotificationChannelEntity } from './notification-channel.entity';

/**
 * Telegram details of a channel. `token` is the one-time link token the user sends to the bot;
 * `group_chat_id` is text because Telegram chat ids exceed 32 bits and may be negative.
 */
@Entity({ name: 'telegram_notification_channel' })
@Unique('uq_telegram_notification_channel_channel_cuid', ['channel_cuid'])
export class TelegramNotificationChannelEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'telegram_channel_cuid',
    primaryKeyConstraintName: 'pk_telegram_notification_channel',
  })
  telegram_channel_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'channel_cuid' })
  channel_cuid: string;

  @ManyToOne(() => NotificationChannelEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_cuid', foreignKeyConstraintName: 'fk_telegram_notification_channel_channel_cuid' })
  channel: Relation<NotificationChannelEntity>;

  @Column({ type: 'varchar', length: 255, name: 'token', nullable: true })
  token: string | null;

  @Column({ type: 'varchar', length: 64, name: 'group_chat_id', nullable: true })
  group_chat_id: string | null;

  @Column({ type: 'varchar', length: 255, name: 'group_chat_name', nullable: true })
  group_chat_name: string | null;

  @Column({ type: 'timestamptz', name: 'linked_at', nullable: true })
  linked_at: Date | null;

  @Column({ type: 'jsonb', name: 'data', default: {} })
  data: JsonObject;
}
