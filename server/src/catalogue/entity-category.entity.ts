import type { Translations } from '../common/translations';
import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** A device category (inverter, battery …) with a standard set of log parameters. */
@Entity({ name: 'entity_category' })
@Unique('uq_entity_category_name', ['name'])
export class EntityCategoryEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'entitycategory_cuid', primaryKeyConstraintName: 'pk_entity_category' })
  entitycategory_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  /** Texts in other languages beside the English columns: `{ "fr": { "<field>": "text" } }`. */
  @Column({ type: 'jsonb', name: 'translations', default: {} })
  translations: Translations;
}
