import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../common/enums';
import { SystemEntity } from '../systems/system.entity';

/** A saved data-export configuration (parameters, interval, format) of a system. */
@Entity({ name: 'system_data_export_template' })
@Index('ix_system_data_export_template_system_cuid', ['system_cuid'])
export class SystemDataExportTemplateEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'template_cuid',
    primaryKeyConstraintName: 'pk_system_data_export_template',
  })
  template_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'jsonb', name: 'config', default: {} })
  config: JsonObject;

  @Column({ type: 'varchar', length: 32, name: 'system_cuid' })
  system_cuid: string;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_system_data_export_template_system_cuid' })
  system: Relation<SystemEntity>;
}
