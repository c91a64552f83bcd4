import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CONTROLLER_COMMAND_STATUSES, PG_ENUM_NAMES, type ControllerCommandStatusValue, type JsonObject } from '../../../../shared/common/enums';
import { CompanyEntity } from '../../companies/company.entity';
import { SystemEntity } from '../../systems/system.entity';
import { UserEntity } from '../../users/user.entity';
import { ControllerEntity } from '../../controllers/controller.entity';

/**
 * A command to a controller (issue: control; docs/controller-protocol.md, *Commands*). The id is
 * chosen by the portal (or given by the caller as an idempotency key): a repeated request with the
 * same id answers the stored record and runs nothing twice. Status: see CONTROLLER_COMMAND_STATUSES.
 */
@Entity({ name: 'controller_command' })
@Index('ix_controller_command_controller_requested', ['controller_id', 'requested_at'])
@Index('ix_controller_command_system_requested', ['system_cuid', 'requested_at'])
@Index('ix_controller_command_status_controller', ['status', 'controller_id'])
@Index('ix_controller_command_requested_by', ['requested_by'])
@Index('ix_controller_command_company_cuid', ['company_cuid'])
export class ControllerCommandEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'command_id', primaryKeyConstraintName: 'pk_controller_command' })
  command_id: string;

  @Column({ type: 'varchar', length: 64, name: 'controller_id' })
  controller_id: string;

  @ManyToOne(() => ControllerEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'controller_id', foreignKeyConstraintName: 'fk_controller_command_controller_id' })
  controller: Relation<ControllerEntity>;

  /** The controller's owner company when the command was requested: who sees the command (scope of the reads). */
  @Column({ type: 'varchar', length: 32, name: 'company_cuid' })
  company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_cuid', foreignKeyConstraintName: 'fk_controller_command_company_cuid' })
  company: Relation<CompanyEntity>;

  /** The controller's system when the command was requested (changelog, filters); null if none. */
  @Column({ type: 'varchar', length: 32, name: 'system_cuid', nullable: true })
  system_cuid: string | null;

  @ManyToOne(() => SystemEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_controller_command_system_cuid' })
  system: Relation<SystemEntity> | null;

  /** apply_config, set_parameter, restart, or a command the controller type declares. */
  @Column({ type: 'varchar', length: 64, name: 'kind' })
  kind: string;

  @Column({ type: 'jsonb', name: 'payload', default: {} })
  payload: JsonObject;

  /** Needed a recent password (step-up) when requested. */
  @Column({ type: 'boolean', name: 'dangerous', default: false })
  dangerous: boolean;

  @Column({ type: 'enum', enum: CONTROLLER_COMMAND_STATUSES, enumName: PG_ENUM_NAMES.controllerCommandStatus, name: 'status', default: 'PENDING' })
  status: ControllerCommandStatusValue;

  /** The requester; null once the user is deleted. */
  @Column({ type: 'varchar', length: 32, name: 'requested_by', nullable: true })
  requested_by: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'requested_by', foreignKeyConstraintName: 'fk_controller_command_requested_by' })
  requester: Relation<UserEntity> | null;

  @Column({ type: 'timestamptz', name: 'requested_at', default: () => 'now()' })
  requested_at: Date;

  /** Not delivered after this: EXPIRED. */
  @Column({ type: 'timestamptz', name: 'not_after' })
  not_after: Date;

  /** Last hand-over to the broker (or HTTP fetch). */
  @Column({ type: 'timestamptz', name: 'sent_at', nullable: true })
  sent_at: Date | null;

  /** Times it was handed over (a reconnect may hand it over again; the controller de-duplicates by id). */
  @Column({ type: 'integer', name: 'attempts', default: 0 })
  attempts: number;

  /** When the status became final (SUCCESS, FAILURE, TIMEOUT, EXPIRED). */
  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finished_at: Date | null;

  /** When the controller's acknowledgement arrived (possibly after a TIMEOUT). */
  @Column({ type: 'timestamptz', name: 'acked_at', nullable: true })
  acked_at: Date | null;

  /** The controller's message (or the portal's reason for TIMEOUT / EXPIRED). */
  @Column({ type: 'text', name: 'message', nullable: true })
  message: string | null;

  /** What the controller says it runs after an apply_config: { controller?: {...}, devices?: { <entity_cuid>: {...} } }. */
  @Column({ type: 'jsonb', name: 'applied_config', nullable: true })
  applied_config: JsonObject | null;
}
