import type { Translations } from '../common/translations';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';

/** A maker of controllers and devices. `company_cuid` null = global catalogue entry. */
@Entity({ name: 'manufacturer' })
@Index('ix_manufacturer_company_cuid', ['company_cuid'])
@Index('ix_manufacturer_name', ['name'])
export class ManufacturerEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'manufacturer_cuid', primaryKeyConstraintName: 'pk_manufacturer' })
  manufacturer_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'varchar', length: 2048, name: 'url', nullable: true })
  url: string | null;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid', nullable: true })
  company_cuid: string | null;

  @ManyToOne(() => CompanyEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_manufacturer_company_cuid' })
  company: Relation<CompanyEntity> | null;

  /** Texts in other languages beside the English columns: `{ "fr": { "<field>": "text" } }`. */
  @Column({ type: 'jsonb', name: 'translations', default: {} })
  translations: Translations;
}
