import type { Translations } from '../common/translations';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ENTITY_TYPE_KINDS, PG_ENUM_NAMES, type EntityTypeKindValue } from '../../../shared/common/enums';
import { EntityTypeMetaEntity } from './entity-type-meta.entity';
import { ManufacturerEntity } from './manufacturer.entity';

/**
 * A device model or data processor type. `entity_type` is its kind (Device, CalculatedValue …).
 * `entitytypemeta_id` points at the current version of its meta (EntityTypeMeta rows keep the
 * history); the two tables reference each other.
 */
@Entity({ name: 'entity_type' })
@Index('ix_entity_type_manufacturer_cuid', ['manufacturer_cuid'])
@Index('ix_entity_type_entity_type', ['entity_type'])
@Index('ix_entity_type_entitytypemeta_id', ['entitytypemeta_id'])
@Check('ck_entity_type_slug', `entitytype_id ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'`)
export class EntityTypeEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'entitytype_id', primaryKeyConstraintName: 'pk_entity_type' })
  entitytype_id: string;

  /** Null for types that are not a manufacturer's product (e.g. calculated values). */
  @Column({ type: 'varchar', length: 32, name: 'manufacturer_cuid', nullable: true })
  manufacturer_cuid: string | null;

  @ManyToOne(() => ManufacturerEntity, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'manufacturer_cuid', foreignKeyConstraintName: 'fk_entity_type_manufacturer_cuid' })
  manufacturer: Relation<ManufacturerEntity> | null;

  @Column({ type: 'varchar', length: 200, name: 'model' })
  model: string;

  @Column({ type: 'varchar', length: 2048, name: 'image', nullable: true })
  image: string | null;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 2048, name: 'url', nullable: true })
  url: string | null;

  @Column({ type: 'enum', enum: ENTITY_TYPE_KINDS, enumName: PG_ENUM_NAMES.entityTypeKind, name: 'entity_type' })
  entity_type: EntityTypeKindValue;

  @Column({ type: 'integer', name: 'entitytypemeta_id', nullable: true })
  entitytypemeta_id: number | null;

  @ManyToOne(() => EntityTypeMetaEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'entitytypemeta_id', foreignKeyConstraintName: 'fk_entity_type_entitytypemeta_id' })
  entitytypemeta: Relation<EntityTypeMetaEntity> | null;

  /** Texts in other languages beside the English columns: `{ "fr": { "<field>": "text" } }`. */
  @Column({ type: 'jsonb', name: 'translations', default: {} })
  translations: Translations;
}
