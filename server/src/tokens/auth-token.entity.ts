import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';
import { UserEntity } from '../users/user.entity';

/**
 * An API token of a company (HTTP ingest, integrations). Only the SHA-256 (hex) of the secret is
 * stored; the secret is shown once at creation. A token is usable while not revoked and not expired.
 */
@Entity({ name: 'auth_token' })
@Unique('uq_auth_token_token_hash', ['token_hash'])
@Index('ix_auth_token_company_cuid', ['company_cuid'])
@Index('ix_auth_token_created_by_user_cuid', ['created_by_user_cuid'])
@Check('ck_auth_token_token_hash', `token_hash ~ '^[0-9a-f]{64}$'`)
export class AuthTokenEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'token_cuid', primaryKeyConstraintName: 'pk_auth_token' })
  token_cuid: string;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid' })
  company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_auth_token_company_cuid' })
  company: Relation<CompanyEntity>;

  /** Secret; never returned by the API. */
  @Column({ type: 'varchar', length: 64, name: 'token_hash' })
  token_hash: string;

  @Column({ type: 'varchar', length: 32, name: 'created_by_user_cuid', nullable: true })
  created_by_user_cuid: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by_user_cuid', foreignKeyConstraintName: 'fk_auth_token_created_by_user_cuid' })
  created_by_user: Relation<UserEntity> | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'timestamptz', name: 'last_used_at', nullable: true })
  last_used_at: Date | null;

  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true })
  revoked_at: Date | null;

  @Column({ type: 'timestamptz', name: 'expires_at', nullable: true })
  expires_at: Date | null;
}
