import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../../shared/common/enums';
import { DeviceEntity } from '../../controllers/device-entity.entity';

/** Snapshots of an entity's state machine / state values. Range-partitioned by month. */
@Entity({ name: 'device_state' })
export class DeviceStateEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'entity_cuid', primaryKeyConstraintName: 'pk_device_state' })
  entity_cuid: string;

  @PrimaryColumn({ type: 'timestamptz', name: 'timestamp', primaryKeyConstraintName: 'pk_device_state' })
  timestamp: Date;

  @ManyToOne(() => DeviceEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'entity_cuid', foreignKeyConstraintName: 'fk_device_state_entity_cuid' })
  entity: Relation<DeviceEntity>;

  @Column({ type: 'jsonb', name: 'state_bundle', default: {} })
  state_bundle: JsonObject;
}
