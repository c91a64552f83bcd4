import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { SystemEntity } from './system.entity';

/**
 * Time series of standard per-system values (total PV energy).
 * Range-partitioned by month on "timestamp" (see the initial migration); PK = idempotent key.
 */
@Entity({ name: 'system_standard_value_log' })
export class SystemStandardValueLogEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'system_cuid', primaryKeyConstraintName: 'pk_system_standard_value_log' })
  system_cuid: string;

  @PrimaryColumn({ type: 'timestamptz', name: 'timestamp', primaryKeyConstraintName: 'pk_system_standard_value_log' })
  timestamp: Date;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_system_standard_value_log_system_cuid' })
  system: Relation<SystemEntity>;

  /** kWh; `pg` returns numeric as a string to keep its precision. */
  @Column({ type: 'numeric', precision: 14, scale: 3, name: 'total_pv_kwh' })
  total_pv_kwh: string;
}
