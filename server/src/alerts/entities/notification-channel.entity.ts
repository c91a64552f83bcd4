import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CompanyEntity } from '../../companies/company.entity';
import {
  NOTIFICATION_CHANNEL_SOURCES,
  NOTIFICATION_CHANNEL_STATUSES,
  PG_ENUM_NAMES,
  type NotificationChannelSourceValue,
  type NotificationChannelStatusValue,
} from '../../../../shared/common/enums';

/** A delivery channel of a company; details live in the Email/Telegram/Discord table. */
@Entity({ name: 'notification_channel' })
@Index('ix_notification_channel_company_cuid', ['company_cuid'])
export class NotificationChannelEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'channel_cuid', primaryKeyConstraintName: 'pk_notification_channel' })
  channel_cuid: string;

  @Column({
    type: 'enum',
    enum: NOTIFICATION_CHANNEL_SOURCES,
    enumName: PG_ENUM_NAMES.notificationChannelSource,
    name: 'source',
  })
  source: NotificationChannelSourceValue;

  @Column({
    type: 'enum',
    enum: NOTIFICATION_CHANNEL_STATUSES,
    enumName: PG_ENUM_NAMES.notificationChannelStatus,
    name: 'status',
    default: 'PENDING',
  })
  status: NotificationChannelStatusValue;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid' })
  company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_notification_channel_company_cuid' })
  company: Relation<CompanyEntity>;
}
