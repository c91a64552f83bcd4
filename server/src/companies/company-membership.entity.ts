import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { RoleEntity } from '../users/role.entity';
import { UserEntity } from '../users/user.entity';
import { CompanyEntity } from './company.entity';

/**
 * A user's membership of a company, with one role. One membership per (user, company); the
 * unique constraint also serves lookups by user_cuid (its leading column).
 * Any change bumps the user's `session_epoch` (database trigger), revoking their sessions.
 */
@Entity({ name: 'company_membership' })
@Unique('uq_company_membership_user_company', ['user_cuid', 'company_cuid'])
@Index('ix_company_membership_company_cuid', ['company_cuid'])
@Index('ix_company_membership_role_cuid', ['role_cuid'])
export class CompanyMembershipEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'membership_cuid', primaryKeyConstraintName: 'pk_company_membership' })
  membership_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'role_cuid' })
  role_cuid: string;

  @ManyToOne(() => RoleEntity, { nullable: false, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'role_cuid', foreignKeyConstraintName: 'fk_company_membership_role_cuid' })
  role: Relation<RoleEntity>;

  @Column({ type: 'varchar', length: 32, name: 'user_cuid' })
  user_cuid: string;

  @ManyToOne(() => UserEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_company_membership_user_cuid' })
  user: Relation<UserEntity>;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid' })
  company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_company_membership_company_cuid' })
  company: Relation<CompanyEntity>;

  @Column({ type: 'boolean', name: 'is_company_admin', default: false })
  is_company_admin: boolean;
}
