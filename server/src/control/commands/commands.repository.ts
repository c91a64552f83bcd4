import { Inject, Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../../../shared/access/policy';
import { DATA_SOURCE } from '../../database/database.module';
import { withPgTransaction } from '../../database/pg-transaction';
import { SqlParams } from '../../database/sql-params';
import { systemSharesSql, visibleCompanySql } from '../../tenancy/visibility';
import type { TCommandRecord } from './commands.schema';

/** A transaction the caller opened (CommandsRepository.transaction): statements that must commit together take it explicitly. */
export type CommandTx = Pick<PoolClient, 'query'>;

/** The columns of a command as the back office reads it (alias `t` = controller_command). */
export const COMMAND_RECORD_SELECT = `t.command_id AS id, t.command_id, t.controller_id,
  (SELECT c.name FROM controller c WHERE c.controller_id = t.controller_id) AS controller_name,
  t.company_cuid, t.system_cuid, t.kind, t.payload, t.dangerous, t.status::text AS status, t.requested_by,
  (SELECT u.name FROM "user" u WHERE u.user_cuid = t.requested_by) AS requester_name,
  t.requested_at, t.not_after, t.sent_at, t.attempts, t.finished_at, t.acked_at, t.message, t.applied_config`;

/** A controller as send() sees it. */
export interface CommandController {
  controller_id: string;
  name: string;
  company_cuid: string;
  system_cuid: string | null;
  config: Record<string, unknown>;
  reported_config: Record<string, unknown> | null;
  reported_at: Date | null;
  commands: unknown;
  shares: { company_cuid: string; change: boolean }[];
  timezone: string | null;
}

/** A device or data processor of a controller, as the configuration view reads it. */
export interface ConfigEntityRow {
  entity_cuid: string;
  name: string;
  entitytype_id: string;
  config: Record<string, unknown> | null;
  reported_config: Record<string, unknown> | null;
  reported_at: Date | null;
  kind: string;
}

/** A new command, as send() stores it (PENDING, requested now by the caller). */
export interface NewCommand {
  command_id: string;
  controller_id: string;
  company_cuid: string;
  system_cuid: string | null;
  kind: string;
  payload: Record<string, unknown>;
  dangerous: boolean;
  not_after: Date;
}

/** The controller of a command, visible to the caller: its company is one of theirs (a superuser: any). */
function visibleController(actor: Actor, p: SqlParams, c = 'c'): string {
  return visibleCompanySql(actor, p, `${c}.company_cuid`);
}

/**
 * The SQL of sending commands and reading them back (docs/control.md, *Commands*): the controller a
 * caller may command, the stored command, the desired configuration an apply_config rewrites, the
 * devices and parameters the checks look up. Caller first; reads by id that say "unscoped" are on
 * purpose (the command id space is shared: a used id is a conflict whoever used it).
 */
@Injectable()
export class CommandsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** One short transaction on a pooled connection (database/pg-transaction.ts). */
  transaction<T>(work: (tx: CommandTx) => Promise<T>): Promise<T> {
    return withPgTransaction(this.ds, work);
  }

  /** The controller with its type's declared commands and its system's shares, if the caller sees it. */
  async visibleController(actor: Actor, controller_id: string): Promise<CommandController | undefined> {
    const p = new SqlParams([controller_id]);
    const [row] = await this.ds.query<CommandController[]>(
      `SELECT c.controller_id, c.name, c.company_cuid, c.system_cuid, c.config, c.reported_config, c.reported_at, ct.commands,
              CASE WHEN s.system_cuid IS NULL THEN '[]'::json ELSE ${systemSharesSql('s')} END AS shares, s.timezone
         FROM controller c
         JOIN controller_type ct ON ct.controllertype_cuid = c.controllertype_cuid
         LEFT JOIN system s ON s.system_cuid = c.system_cuid
        WHERE c.controller_id = $1 AND ${visibleController(actor, p)}`,
      p.values,
    );
    return row;
  }

  /** Unscoped (ids are one space for everybody; the service decides what a foreign one means): the command by id. */
  async record(_actor: Actor, command_id: string): Promise<TCommandRecord | undefined> {
    const [row] = await this.ds.query<TCommandRecord[]>(`SELECT ${COMMAND_RECORD_SELECT} FROM controller_command t WHERE t.command_id = $1`, [command_id]);
    return row;
  }

  /** The latest apply_config of a controller the caller sees. */
  async lastApply(actor: Actor, controller_id: string): Promise<TCommandRecord | undefined> {
    const p = new SqlParams([controller_id]);
    const [row] = await this.ds.query<TCommandRecord[]>(
      `SELECT ${COMMAND_RECORD_SELECT} FROM controller_command t
        WHERE t.controller_id = $1 AND t.kind = 'apply_config'
          AND EXISTS (SELECT 1 FROM controller c WHERE c.controller_id = t.controller_id AND ${visibleController(actor, p)})
        ORDER BY t.requested_at DESC LIMIT 1`,
      p.values,
    );
    return row;
  }

  /** Devices and data processors of a controller the caller sees (devices first, then by name). */
  async configEntities(actor: Actor, controller_id: string): Promise<ConfigEntityRow[]> {
    const p = new SqlParams([controller_id]);
    return await this.ds.query<ConfigEntityRow[]>(
      `SELECT e.entity_cuid, e.name, e.entitytype_id, e.config, e.reported_config, e.reported_at, et.entity_type::text AS kind
         FROM entity e JOIN entity_type et ON et.entitytype_id = e.entitytype_id
         JOIN controller c ON c.controller_id = e.controller_id
        WHERE e.controller_id = $1 AND ${visibleController(actor, p)}
        ORDER BY (et.entity_type::text <> 'Device'), e.name, e.entity_cuid`,
      p.values,
    );
  }

  /** Kinds (entity_type) of these entities of a controller the caller sees; an entity not on it is missing. */
  async entityKinds(actor: Actor, controller_id: string, entity_cuids: string[]): Promise<{ entity_cuid: string; kind: string }[]> {
    const p = new SqlParams([controller_id, entity_cuids]);
    return await this.ds.query<{ entity_cuid: string; kind: string }[]>(
      `SELECT e.entity_cuid, et.entity_type::text AS kind
         FROM entity e JOIN entity_type et ON et.entitytype_id = e.entitytype_id
         JOIN controller c ON c.controller_id = e.controller_id
        WHERE e.controller_id = $1 AND e.entity_cuid = ANY($2::varchar[]) AND ${visibleController(actor, p)}`,
      p.values,
    );
  }

  /** The type of a device of a controller the caller sees, else undefined. */
  async deviceType(actor: Actor, controller_id: string, entity_cuid: string): Promise<string | undefined> {
    const p = new SqlParams([controller_id, entity_cuid]);
    const [device] = await this.ds.query<{ entitytype_id: string }[]>(
      `SELECT e.entitytype_id FROM entity e JOIN controller c ON c.controller_id = e.controller_id
        WHERE e.controller_id = $1 AND e.entity_cuid = $2 AND ${visibleController(actor, p)}`,
      p.values,
    );
    return device?.entitytype_id;
  }

  /** Unscoped (the catalogue is everybody's): whether a device type logs this parameter. */
  async typeLogsParameter(_actor: Actor, entitytype_id: string, parameter_id: string): Promise<boolean> {
    const [logged] = await this.ds.query<unknown[]>(`SELECT 1 FROM entity_type_log_parameter_assignment WHERE entitytype_id = $1 AND parameter_id = $2`, [
      entitytype_id,
      parameter_id,
    ]);
    return !!logged;
  }

  /**
   * In the caller's transaction: locks the controller's row before an apply_config's insert, whose
   * foreign key takes a share lock on it (two such sends at once would otherwise deadlock).
   */
  async lockController(_actor: Actor, tx: CommandTx, controller_id: string): Promise<void> {
    await tx.query(`SELECT 1 FROM controller WHERE controller_id = $1 FOR UPDATE`, [controller_id]);
  }

  /** In the caller's transaction: stores a PENDING command requested by the caller; false when the id is taken. */
  async insert(actor: Actor, tx: CommandTx, c: NewCommand): Promise<boolean> {
    const { rowCount } = await tx.query(
      `INSERT INTO controller_command (command_id, controller_id, company_cuid, system_cuid, kind, payload, dangerous, status, requested_by, requested_at, not_after)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, 'PENDING', $8, now(), $9)
       ON CONFLICT (command_id) DO NOTHING RETURNING command_id`,
      [c.command_id, c.controller_id, c.company_cuid, c.system_cuid, c.kind, JSON.stringify(c.payload), c.dangerous, actor.user_cuid, c.not_after],
    );
    return !!rowCount;
  }

  /** In the caller's transaction: the desired configuration of the controller, locked; undefined when it is gone. */
  async lockControllerConfig(_actor: Actor, tx: CommandTx, controller_id: string): Promise<{ config: Record<string, unknown> | null } | undefined> {
    const { rows } = await tx.query(`SELECT config FROM controller WHERE controller_id = $1 FOR UPDATE`, [controller_id]);
    return rows[0] as { config: Record<string, unknown> | null } | undefined;
  }

  async writeControllerConfig(_actor: Actor, tx: CommandTx, controller_id: string, config: Record<string, unknown>): Promise<void> {
    await tx.query(`UPDATE controller SET config = $2::jsonb WHERE controller_id = $1`, [controller_id, JSON.stringify(config)]);
  }

  /** In the caller's transaction: the desired configuration of a device of this controller, locked; undefined when it is not on it. */
  async lockDeviceConfig(
    _actor: Actor,
    tx: CommandTx,
    controller_id: string,
    entity_cuid: string,
  ): Promise<{ config: Record<string, unknown> | null } | undefined> {
    const { rows } = await tx.query(`SELECT config FROM entity WHERE entity_cuid = $1 AND controller_id = $2 FOR UPDATE`, [entity_cuid, controller_id]);
    return rows[0] as { config: Record<string, unknown> | null } | undefined;
  }

  async writeDeviceConfig(_actor: Actor, tx: CommandTx, entity_cuid: string, config: Record<string, unknown>): Promise<void> {
    await tx.query(`UPDATE entity SET config = $2::jsonb WHERE entity_cuid = $1`, [entity_cuid, JSON.stringify(config)]);
  }
}
