import type { Translations } from '../common/translations';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A section of the system metadata form template, ordered by `index`. */
@Entity({ name: 'system_metadata_template_section' })
export class SystemMetadataTemplateSectionEntity {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'BY DEFAULT',
    name: 'section_id',
    primaryKeyConstraintName: 'pk_system_metadata_template_section',
  })
  section_id: number;

  @Column({ type: 'varchar', length: 200, name: 'title' })
  title: string;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', name: 'isPhaseSection', default: false })
  isPhaseSection: boolean;

  @Column({ type: 'integer', name: 'index', default: 0 })
  index: number;

  /** Texts in other languages beside the English columns: `{ "fr": { "<field>": "text" } }`. */
  @Column({ type: 'jsonb', name: 'translations', default: {} })
  translations: Translations;
}
