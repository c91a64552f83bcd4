import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { CompanyEntity } from '../companies/company.entity';
import { SystemEntity } from '../systems/system.entity';

/** A saved data-export configuration (parameters, interval, format) of a system. */
@Entity({ name: 'system_data_export_template' })
@Index('ix_system_data_export_template_system_cuid', ['system_cuid'])
@Index('ix_system_data_export_template_charged_company_cuid', ['charged_company_cuid'])
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

  /**
   * The company the schedule's jobs and mails are charged to: the one through which the actor who
   * last set the schedule sees the system (chargedCompany); null → the system's owner.
   */
  @Column({ type: 'varchar', length: 32, name: 'charged_company_cuid', nullable: true })
  charged_company_cuid: string | null;

  @ManyToOne(() => CompanyEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'charged_company_cuid', foreignKeyConstraintName: 'fk_system_data_export_template_charged_company_cuid' })
  charged_company: Relation<CompanyEntity> | null;
}
