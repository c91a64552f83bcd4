import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { EntityTypeEntity } from '../../catalogue/entity-type.entity';
import { NOTIFICATION_SEVERITIES, PG_ENUM_NAMES, type NotificationSeverityValue, type JsonObject } from '../../../../shared/common/enums';

/**
 * A notification template attached to an entity type; triggers are created from it (automatically
 * for new entities of that type when `autocreate_triggers`).
 */
@Entity({ name: 'notification_template_assignment' })
@Index('ix_notification_template_assignment_entitytype_id', ['entitytype_id'])
export class NotificationTemplateAssignmentEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'assignment_cuid',
    primaryKeyConstraintName: 'pk_notification_template_assignment',
  })
  assignment_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({
    type: 'enum',
    enum: NOTIFICATION_SEVERITIES,
    enumName: PG_ENUM_NAMES.notificationSeverity,
    name: 'severity_level',
    default: 'INFO',
  })
  severity_level: NotificationSeverityValue;

  @Column({ type: 'text', name: 'message' })
  message: string;

  @Column({ type: 'text', name: 'release_message', nullable: true })
  release_message: string | null;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  /** Template arguments (parameter, threshold, duration …). */
  @Column({ type: 'jsonb', name: 'args', default: {} })
  args: JsonObject;

  @Column({ type: 'boolean', name: 'autocreate_triggers', default: false })
  autocreate_triggers: boolean;

  @Column({ type: 'varchar', length: 64, name: 'entitytype_id' })
  entitytype_id: string;

  @ManyToOne(() => EntityTypeEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'entitytype_id', foreignKeyConstraintName: 'fk_notification_template_assignment_entitytype_id' })
  entitytype: Relation<EntityTypeEntity>;
}
