import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { LogParameterEntity } from '../catalogue/log-parameter.entity';
import { DeviceEntity } from '../controllers/device-entity.entity';

/**
 * Raw telemetry: one value of one parameter of one entity at one instant. Range-partitioned by
 * month on "timestamp"; the primary key makes ingest idempotent (`ON CONFLICT DO NOTHING`).
 * `min`/`max` are set when the controller already aggregated an interval.
 */
@Entity({ name: 'parameter_log' })
export class ParameterLogEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'entity_cuid', primaryKeyConstraintName: 'pk_parameter_log' })
  entity_cuid: string;

  @PrimaryColumn({ type: 'varchar', length: 64, name: 'parameter_id', primaryKeyConstraintName: 'pk_parameter_log' })
  parameter_id: string;

  @PrimaryColumn({ type: 'timestamptz', name: 'timestamp', primaryKeyConstraintName: 'pk_parameter_log' })
  timestamp: Date;

  @ManyToOne(() => DeviceEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'entity_cuid', foreignKeyConstraintName: 'fk_parameter_log_entity_cuid' })
  entity: Relation<DeviceEntity>;

  @ManyToOne(() => LogParameterEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parameter_id', foreignKeyConstraintName: 'fk_parameter_log_parameter_id' })
  parameter: Relation<LogParameterEntity>;

  @Column({ type: 'double precision', name: 'min', nullable: true })
  min: number | null;

  @Column({ type: 'double precision', name: 'max', nullable: true })
  max: number | null;

  @Column({ type: 'double precision', name: 'value' })
  value: number;
}
