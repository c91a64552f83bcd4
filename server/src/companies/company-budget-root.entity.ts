import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CompanyEntity } from './company.entity';

/**
 * The budget account of a company (migration 1764672000000): the root company whose per-company
 * budgets it counts with. Written when a company admin who is no superuser creates a company; no
 * row means the company is its own root (docs/security.md "Budgets and fair shares").
 */
@Entity({ name: 'company_budget_root' })
@Index('ix_company_budget_root_root_company_cuid', ['root_company_cuid'])
export class CompanyBudgetRootEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'company_cuid', primaryKeyConstraintName: 'pk_company_budget_root' })
  company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_company_budget_root_company_cuid' })
  company: Relation<CompanyEntity>;

  @Column({ type: 'varchar', length: 32, name: 'root_company_cuid' })
  root_company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'root_company_cuid', foreignKeyConstraintName: 'fk_company_budget_root_root_company_cuid' })
  root_company: Relation<CompanyEntity>;
}
