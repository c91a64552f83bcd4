import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';
import { CompanyEntity } from '../companies/company.entity';
import { SystemEntity } from '../systems/system.entity';
import { UserEntity } from '../users/user.entity';
import { SystemDataExportTemplateEntity } from './system-data-export-template.entity';

export const EXPORT_JOB_STATUSES = ['QUEUED', 'RUNNING', 'DONE', 'FAILED'] as const;
export type TExportJobStatus = (typeof EXPORT_JOB_STATUSES)[number];

/**
 * A background data export (docs/exports.md): QUEUED → RUNNING (a worker holds its lease) → DONE
 * (the file is in EXPORT_DIR until expires_at) or FAILED. A scheduled job has no user: any member
 * who may run exports of its system downloads it.
 */
@Entity({ name: 'export_job' })
@Index('ix_export_job_user_created', ['user_cuid', 'created_at'])
@Index('ix_export_job_status_lease', ['status', 'lease_until'])
@Index('ix_export_job_system_cuid', ['system_cuid'])
@Index('ix_export_job_template_cuid', ['template_cuid'])
@Index('ix_export_job_expires_at', ['expires_at'])
@Index('ix_export_job_charged_status', ['charged_company_cuid', 'status'])
export class ExportJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'id', primaryKeyConstraintName: 'pk_export_job' })
  id: string;

  @Column({ type: 'varchar', length: 32, name: 'user_cuid', nullable: true })
  user_cuid: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_cuid', foreignKeyConstraintName: 'fk_export_job_user_cuid' })
  user: Relation<UserEntity> | null;

  @Column({ type: 'varchar', length: 32, name: 'system_cuid' })
  system_cuid: string;

  @ManyToOne(() => SystemEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_cuid', foreignKeyConstraintName: 'fk_export_job_system_cuid' })
  system: Relation<SystemEntity>;

  @Column({ type: 'varchar', length: 32, name: 'template_cuid', nullable: true })
  template_cuid: string | null;

  @ManyToOne(() => SystemDataExportTemplateEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'template_cuid', foreignKeyConstraintName: 'fk_export_job_template_cuid' })
  template: Relation<SystemDataExportTemplateEntity> | null;

  /** The run's parameters: the template's config as it was, range, format, time zone, decimal. */
  @Column({ type: 'jsonb', name: 'params', default: {} })
  params: JsonObject;

  @Column({ type: 'enum', enum: EXPORT_JOB_STATUSES, enumName: 'export_job_status', name: 'status', default: 'QUEUED' })
  status: TExportJobStatus;

  @Column({ type: 'integer', name: 'rows_done', default: 0 })
  rows_done: number;

  /** An estimate made when the job starts (from the hourly rollup). */
  @Column({ type: 'integer', name: 'rows_total', nullable: true })
  rows_total: number | null;

  @Column({ type: 'bigint', name: 'bytes', nullable: true })
  bytes: string | null;

  @Column({ type: 'varchar', length: 200, name: 'file_name' })
  file_name: string;

  @Column({ type: 'text', name: 'error', nullable: true })
  error: string | null;

  @Column({ type: 'boolean', name: 'scheduled', default: false })
  scheduled: boolean;

  @Column({ type: 'integer', name: 'attempts', default: 0 })
  attempts: number;

  @Column({ type: 'varchar', length: 64, name: 'worker', nullable: true })
  worker: string | null;

  @Column({ type: 'timestamptz', name: 'lease_until', nullable: true })
  lease_until: Date | null;

  /** When a worker last took the job (the round-robin serves the company whose latest start is oldest). */
  @Column({ type: 'timestamptz', name: 'started_at', nullable: true })
  started_at: Date | null;

  /** The company whose export budgets the job counts against: the one through which its starter sees the system (owner, else the share's company). */
  @Column({ type: 'varchar', length: 32, name: 'charged_company_cuid' })
  charged_company_cuid: string;

  @ManyToOne(() => CompanyEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'charged_company_cuid', foreignKeyConstraintName: 'fk_export_job_charged_company_cuid' })
  charged_company: Relation<CompanyEntity>;

  @Column({ type: 'timestamptz', name: 'mailed_at', nullable: true })
  mailed_at: Date | null;

  /** Why a scheduled job's mail did not go to every recipient (the charged company's mail budget), else null. */
  @Column({ type: 'varchar', length: 500, name: 'mail_error', nullable: true })
  mail_error: string | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finished_at: Date | null;

  @Column({ type: 'timestamptz', name: 'expires_at', nullable: true })
  expires_at: Date | null;
}

/** When a scheduled template runs next (kept apart from the spec's template record). */
@Entity({ name: 'export_schedule' })
@Index('ix_export_schedule_next_run_at', ['next_run_at'])
export class ExportScheduleEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'template_cuid', primaryKeyConstraintName: 'pk_export_schedule' })
  template_cuid: string;

  @ManyToOne(() => SystemDataExportTemplateEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'template_cuid', foreignKeyConstraintName: 'fk_export_schedule_template_cuid' })
  template: Relation<SystemDataExportTemplateEntity>;

  @Column({ type: 'timestamptz', name: 'next_run_at' })
  next_run_at: Date;
}
