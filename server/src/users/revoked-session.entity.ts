import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * A signed-out session id. The session lives in an encrypted cookie, so signing out records its
 * id here until the cookie would have expired anyway (then the row is purged).
 */
@Entity({ name: 'revoked_session' })
@Index('ix_revoked_session_expires_at', ['expires_at'])
@Index('ix_revoked_session_user_cuid', ['user_cuid'])
export class RevokedSessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'sid', primaryKeyConstraintName: 'pk_revoked_session' })
  sid: string;

  @Column({ type: 'varchar', length: 32, name: 'user_cuid' })
  user_cuid: string;

  @ManyToOne(() => UserEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_revoked_session_user_cuid' })
  user: Relation<UserEntity>;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expires_at: Date;
}
