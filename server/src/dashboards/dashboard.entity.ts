import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { RoleEntity } from '../users/role.entity';

/**
 * A dashboard layout. `entityowner_cuid` is the cuid of what owns it (a company, a system or a
 * user), so it has no foreign key; `role_cuid` is the role it is meant for.
 */
@Entity({ name: 'dashboard' })
@Index('ix_dashboard_entityowner_cuid', ['entityowner_cuid'])
@Index('ix_dashboard_role_cuid', ['role_cuid'])
export class DashboardEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'dashboard_cuid', primaryKeyConstraintName: 'pk_dashboard' })
  dashboard_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'entityowner_cuid' })
  entityowner_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'jsonb', name: 'meta', default: {} })
  meta: JsonObject;

  @Column({ type: 'varchar', length: 32, name: 'role_cuid', nullable: true })
  role_cuid: string | null;

  @ManyToOne(() => RoleEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'role_cuid', foreignKeyConstraintName: 'fk_dashboard_role_cuid' })
  role: Relation<RoleEntity> | null;
}
