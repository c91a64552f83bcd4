import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';
import { CompanyMembershipEntity } from '../companies/company-membership.entity';
import { SystemEntity } from './system.entity';

/**
 * A system shared with another company. `change` lets that company edit the system.
 * `membership_cuid` is the membership that granted the share (kept for audit; null once that
 * membership is gone).
 */
@Entity({ name: 'system_sharing' })
@Index('ix_system_sharing_system_cuid', ['system_cuid'])
@Index('ix_system_sharing_membership_cuid', ['membership_cuid'])
export class SystemSharingEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'company_cuid', primaryKeyConstraintName: 'pk_system_sharing' })
  company_cuid: string;

  @PrimaryColumn({ type: 'varchar', length: 32, name: 'system_cuid', primaryKeyConstraintName: 'pk_system_sharing' })
  system_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_system_sharing_company_cuid' })
  company: Relation<CompanyEntity>;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_system_sharing_system_cuid' })
  system: Relation<SystemEntity>;

  @Column({ type: 'varchar', length: 32, name: 'membership_cuid', nullable: true })
  membership_cuid: string | null;

  @ManyToOne(() => CompanyMembershipEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'membership_cuid', foreignKeyConstraintName: 'fk_system_sharing_membership_cuid' })
  membership: Relation<CompanyMembershipEntity> | null;

  @Column({ type: 'boolean', name: 'change', default: false })
  change: boolean;
}
