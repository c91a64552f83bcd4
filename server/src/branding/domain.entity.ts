import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { CompanyEntity } from '../companies/company.entity';
import { RootDomainEntity } from './root-domain.entity';

/**
 * A full host name the portal answers on, e.g. 'acme.example.africa' = sub_domain_name 'acme'
 * + root_domain_name 'example.africa' (sub_domain_name '' = the root domain itself).
 * `ck_domain_name_parts` keeps `name` equal to its parts. Branding in `domain_data` overrides
 * the root domain's.
 */
@Entity({ name: 'domain' })
@Unique('uq_domain_sub_domain_name_root_domain_name', ['sub_domain_name', 'root_domain_name'])
@Index('ix_domain_company_cuid', ['company_cuid'])
@Index('ix_domain_root_domain_name', ['root_domain_name'])
@Check('ck_domain_name_lower', `name = lower(name) AND sub_domain_name = lower(sub_domain_name)`)
@Check('ck_domain_name_parts', `name = CASE WHEN sub_domain_name = '' THEN root_domain_name ELSE sub_domain_name || '.' || root_domain_name END`)
export class DomainEntity {
  @PrimaryColumn({ type: 'varchar', length: 253, name: 'name', primaryKeyConstraintName: 'pk_domain' })
  name: string;

  @Column({ type: 'varchar', length: 253, name: 'sub_domain_name' })
  sub_domain_name: string;

  @Column({ type: 'jsonb', name: 'domain_data', default: {} })
  domain_data: JsonObject;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid', nullable: true })
  company_cuid: string | null;

  @ManyToOne(() => CompanyEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_domain_company_cuid' })
  company: Relation<CompanyEntity> | null;

  @Column({ type: 'varchar', length: 253, name: 'root_domain_name' })
  root_domain_name: string;

  @ManyToOne(() => RootDomainEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'root_domain_name', foreignKeyConstraintName: 'fk_domain_root_domain_name' })
  root_domain: Relation<RootDomainEntity>;
}
