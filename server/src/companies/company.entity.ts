import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';

/** A tenant: users, systems, sites, controllers and channels belong to a company. */
@Entity({ name: 'company' })
@Index('ix_company_name', ['name'])
export class CompanyEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'company_cuid', primaryKeyConstraintName: 'pk_company' })
  company_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'varchar', length: 2048, name: 'url', nullable: true })
  url: string | null;

  /** URL (or hosted-file URL) of the company logo. */
  @Column({ type: 'varchar', length: 2048, name: 'logo', nullable: true })
  logo: string | null;

  @Column({ type: 'jsonb', name: 'meta', default: {} })
  meta: JsonObject;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;
}
