import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { NOTIFICATION_SEVERITIES, PG_ENUM_NAMES, type NotificationSeverityValue, type JsonObject } from '../../../../shared/common/enums';
import { SystemEntity } from '../../systems/system.entity';
import { CompanyEntity } from '../../companies/company.entity';
import { NotificationTemplateAssignmentEntity } from './notification-template-assignment.entity';

/** An alert rule on a system. Evaluated by the trigger engine; see NotificationTriggerLog. */
@Entity({ name: 'notification_trigger' })
@Index('ix_notification_trigger_system_cuid', ['system_cuid'])
@Index('ix_notification_trigger_charged_company_cuid', ['charged_company_cuid'])
@Index('ix_notification_trigger_assignment_cuid', ['assignment_cuid'])
export class NotificationTriggerEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'trigger_cuid', primaryKeyConstraintName: 'pk_notification_trigger' })
  trigger_cuid: string;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'boolean', name: 'is_active', default: true })
  is_active: boolean;

  @Column({
    type: 'enum',
    enum: NOTIFICATION_SEVERITIES,
    enumName: PG_ENUM_NAMES.notificationSeverity,
    name: 'severity_level',
    default: 'INFO',
  })
  severity_level: NotificationSeverityValue;

  @Column({ type: 'jsonb', name: 'args', default: {} })
  args: JsonObject;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'text', name: 'message' })
  message: string;

  @Column({ type: 'text', name: 'release_message', nullable: true })
  release_message: string | null;

  @Column({ type: 'varchar', length: 32, name: 'system_cuid' })
  system_cuid: string;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_notification_trigger_system_cuid' })
  system: Relation<SystemEntity>;

  /** The template it was created from, if any. */
  @Column({ type: 'varchar', length: 32, name: 'assignment_cuid', nullable: true })
  assignment_cuid: string | null;

  /** Set when a trigger made from a template is edited by hand: template changes then leave it alone. */
  @Column({ type: 'timestamptz', name: 'customized_at', nullable: true })
  customized_at: Date | null;

  @ManyToOne(() => NotificationTemplateAssignmentEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'assignment_cuid', foreignKeyConstraintName: 'fk_notification_trigger_assignment_cuid' })
  assignment: Relation<NotificationTemplateAssignmentEntity> | null;

  /** The company whose trigger cap the row counts against (its creator's acting company); null: its system's owner (rows older than migration 1764672000000). */
  @Column({ type: 'varchar', length: 32, name: 'charged_company_cuid', nullable: true })
  charged_company_cuid: string | null;

  @ManyToOne(() => CompanyEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'charged_company_cuid', foreignKeyConstraintName: 'fk_notification_trigger_charged_company_cuid' })
  charged_company: Relation<CompanyEntity> | null;
}
