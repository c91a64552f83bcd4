import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CHANGELOG_KINDS, PG_ENUM_NAMES, type ChangelogKindValue } from '../../../shared/common/enums';
import { RoleEntity } from '../users/role.entity';
import { UserEntity } from '../users/user.entity';
import { SystemEntity } from './system.entity';

/** A human-written (or action-generated) entry in a system's changelog. Not partitioned. */
@Entity({ name: 'system_changelog' })
@Index('ix_system_changelog_system_cuid_timestamp', ['system_cuid', 'timestamp'])
@Index('ix_system_changelog_user_cuid', ['user_cuid'])
@Index('ix_system_changelog_role_cuid', ['role_cuid'])
@Index('ix_system_changelog_system_cuid_kind', ['system_cuid', 'kind'])
export class SystemChangelogEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'log_cuid', primaryKeyConstraintName: 'pk_system_changelog' })
  log_cuid: string;

  @Column({ type: 'timestamptz', name: 'timestamp', default: () => 'now()' })
  timestamp: Date;

  @Column({ type: 'varchar', length: 200, name: 'title' })
  title: string;

  @Column({ type: 'text', name: 'message', nullable: true })
  message: string | null;

  /** Author; null once the user is deleted. */
  @Column({ type: 'varchar', length: 32, name: 'user_cuid', nullable: true })
  user_cuid: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_system_changelog_user_cuid' })
  user: Relation<UserEntity> | null;

  @Column({ type: 'varchar', length: 32, name: 'system_cuid' })
  system_cuid: string;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_system_changelog_system_cuid' })
  system: Relation<SystemEntity>;

  /** Role the author acted with. */
  @Column({ type: 'varchar', length: 32, name: 'role_cuid', nullable: true })
  role_cuid: string | null;

  @ManyToOne(() => RoleEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'role_cuid', foreignKeyConstraintName: 'fk_system_changelog_role_cuid' })
  role: Relation<RoleEntity> | null;

  /** MANUAL entries are written (and may be edited) by people; the others by the portal (commands, configuration, mutes), read-only. */
  @Column({ type: 'enum', enum: CHANGELOG_KINDS, enumName: PG_ENUM_NAMES.changelogKind, name: 'kind', default: 'MANUAL' })
  kind: ChangelogKindValue;

  /** What an automatic entry is about (a command_id, a mute_cuid, a controller_id / entity_cuid). */
  @Column({ type: 'varchar', length: 64, name: 'ref', nullable: true })
  ref: string | null;
}
