import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../../../shared/access/policy';
import { DATA_SOURCE } from '../../database/database.module';
import { SqlParams } from '../../database/sql-params';
import { visibleSystemSql } from '../../tenancy/visibility';
import { systemVisibleTo } from '../../tenancy/visible-records.repository';
import type { JobIdentity } from './job-identity';

/** A notification_template_assignment row. */
export interface TemplateRow {
  assignment_cuid: string;
  name: string;
  message: string;
  release_message: string | null;
  severity_level: string;
  args: unknown;
  autocreate_triggers: boolean;
  entitytype_id: string;
}

/** A trigger made from a template and not customized, with its device's name (null when the device is gone). */
export interface LinkedTriggerRow {
  trigger_cuid: string;
  args: unknown;
  device: string | null;
}

/** What a template writes into a linked trigger. */
export interface TemplatedFields {
  name: string;
  message: string;
  release_message: string | null;
  severity_level: string;
  args: Record<string, unknown>;
}

/** A device (with a system) that has no trigger from a template yet. */
export interface DeviceRow {
  entity_cuid: string;
  name: string;
  system_cuid: string;
}

/** A trigger autocreated from a template for one device. */
export interface NewTemplatedTrigger {
  trigger_cuid: string;
  args: Record<string, unknown>;
  name: string;
  system_cuid: string;
  charged_company_cuid: string | null;
}

/**
 * The SQL of the trigger write hooks (alert-write-hooks.service.ts). They run for the system
 * (`ALERT_WRITES_JOB` first): before a CRUD write the generated router's own scope check follows,
 * after it the write is committed and checked; every statement reads or writes by the keys it is
 * given, and the "in system" reads answer nothing for a row of another system. The two reads that
 * choose which systems a rule is checked in take the caller first: they run before the write's own
 * scope check, and a system the caller does not see is never looked into (its answer would tell
 * that company's controllers and devices apart from unknown ones).
 */
export interface AlertWriteHooksRepository {
  transaction<T>(job: JobIdentity, work: (tx: EntityManager) => Promise<T>): Promise<T>;
  /** Marks the triggers made from a template as customized (a hand edit). */
  markCustomized(job: JobIdentity, trigger_cuids: readonly string[]): Promise<void>;
  /** The systems of those of the triggers the caller sees (distinct); a foreign trigger is left to the write's own NOT_FOUND. */
  systemsOfTriggers(actor: Actor, trigger_cuids: readonly string[]): Promise<string[]>;
  /** Whether the caller sees the system (a new trigger's). */
  systemVisible(actor: Actor, system_cuid: string): Promise<boolean>;
  /** Whether the controller is of the system. */
  controllerInSystem(job: JobIdentity, controller_id: string, system_cuid: string): Promise<boolean>;
  /** The entity type of a device of the system, undefined when the device is not of it. */
  deviceTypeInSystem(job: JobIdentity, entity_cuid: string, system_cuid: string): Promise<string | undefined>;
  /** Whether the entity type logs the parameter. */
  typeLogsParameter(job: JobIdentity, entitytype_id: string, parameter_id: string): Promise<boolean>;
  /** Drops the running durations; the timer judges the triggers again now. */
  restartJudgement(job: JobIdentity, trigger_cuids: readonly string[]): Promise<void>;
  /** The entity types of the templates (distinct). */
  entityTypesOfTemplates(job: JobIdentity, assignment_cuids: readonly string[]): Promise<string[]>;
  templates(job: JobIdentity, assignment_cuids: readonly string[]): Promise<TemplateRow[]>;
  template(job: JobIdentity, assignment_cuid: string): Promise<TemplateRow | undefined>;
  /** Triggers made from the template and not customized. */
  linkedTriggers(job: JobIdentity, assignment_cuid: string): Promise<LinkedTriggerRow[]>;
  updateTemplated(job: JobIdentity, trigger_cuid: string, fields: TemplatedFields): Promise<void>;
  /** Autocreate templates of the devices' entity types. */
  autocreateTemplatesFor(job: JobIdentity, entity_cuids: readonly string[]): Promise<string[]>;
  /** Devices of the template's entity type (of those given, when given) with a system and no trigger from the template. */
  devicesWithoutTrigger(
    job: JobIdentity,
    template: Pick<TemplateRow, 'assignment_cuid' | 'entitytype_id'>,
    entity_cuids?: readonly string[],
  ): Promise<DeviceRow[]>;
  /** Inserts the template's triggers, active, in the caller's transaction. */
  insertTemplated(
    job: JobIdentity,
    tx: EntityManager,
    template: Pick<TemplateRow, 'assignment_cuid' | 'severity_level' | 'message' | 'release_message'>,
    rows: readonly NewTemplatedTrigger[],
  ): Promise<void>;
}

@Injectable()
export class SqlAlertWriteHooksRepository implements AlertWriteHooksRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(_job: JobIdentity, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  async markCustomized(_job: JobIdentity, trigger_cuids: readonly string[]): Promise<void> {
    await this.ds.query(`UPDATE notification_trigger SET customized_at = now() WHERE trigger_cuid = ANY($1::varchar[]) AND assignment_cuid IS NOT NULL`, [
      trigger_cuids,
    ]);
  }

  async systemsOfTriggers(actor: Actor, trigger_cuids: readonly string[]): Promise<string[]> {
    const p = new SqlParams([[...trigger_cuids]]);
    const rows = await this.ds.query<{ system_cuid: string }[]>(
      `SELECT DISTINCT s.system_cuid FROM notification_trigger t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.trigger_cuid = ANY($1::varchar[]) AND ${visibleSystemSql(actor, p, 's')}`,
      p.values,
    );
    return rows.map((r) => String(r.system_cuid));
  }

  systemVisible(actor: Actor, system_cuid: string): Promise<boolean> {
    return systemVisibleTo(actor, this.ds, system_cuid);
  }

  async controllerInSystem(_job: JobIdentity, controller_id: string, system_cuid: string): Promise<boolean> {
    const rows = await this.ds.query<unknown[]>(`SELECT 1 FROM controller WHERE controller_id = $1 AND system_cuid = $2`, [controller_id, system_cuid]);
    return rows.length > 0;
  }

  async deviceTypeInSystem(_job: JobIdentity, entity_cuid: string, system_cuid: string): Promise<string | undefined> {
    const [device] = await this.ds.query<{ entitytype_id: string }[]>(`SELECT entitytype_id FROM entity WHERE entity_cuid = $1 AND system_cuid = $2`, [
      entity_cuid,
      system_cuid,
    ]);
    return device ? String(device.entitytype_id) : undefined;
  }

  async typeLogsParameter(_job: JobIdentity, entitytype_id: string, parameter_id: string): Promise<boolean> {
    const rows = await this.ds.query<unknown[]>(`SELECT 1 FROM entity_type_log_parameter_assignment WHERE entitytype_id = $1 AND parameter_id = $2`, [
      entitytype_id,
      parameter_id,
    ]);
    return rows.length > 0;
  }

  async restartJudgement(_job: JobIdentity, trigger_cuids: readonly string[]): Promise<void> {
    await this.ds.query(
      `UPDATE notification_trigger_status SET pending_state = NULL, pending_since = NULL, next_execution = now(), next_execution_trigger = 'TIMER'
        WHERE trigger_cuid = ANY($1::varchar[])`,
      [trigger_cuids],
    );
  }

  async entityTypesOfTemplates(_job: JobIdentity, assignment_cuids: readonly string[]): Promise<string[]> {
    const rows = await this.ds.query<{ entitytype_id: string }[]>(
      `SELECT DISTINCT entitytype_id FROM notification_template_assignment WHERE assignment_cuid = ANY($1::varchar[])`,
      [assignment_cuids],
    );
    return rows.map((r) => String(r.entitytype_id));
  }

  async templates(_job: JobIdentity, assignment_cuids: readonly string[]): Promise<TemplateRow[]> {
    return await this.ds.query<TemplateRow[]>(`SELECT * FROM notification_template_assignment WHERE assignment_cuid = ANY($1::varchar[])`, [assignment_cuids]);
  }

  async template(_job: JobIdentity, assignment_cuid: string): Promise<TemplateRow | undefined> {
    const [tpl] = await this.ds.query<TemplateRow[]>(`SELECT * FROM notification_template_assignment WHERE assignment_cuid = $1`, [assignment_cuid]);
    return tpl;
  }

  async linkedTriggers(_job: JobIdentity, assignment_cuid: string): Promise<LinkedTriggerRow[]> {
    return await this.ds.query<LinkedTriggerRow[]>(
      `SELECT t.trigger_cuid, t.args, e.name AS device FROM notification_trigger t LEFT JOIN entity e ON e.entity_cuid = t.args->>'entity_cuid'
        WHERE t.assignment_cuid = $1 AND t.customized_at IS NULL`,
      [assignment_cuid],
    );
  }

  async updateTemplated(_job: JobIdentity, trigger_cuid: string, f: TemplatedFields): Promise<void> {
    await this.ds.query(
      `UPDATE notification_trigger SET name = $2, message = $3, release_message = $4, severity_level = $5, args = $6::jsonb WHERE trigger_cuid = $1`,
      [trigger_cuid, f.name, f.message, f.release_message, f.severity_level, JSON.stringify(f.args)],
    );
  }

  async autocreateTemplatesFor(_job: JobIdentity, entity_cuids: readonly string[]): Promise<string[]> {
    const rows = await this.ds.query<{ assignment_cuid: string }[]>(
      `SELECT DISTINCT a.assignment_cuid FROM notification_template_assignment a JOIN entity e ON e.entitytype_id = a.entitytype_id
        WHERE a.autocreate_triggers AND e.entity_cuid = ANY($1::varchar[])`,
      [entity_cuids],
    );
    return rows.map((r) => String(r.assignment_cuid));
  }

  async devicesWithoutTrigger(
    _job: JobIdentity,
    template: Pick<TemplateRow, 'assignment_cuid' | 'entitytype_id'>,
    entity_cuids?: readonly string[],
  ): Promise<DeviceRow[]> {
    return await this.ds.query<DeviceRow[]>(
      `SELECT e.entity_cuid, e.name, e.system_cuid FROM entity e
        WHERE ($3::varchar[] IS NULL OR e.entity_cuid = ANY($3::varchar[])) AND e.entitytype_id = $1 AND e.system_cuid IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM notification_trigger t WHERE t.assignment_cuid = $2 AND t.args->>'entity_cuid' = e.entity_cuid)`,
      [template.entitytype_id, template.assignment_cuid, entity_cuids ?? null],
    );
  }

  async insertTemplated(
    _job: JobIdentity,
    tx: EntityManager,
    tpl: Pick<TemplateRow, 'assignment_cuid' | 'severity_level' | 'message' | 'release_message'>,
    rows: readonly NewTemplatedTrigger[],
  ): Promise<void> {
    await tx.query(
      `INSERT INTO notification_trigger (trigger_cuid, is_active, severity_level, args, name, message, release_message, system_cuid, assignment_cuid, charged_company_cuid)
       SELECT u.id, TRUE, $1::notification_severity, u.args::jsonb, u.name, $2, $3, u.system_cuid, $4, u.charged
         FROM unnest($5::varchar[], $6::text[], $7::varchar[], $8::varchar[], $9::varchar[]) AS u(id, args, name, system_cuid, charged)`,
      [
        tpl.severity_level,
        tpl.message,
        tpl.release_message,
        tpl.assignment_cuid,
        rows.map((r) => r.trigger_cuid),
        rows.map((r) => JSON.stringify(r.args)),
        rows.map((r) => r.name),
        rows.map((r) => r.system_cuid),
        rows.map((r) => r.charged_company_cuid),
      ],
    );
  }
}
