import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';

/** A physical place (WGS84 coordinates) where systems are installed. */
@Entity({ name: 'site' })
@Index('ix_site_company_cuid', ['company_cuid'])
@Index('ix_site_name', ['name'])
@Check('ck_site_lat', `lat BETWEEN -90 AND 90`)
@Check('ck_site_long', `long BETWEEN -180 AND 180`)
export class SiteEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'site_cuid', primaryKeyConstraintName: 'pk_site' })
  site_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'double precision', name: 'lat', nullable: true })
  lat: number | null;

  @Column({ type: 'double precision', name: 'long', nullable: true })
  long: number | null;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid' })
  company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_site_company_cuid' })
  company: Relation<CompanyEntity>;
}
