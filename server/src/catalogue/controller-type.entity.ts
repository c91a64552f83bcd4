import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonValue } from '../../../shared/common/enums';
import { ManufacturerEntity } from './manufacturer.entity';

/** A controller (edge gateway) model. */
@Entity({ name: 'controller_type' })
@Index('ix_controller_type_manufacturer_cuid', ['manufacturer_cuid'])
export class ControllerTypeEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'controllertype_cuid', primaryKeyConstraintName: 'pk_controller_type' })
  controllertype_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'model' })
  model: string;

  @Column({ type: 'varchar', length: 2048, name: 'image', nullable: true })
  image: string | null;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 2048, name: 'url', nullable: true })
  url: string | null;

  @Column({ type: 'varchar', length: 32, name: 'manufacturer_cuid' })
  manufacturer_cuid: string;

  @ManyToOne(() => ManufacturerEntity, { nullable: false, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'manufacturer_cuid', foreignKeyConstraintName: 'fk_controller_type_manufacturer_cuid' })
  manufacturer: Relation<ManufacturerEntity>;

  /**
   * Commands this model takes besides the built-in ones (apply_config, set_parameter, restart):
   * a list checked by ZDeclaredCommands (control/commands/commands.schema.ts), e.g.
   * `[{ "name": "genset_start", "label": "Start the genset", "dangerous": true, "args": [] }]`.
   */
  @Column({ type: 'jsonb', name: 'commands', default: [] })
  commands: JsonValue[];
}
