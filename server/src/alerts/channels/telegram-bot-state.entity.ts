import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The Telegram bot's update loop, one row per bot (its numeric id from getMe): the next update to
 * read (`update_offset`, so a restart never reads an update twice) and the lease that lets one
 * instance at a time poll (`lease_owner` until `lease_until`).
 */
@Entity({ name: 'telegram_bot_state' })
export class TelegramBotStateEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'bot_id', primaryKeyConstraintName: 'pk_telegram_bot_state' })
  bot_id: string;

  @Column({ type: 'bigint', name: 'update_offset', default: 0 })
  update_offset: string;

  @Column({ type: 'varchar', length: 64, name: 'lease_owner', nullable: true })
  lease_owner: string | null;

  @Column({ type: 'timestamptz', name: 'lease_until', nullable: true })
  lease_until: Date | null;
}
