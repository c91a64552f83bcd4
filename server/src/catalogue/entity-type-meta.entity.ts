import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { EntityTypeEntity } from './entity-type.entity';

/** A dated version of an entity type's meta description (config schema, state machine …). */
@Entity({ name: 'entity_type_meta' })
@Index('ix_entity_type_meta_entitytype_id_datetime', ['entitytype_id', 'datetime'])
export class EntityTypeMetaEntity {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'BY DEFAULT',
    name: 'entitytypemeta_id',
    primaryKeyConstraintName: 'pk_entity_type_meta',
  })
  entitytypemeta_id: number;

  @Column({ type: 'timestamptz', name: 'datetime', default: () => 'now()' })
  datetime: Date;

  @Column({ type: 'jsonb', name: 'meta', default: {} })
  meta: JsonObject;

  @Column({ type: 'varchar', length: 64, name: 'entitytype_id' })
  entitytype_id: string;

  @ManyToOne(() => EntityTypeEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'entitytype_id', foreignKeyConstraintName: 'fk_entity_type_meta_entitytype_id' })
  entitytype: Relation<EntityTypeEntity>;
}
