import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * When a session's user last gave their password again (step-up, ASVS 5.0 7.5.3): dangerous
 * commands need one within the last 5 minutes. One row per session id; kept in the database so
 * every instance sees it; swept once the session would have expired.
 */
@Entity({ name: 'session_step_up' })
@Index('ix_session_step_up_user_cuid', ['user_cuid'])
export class SessionStepUpEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'sid', primaryKeyConstraintName: 'pk_session_step_up' })
  sid: string;

  @Column({ type: 'varchar', length: 32, name: 'user_cuid' })
  user_cuid: string;

  @ManyToOne(() => UserEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_session_step_up_user_cuid' })
  user: Relation<UserEntity>;

  @Column({ type: 'timestamptz', name: 'verified_at' })
  verified_at: Date;
}
