import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { SystemEntity } from './system.entity';

/** The filled-in metadata form of a system (one row per system; keys follow the template). */
@Entity({ name: 'system_metadata' })
@Unique('uq_system_metadata_system_cuid', ['system_cuid'])
export class SystemMetadataEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'metadata_cuid', primaryKeyConstraintName: 'pk_system_metadata' })
  metadata_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'system_cuid' })
  system_cuid: string;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_system_metadata_system_cuid' })
  system: Relation<SystemEntity>;

  @Column({ type: 'jsonb', name: 'data', default: {} })
  data: JsonObject;
}
