import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { ControllerTypeEntity } from '../catalogue/controller-type.entity';
import { CompanyEntity } from '../companies/company.entity';
import { SystemEntity } from '../systems/system.entity';

/**
 * An edge gateway. `controller_id` is a natural key chosen by the installer; it appears in MQTT
 * topics, so `ck_controller_id_format` keeps it topic-safe (see CONTROLLER_ID_PATTERN).
 */
@Entity({ name: 'controller' })
@Index('ix_controller_company_cuid', ['company_cuid'])
@Index('ix_controller_system_cuid', ['system_cuid'])
@Index('ix_controller_controllertype_cuid', ['controllertype_cuid'])
@Index('ix_controller_name', ['name'])
@Check('ck_controller_id_format', `controller_id ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'`)
@Check('ck_controller_ssh_port', `ssh_port BETWEEN 1 AND 65535`)
export class ControllerEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'controller_id', primaryKeyConstraintName: 'pk_controller' })
  controller_id: string;

  @Column({ type: 'varchar', length: 32, name: 'controllertype_cuid' })
  controllertype_cuid: string;

  @ManyToOne(() => ControllerTypeEntity, { nullable: false, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'controllertype_cuid', foreignKeyConstraintName: 'fk_controller_controllertype_cuid' })
  controllertype: Relation<ControllerTypeEntity>;

  @Column({ type: 'varchar', length: 32, name: 'company_cuid' })
  company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_controller_company_cuid' })
  company: Relation<CompanyEntity>;

  /** Null while the controller is not (or no longer) installed in a system. */
  @Column({ type: 'varchar', length: 32, name: 'system_cuid', nullable: true })
  system_cuid: string | null;

  @ManyToOne(() => SystemEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_controller_system_cuid' })
  system: Relation<SystemEntity> | null;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'varchar', length: 100, name: 'serial_number', nullable: true })
  serial_number: string | null;

  @Column({ type: 'integer', name: 'ssh_port', nullable: true })
  ssh_port: number | null;

  @Column({ type: 'varchar', length: 64, name: 'sw_version', nullable: true })
  sw_version: string | null;

  /** What the controller reports about itself (hardware, OS, network …). */
  @Column({ type: 'jsonb', name: 'controller_info', default: {} })
  controller_info: JsonObject;

  /** Desired configuration: what the portal asks the controller to run (sent by an apply_config command). */
  @Column({ type: 'jsonb', name: 'config', default: {} })
  config: JsonObject;

  /** Reported configuration: what the controller last said it runs (an ack's applied_config); null until it said so. */
  @Column({ type: 'jsonb', name: 'reported_config', nullable: true })
  reported_config: JsonObject | null;

  @Column({ type: 'timestamptz', name: 'reported_at', nullable: true })
  reported_at: Date | null;
}
