import type { Translations } from '../common/translations';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { SystemMetadataTemplateSectionEntity } from './system-metadata-template-section.entity';

/** A group of fields inside a template section, ordered by `section_index`. */
@Entity({ name: 'system_metadata_template_fieldset' })
@Index('ix_system_metadata_template_fieldset_section_id', ['section_id'])
export class SystemMetadataTemplateFieldsetEntity {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'BY DEFAULT',
    name: 'fieldset_id',
    primaryKeyConstraintName: 'pk_system_metadata_template_fieldset',
  })
  fieldset_id: number;

  @Column({ type: 'varchar', length: 200, name: 'title' })
  title: string;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  /** Field definitions of this fieldset. */
  @Column({ type: 'jsonb', name: 'data', default: {} })
  data: JsonObject;

  @Column({ type: 'boolean', name: 'active', default: true })
  active: boolean;

  @Column({ type: 'integer', name: 'section_index', default: 0 })
  section_index: number;

  @Column({ type: 'integer', name: 'section_id' })
  section_id: number;

  @ManyToOne(() => SystemMetadataTemplateSectionEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'section_id', foreignKeyConstraintName: 'fk_system_metadata_template_fieldset_section_id' })
  section: Relation<SystemMetadataTemplateSectionEntity>;

  /** Texts in other languages beside the English columns: `{ "fr": { "<field>": "text" } }`. */
  @Column({ type: 'jsonb', name: 'translations', default: {} })
  translations: Translations;
}
