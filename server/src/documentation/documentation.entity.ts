import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DOCUMENTATION_TYPES, PG_ENUM_NAMES, type DocumentationTypeValue } from '../../../shared/common/enums';
import { UserEntity } from '../users/user.entity';

/** A version of a documentation text (Markdown); `is_active` marks the one in use. */
@Entity({ name: 'documentation' })
@Index('ix_documentation_documentation_type_is_active', ['documentation_type', 'is_active'])
@Index('ix_documentation_user_cuid', ['user_cuid'])
export class DocumentationEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'cuid', primaryKeyConstraintName: 'pk_documentation' })
  cuid: string;

  @Column({ type: 'text', name: 'content' })
  content: string;

  /** Author; null once the user is deleted. */
  @Column({ type: 'varchar', length: 32, name: 'user_cuid', nullable: true })
  user_cuid: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_documentation_user_cuid' })
  user: Relation<UserEntity> | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'enum', enum: DOCUMENTATION_TYPES, enumName: PG_ENUM_NAMES.documentationType, name: 'documentation_type' })
  documentation_type: DocumentationTypeValue;

  @Column({ type: 'boolean', name: 'is_active', default: true })
  is_active: boolean;
}
