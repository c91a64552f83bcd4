import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { PG_ENUM_NAMES, PORTAL_NOTIFICATION_TYPES, type PortalNotificationTypeValue } from '../../../../shared/common/enums';
import { SystemEntity } from '../../systems/system.entity';
import { UserEntity } from '../../users/user.entity';

/** A user muting one kind of portal notification for one system. */
@Entity({ name: 'portal_notification_user_blacklist' })
@Unique('uq_portal_notification_user_blacklist_user_system_type', ['user_cuid', 'system_cuid', 'notification_type'])
@Index('ix_portal_notification_user_blacklist_system_cuid', ['system_cuid'])
export class PortalNotificationUserBlacklistEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'blacklist_cuid',
    primaryKeyConstraintName: 'pk_portal_notification_user_blacklist',
  })
  blacklist_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'user_cuid' })
  user_cuid: string;

  @ManyToOne(() => UserEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_portal_notification_user_blacklist_user_cuid' })
  user: Relation<UserEntity>;

  @Column({ type: 'varchar', length: 32, name: 'system_cuid' })
  system_cuid: string;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_portal_notification_user_blacklist_system_cuid' })
  system: Relation<SystemEntity>;

  @Column({
    type: 'enum',
    enum: PORTAL_NOTIFICATION_TYPES,
    enumName: PG_ENUM_NAMES.portalNotificationType,
    name: 'notification_type',
  })
  notification_type: PortalNotificationTypeValue;
}
