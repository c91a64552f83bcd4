import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { EntityTypeEntity } from './entity-type.entity';
import { LogParameterEntity } from './log-parameter.entity';

/** A log parameter an entity type reports. */
@Entity({ name: 'entity_type_log_parameter_assignment' })
@Unique('uq_etlpa_entitytype_id_parameter_id', ['entitytype_id', 'parameter_id'])
@Index('ix_etlpa_parameter_id', ['parameter_id'])
export class EntityTypeLogParameterAssignmentEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'entitylogparam_cuid',
    primaryKeyConstraintName: 'pk_entity_type_log_parameter_assignment',
  })
  entitylogparam_cuid: string;

  @Column({ type: 'varchar', length: 64, name: 'entitytype_id' })
  entitytype_id: string;

  @ManyToOne(() => EntityTypeEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'entitytype_id', foreignKeyConstraintName: 'fk_etlpa_entitytype_id' })
  entitytype: Relation<EntityTypeEntity>;

  @Column({ type: 'varchar', length: 64, name: 'parameter_id' })
  parameter_id: string;

  @ManyToOne(() => LogParameterEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parameter_id', foreignKeyConstraintName: 'fk_etlpa_parameter_id' })
  parameter: Relation<LogParameterEntity>;
}
