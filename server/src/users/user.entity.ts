import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';

/**
 * A person who signs in. Emails are stored lower-cased (enforced by `ck_user_email_lower`), so
 * the plain unique constraint is a case-insensitive one.
 */
@Entity({ name: 'user' })
@Unique('uq_user_email', ['email'])
@Check('ck_user_email_lower', `email = lower(email)`)
@Index('ix_user_name', ['name'])
@Index('ix_user_inactivated_by_user_cuid', ['inactivated_by_user_cuid'])
export class UserEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'user_cuid', primaryKeyConstraintName: 'pk_user' })
  user_cuid: string;

  @Column({ type: 'varchar', length: 254, name: 'email' })
  email: string;

  /** argon2id hash; null = the user cannot sign in with a password. Never returned by the API. */
  @Column({ type: 'varchar', length: 255, name: 'password', nullable: true })
  password: string | null;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'varchar', length: 50, name: 'phone', nullable: true })
  phone: string | null;

  /** Preferences, e.g. `preferences.toast_notifications.toast_notifications_disabled`. */
  @Column({ type: 'jsonb', name: 'meta', default: {} })
  meta: JsonObject;

  @Column({ type: 'boolean', name: 'inactive', default: false })
  inactive: boolean;

  /** Set by the database when `inactive` becomes true (trigger `bump_session_epoch`). */
  @Column({ type: 'timestamptz', name: 'inactivated_at', nullable: true })
  inactivated_at: Date | null;

  @Column({ type: 'varchar', length: 32, name: 'inactivated_by_user_cuid', nullable: true })
  inactivated_by_user_cuid: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'inactivated_by_user_cuid', foreignKeyConstraintName: 'fk_user_inactivated_by_user_cuid' })
  inactivated_by_user: Relation<UserEntity> | null;

  /**
   * Sessions carry the epoch they were issued at; a session whose epoch is older than this is
   * revoked. Bumped by triggers on membership, role level, password, email and inactive changes.
   */
  @Column({ type: 'integer', name: 'session_epoch', default: 0 })
  session_epoch: number;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;
}
