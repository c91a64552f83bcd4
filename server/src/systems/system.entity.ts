import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';
import { SiteEntity } from '../sites/site.entity';

/** A power system (mini-grid, solar installation …) owned by one company, optionally at a site. */
@Entity({ name: 'system' })
@Index('ix_system_company_cuid', ['company_cuid'])
@Index('ix_system_site_cuid', ['site_cuid'])
@Index('ix_system_name', ['name'])
export class SystemEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'system_cuid', primaryKeyConstraintName: 'pk_system' })
  system_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid' })
  company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_system_company_cuid' })
  company: Relation<CompanyEntity>;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  /** Calendar date (no time zone); TypeORM hydrates it as a 'YYYY-MM-DD' string. */
  @Column({ type: 'date', name: 'deployment_date', nullable: true })
  deployment_date: string | null;

  @Column({ type: 'varchar', length: 100, name: 'asset_number', nullable: true })
  asset_number: string | null;

  /** IANA time zone name, e.g. 'Africa/Nairobi'. */
  @Column({ type: 'varchar', length: 64, name: 'timezone', default: 'UTC' })
  timezone: string;

  @Column({ type: 'varchar', length: 32, name: 'site_cuid', nullable: true })
  site_cuid: string | null;

  @ManyToOne(() => SiteEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'site_cuid', foreignKeyConstraintName: 'fk_system_site_cuid' })
  site: Relation<SiteEntity> | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;
}
