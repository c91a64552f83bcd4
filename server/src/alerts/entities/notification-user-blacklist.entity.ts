import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { UserEntity } from '../../users/user.entity';
import { NotificationTriggerEntity } from './notification-trigger.entity';

/** A user muting one trigger. */
@Entity({ name: 'notification_user_blacklist' })
@Unique('uq_notification_user_blacklist_user_trigger', ['user_cuid', 'trigger_cuid'])
@Index('ix_notification_user_blacklist_trigger_cuid', ['trigger_cuid'])
export class NotificationUserBlacklistEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'blacklist_cuid', primaryKeyConstraintName: 'pk_notification_user_blacklist' })
  blacklist_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'user_cuid' })
  user_cuid: string;

  @ManyToOne(() => UserEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_notification_user_blacklist_user_cuid' })
  user: Relation<UserEntity>;

  @Column({ type: 'varchar', length: 32, name: 'trigger_cuid' })
  trigger_cuid: string;

  /** The mute ends by itself at this time; NULL: until unmuted. */
  @Column({ type: 'timestamptz', name: 'until', nullable: true })
  until: Date | null;

  @ManyToOne(() => NotificationTriggerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_cuid', foreignKeyConstraintName: 'fk_notification_user_blacklist_trigger_cuid' })
  trigger: Relation<NotificationTriggerEntity>;
}
