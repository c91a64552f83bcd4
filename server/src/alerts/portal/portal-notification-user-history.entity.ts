import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { UserEntity } from '../../users/user.entity';
import { PortalNotificationEntity } from './portal-notification.entity';

/** A portal notification shown to (acknowledged by) a user. Range-partitioned by month. */
@Entity({ name: 'portal_notification_user_history' })
@Index('ix_portal_notification_user_history_notification_cuid', ['notification_cuid'])
export class PortalNotificationUserHistoryEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'user_cuid',
    primaryKeyConstraintName: 'pk_portal_notification_user_history',
  })
  user_cuid: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'notification_cuid',
    primaryKeyConstraintName: 'pk_portal_notification_user_history',
  })
  notification_cuid: string;

  @PrimaryColumn({ type: 'timestamptz', name: 'timestamp', primaryKeyConstraintName: 'pk_portal_notification_user_history' })
  timestamp: Date;

  @ManyToOne(() => UserEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_portal_notification_user_history_user_cuid' })
  user: Relation<UserEntity>;

  @ManyToOne(() => PortalNotificationEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'notification_cuid',
    foreignKeyConstraintName: 'fk_portal_notification_user_history_notification_cuid',
  })
  notification: Relation<PortalNotificationEntity>;
}
