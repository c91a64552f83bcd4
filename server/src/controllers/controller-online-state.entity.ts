import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CONTROLLER_ONLINE_STATES, PG_ENUM_NAMES, type ControllerOnlineStateName } from '../../../shared/common/enums';
import { ControllerEntity } from './controller.entity';

/** The current online state of a controller (at most one row per controller). */
@Entity({ name: 'controller_online_state' })
export class ControllerOnlineStateEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'controller_id', primaryKeyConstraintName: 'pk_controller_online_state' })
  controller_id: string;

  // ManyToOne rather than OneToOne: the primary key already makes it one-to-one, and a OneToOne
  // would make TypeORM expect an extra UNIQUE constraint on the key.
  @ManyToOne(() => ControllerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'controller_id', foreignKeyConstraintName: 'fk_controller_online_state_controller_id' })
  controller: Relation<ControllerEntity>;

  @Column({
    type: 'enum',
    enum: CONTROLLER_ONLINE_STATES,
    enumName: PG_ENUM_NAMES.controllerOnlineState,
    name: 'online_state',
    default: 'OFFLINE',
  })
  online_state: ControllerOnlineStateName;
}
