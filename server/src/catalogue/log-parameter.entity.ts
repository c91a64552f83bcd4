import type { Translations } from '../common/translations';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { LOG_PARAMETER_TYPES, PG_ENUM_NAMES, type LogParameterTypeValue } from '../../../shared/common/enums';
import { UnitEntity } from './unit.entity';

/** A measured quantity (e.g. 'pv_power', W, FloatLogParameter). */
@Entity({ name: 'log_parameter' })
@Index('ix_log_parameter_unit_cuid', ['unit_cuid'])
@Check('ck_log_parameter_slug', `parameter_id ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'`)
export class LogParameterEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'parameter_id', primaryKeyConstraintName: 'pk_log_parameter' })
  parameter_id: string;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  /** Null for unitless parameters (booleans, enumerations). */
  @Column({ type: 'varchar', length: 32, name: 'unit_cuid', nullable: true })
  unit_cuid: string | null;

  @ManyToOne(() => UnitEntity, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'unit_cuid', foreignKeyConstraintName: 'fk_log_parameter_unit_cuid' })
  unit: Relation<UnitEntity> | null;

  @Column({ type: 'enum', enum: LOG_PARAMETER_TYPES, enumName: PG_ENUM_NAMES.logParameterType, name: 'type' })
  type: LogParameterTypeValue;

  /** Texts in other languages beside the English columns: `{ "fr": { "<field>": "text" } }`. */
  @Column({ type: 'jsonb', name: 'translations', default: {} })
  translations: Translations;
}
