import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { SystemEntity } from '../systems/system.entity';
import { UserEntity } from '../users/user.entity';
import { DeviceEntity } from './device-entity.entity';

/**
 * A muted device (spec §6 "mute states", level 1): its state-driven alarms (trigger rule `state`)
 * fire no event from `starts_at` until `until` (or until ended early, `ended_at`), e.g. during
 * maintenance. The alert engine reads this table (alerts/engine).
 */
@Entity({ name: 'device_mute' })
@Index('ix_device_mute_entity_until', ['entity_cuid', 'until'])
@Index('ix_device_mute_system_cuid', ['system_cuid'])
@Index('ix_device_mute_created_by', ['created_by'])
@Index('ix_device_mute_ended_by', ['ended_by'])
export class DeviceMuteEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'mute_cuid', primaryKeyConstraintName: 'pk_device_mute' })
  mute_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'entity_cuid' })
  entity_cuid: string;

  @ManyToOne(() => DeviceEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'entity_cuid', foreignKeyConstraintName: 'fk_device_mute_entity_cuid' })
  entity: Relation<DeviceEntity>;

  /** The device's system when muted (scope, status page). */
  @Column({ type: 'varchar', length: 32, name: 'system_cuid' })
  system_cuid: string;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_device_mute_system_cuid' })
  system: Relation<SystemEntity>;

  @Column({ type: 'timestamptz', name: 'starts_at', default: () => 'now()' })
  starts_at: Date;

  @Column({ type: 'timestamptz', name: 'until' })
  until: Date;

  @Column({ type: 'text', name: 'reason', nullable: true })
  reason: string | null;

  @Column({ type: 'varchar', length: 32, name: 'created_by', nullable: true })
  created_by: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'fk_device_mute_created_by' })
  creator: Relation<UserEntity> | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;

  /** Set when someone ends the mute before `until`. */
  @Column({ type: 'timestamptz', name: 'ended_at', nullable: true })
  ended_at: Date | null;

  @Column({ type: 'varchar', length: 32, name: 'ended_by', nullable: true })
  ended_by: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'ended_by', foreignKeyConstraintName: 'fk_device_mute_ended_by' })
  ender: Relation<UserEntity> | null;
}

/** SQL: the mute (alias `m`) is running now — started, not ended early, not past `until`. */
export const runningMuteSql = (m = 'm'): string => `(${m}.ended_at IS NULL AND ${m}.starts_at <= now() AND ${m}.until > now())`;
