import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { CompanyEntity } from '../companies/company.entity';

/**
 * A registrable domain the portal is served under (e.g. 'example.africa'), with its default
 * branding. `company_cuid` is the brand owner; null for the platform's own domain.
 * Host names are stored lower-case.
 */
@Entity({ name: 'root_domain' })
@Index('ix_root_domain_company_cuid', ['company_cuid'])
@Check('ck_root_domain_name_lower', `name = lower(name)`)
export class RootDomainEntity {
  @PrimaryColumn({ type: 'varchar', length: 253, name: 'name', primaryKeyConstraintName: 'pk_root_domain' })
  name: string;

  /** Branding: title, favicon, sharing metadata, brand assets. */
  @Column({ type: 'jsonb', name: 'root_domain_data', default: {} })
  root_domain_data: JsonObject;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid', nullable: true })
  company_cuid: string | null;

  @ManyToOne(() => CompanyEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_root_domain_company_cuid' })
  company: Relation<CompanyEntity> | null;
}
