import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { EntityCategoryEntity } from './entity-category.entity';
import { LogParameterEntity } from './log-parameter.entity';

/** A log parameter every entity of a category is expected to report. */
@Entity({ name: 'entity_category_log_parameter_assignment' })
@Unique('uq_eclpa_entitycategory_cuid_parameter_id', ['entitycategory_cuid', 'parameter_id'])
@Index('ix_eclpa_parameter_id', ['parameter_id'])
export class EntityCategoryLogParameterAssignmentEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'entitycatparam_cuid',
    primaryKeyConstraintName: 'pk_entity_category_log_parameter_assignment',
  })
  entitycatparam_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'entitycategory_cuid' })
  entitycategory_cuid: string;

  @ManyToOne(() => EntityCategoryEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'entitycategory_cuid', foreignKeyConstraintName: 'fk_eclpa_entitycategory_cuid' })
  entitycategory: Relation<EntityCategoryEntity>;

  @Column({ type: 'varchar', length: 64, name: 'parameter_id' })
  parameter_id: string;

  @ManyToOne(() => LogParameterEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parameter_id', foreignKeyConstraintName: 'fk_eclpa_parameter_id' })
  parameter: Relation<LogParameterEntity>;
}
