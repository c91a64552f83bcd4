import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { DomainEntity } from '../branding/domain.entity';
import { RootDomainEntity } from '../branding/root-domain.entity';
import { CompanyEntity } from '../companies/company.entity';
import { SystemEntity } from '../systems/system.entity';
import { UserEntity } from '../users/user.entity';

/**
 * A file in object storage (logos, brand assets, system documents). Owned by at most one of
 * root domain, domain, company or system; deleting the owner deletes the row (the stored object
 * is removed by the application).
 */
@Entity({ name: 'hosted_file' })
@Unique('uq_hosted_file_object_key', ['objectKey'])
@Index('ix_hosted_file_root_domain_name', ['rootDomainName'])
@Index('ix_hosted_file_domain_name', ['domainName'])
@Index('ix_hosted_file_company_cuid', ['company_cuid'])
@Index('ix_hosted_file_system_cuid', ['system_cuid'])
@Index('ix_hosted_file_uploaded_by_user_cuid', ['uploaded_by_user_cuid'])
@Check('ck_hosted_file_size', `"size" >= 0`)
export class HostedFileEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'id', primaryKeyConstraintName: 'pk_hosted_file' })
  id: string;

  @Column({ type: 'varchar', length: 1024, name: 'objectKey' })
  objectKey: string;

  @Column({ type: 'varchar', length: 255, name: 'contentType' })
  contentType: string;

  @Column({ type: 'varchar', length: 253, name: 'rootDomainName', nullable: true })
  rootDomainName: string | null;

  @ManyToOne(() => RootDomainEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rootDomainName', foreignKeyConstraintName: 'fk_hosted_file_root_domain_name' })
  rootDomain: Relation<RootDomainEntity> | null;

  @Column({ type: 'varchar', length: 253, name: 'domainName', nullable: true })
  domainName: string | null;

  @ManyToOne(() => DomainEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domainName', foreignKeyConstraintName: 'fk_hosted_file_domain_name' })
  domain: Relation<DomainEntity> | null;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid', nullable: true })
  company_cuid: string | null;

  @ManyToOne(() => CompanyEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_hosted_file_company_cuid' })
  company: Relation<CompanyEntity> | null;

  @Column({ type: 'varchar', length: 32, name: 'system_cuid', nullable: true })
  system_cuid: string | null;

  @ManyToOne(() => SystemEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_hosted_file_system_cuid' })
  system: Relation<SystemEntity> | null;

  /** Size in bytes. */
  @Column({ type: 'integer', name: 'size', default: 0 })
  size: number;

  /** The name the file had on the uploader's machine (display and download name only). */
  @Column({ type: 'varchar', length: 255, name: 'fileName', nullable: true })
  fileName: string | null;

  /** Who uploaded it; null once that user is deleted. */
  @Column({ type: 'varchar', length: 32, name: 'uploaded_by_user_cuid', nullable: true })
  uploaded_by_user_cuid: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'uploaded_by_user_cuid', foreignKeyConstraintName: 'fk_hosted_file_uploaded_by_user_cuid' })
  uploadedBy: Relation<UserEntity> | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;
}
