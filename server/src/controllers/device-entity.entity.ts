import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { EntityTypeEntity } from '../catalogue/entity-type.entity';
import { SystemEntity } from '../systems/system.entity';
import { CompanyEntity } from '../companies/company.entity';
import { ControllerEntity } from './controller.entity';

/**
 * The spec's "Entity": a device or data processor attached to a controller (table `entity`).
 * Named DeviceEntity so it does not read as "an entity entity".
 */
@Entity({ name: 'entity' })
@Index('ix_entity_controller_id', ['controller_id'])
@Index('ix_entity_system_cuid', ['system_cuid'])
@Index('ix_entity_charged_company_cuid', ['charged_company_cuid'])
@Index('ix_entity_entitytype_id', ['entitytype_id'])
@Index('ix_entity_name', ['name'])
export class DeviceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'entity_cuid', primaryKeyConstraintName: 'pk_entity' })
  entity_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  /** The controller that runs / reads it; null for portal-side entities (e.g. external data). */
  @Column({ type: 'varchar', length: 64, name: 'controller_id', nullable: true })
  controller_id: string | null;

  @ManyToOne(() => ControllerEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'controller_id', foreignKeyConstraintName: 'fk_entity_controller_id' })
  controller: Relation<ControllerEntity> | null;

  @Column({ type: 'jsonb', name: 'config', default: {} })
  config: JsonObject;

  @Column({ type: 'varchar', length: 64, name: 'entitytype_id' })
  entitytype_id: string;

  @ManyToOne(() => EntityTypeEntity, { nullable: false, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entitytype_id', foreignKeyConstraintName: 'fk_entity_entitytype_id' })
  entitytype: Relation<EntityTypeEntity>;

  @Column({ type: 'varchar', length: 32, name: 'system_cuid', nullable: true })
  system_cuid: string | null;

  @ManyToOne(() => SystemEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_entity_system_cuid' })
  system: Relation<SystemEntity> | null;

  /** What the device reports about itself (serial, firmware …). */
  @Column({ type: 'jsonb', name: 'device_info', default: {} })
  device_info: JsonObject;

  /** Portal-only presentation settings (icons, chart choices …). */
  @Column({ type: 'jsonb', name: 'portal_config', default: {} })
  portal_config: JsonObject;

  /** Reported configuration: what the controller last said this device runs (an ack's applied_config); `config` is the desired one. */
  @Column({ type: 'jsonb', name: 'reported_config', nullable: true })
  reported_config: JsonObject | null;

  @Column({ type: 'timestamptz', name: 'reported_at', nullable: true })
  reported_at: Date | null;

  /** The company whose data processor cap the row counts against (its creator's acting company); null: its system's owner (rows older than migration 1764672000000). */
  @Column({ type: 'varchar', length: 32, name: 'charged_company_cuid', nullable: true })
  charged_company_cuid: string | null;

  @ManyToOne(() => CompanyEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'charged_company_cuid', foreignKeyConstraintName: 'fk_entity_charged_company_cuid' })
  charged_company: Relation<CompanyEntity> | null;
}
