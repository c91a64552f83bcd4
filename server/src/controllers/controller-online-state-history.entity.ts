import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CONTROLLER_ONLINE_STATES, PG_ENUM_NAMES, type ControllerOnlineStateName } from '../../../shared/common/enums';
import { ControllerEntity } from './controller.entity';

/** Online-state changes of controllers. Range-partitioned by month on "timestamp". */
@Entity({ name: 'controller_online_state_history' })
export class ControllerOnlineStateHistoryEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    name: 'controller_id',
    primaryKeyConstraintName: 'pk_controller_online_state_history',
  })
  controller_id: string;

  @PrimaryColumn({ type: 'timestamptz', name: 'timestamp', primaryKeyConstraintName: 'pk_controller_online_state_history' })
  timestamp: Date;

  @ManyToOne(() => ControllerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'controller_id', foreignKeyConstraintName: 'fk_controller_online_state_history_controller_id' })
  controller: Relation<ControllerEntity>;

  @Column({ type: 'enum', enum: CONTROLLER_ONLINE_STATES, enumName: PG_ENUM_NAMES.controllerOnlineState, name: 'online_state' })
  online_state: ControllerOnlineStateName;
}
