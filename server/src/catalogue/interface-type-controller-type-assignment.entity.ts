import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ControllerTypeEntity } from './controller-type.entity';
import { InterfaceTypeEntity } from './interface-type.entity';

/** An interface a controller type offers (e.g. its 've-can' port, alias 'VE.Can 1'). */
@Entity({ name: 'interface_type_controller_type_assignment' })
@Index('ix_itcta_controllertype_cuid', ['controllertype_cuid'])
@Index('ix_itcta_interfacetype_id', ['interfacetype_id'])
export class InterfaceTypeControllerTypeAssignmentEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'interfacedevice_cuid',
    primaryKeyConstraintName: 'pk_interface_type_controller_type_assignment',
  })
  interfacedevice_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'alias', nullable: true })
  alias: string | null;

  /** Address of the interface on the controller (device path, IP:port …). */
  @Column({ type: 'varchar', length: 255, name: 'interface_address', nullable: true })
  interface_address: string | null;

  @Column({ type: 'varchar', length: 32, name: 'controllertype_cuid' })
  controllertype_cuid: string;

  @ManyToOne(() => ControllerTypeEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'controllertype_cuid', foreignKeyConstraintName: 'fk_itcta_controllertype_cuid' })
  controllertype: Relation<ControllerTypeEntity>;

  @Column({ type: 'varchar', length: 64, name: 'interfacetype_id' })
  interfacetype_id: string;

  @ManyToOne(() => InterfaceTypeEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'interfacetype_id', foreignKeyConstraintName: 'fk_itcta_interfacetype_id' })
  interfacetype: Relation<InterfaceTypeEntity>;
}
