import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { SystemJob } from '../../common/system-job';
import { DATA_SOURCE } from '../../database/database.module';
import { withPgTransaction } from '../../database/pg-transaction';
import { type AutomaticChangelogEntry, writeAutomaticChangelog } from '../../systems/automatic-changelog';
import type { CommandTx } from './commands.repository';

/** A stored command row with what toasts and the changelog need. */
export interface CommandRow {
  command_id: string;
  controller_id: string;
  system_cuid: string | null;
  kind: string;
  payload: Record<string, unknown>;
  status: string;
  requested_by: string | null;
  requested_at: Date;
  not_after: Date;
  message: string | null;
}

/** A command claimed for delivery (marked SENT). */
export interface ClaimedCommand {
  command_id: string;
  controller_id: string;
  kind: string;
  payload: Record<string, unknown>;
  not_after: Date;
  requested_at: Date;
}

/** A controller's name, declared commands and time zone (toasts and changelog titles). */
export interface ControllerInfo {
  name: string;
  commands: unknown;
  timezone: string | null;
}

/** The columns of CommandRow (alias `t` or none). */
export const COMMAND_ROW_COLUMNS = `command_id, controller_id, system_cuid, kind, payload, status::text AS status, requested_by, requested_at, not_after, message`;

/** The rows of a query through the data source ([rows]) or a pooled client ({ rows }). */
const rowsOf = <T>(res: unknown): T[] => (Array.isArray(res) ? res : ((res as { rows?: T[] }).rows ?? [])) as T[];

/**
 * The SQL of delivering commands and ending the unanswered ones (docs/control.md, *Commands*): the
 * claims (row locks, SKIP LOCKED, so several instances never hand the same command over at once),
 * the hand-backs, the EXPIRED / TIMEOUT sweeps and what their toasts and changelog entries read.
 * The worker's statements take its job identity first; a controller fetching its own commands
 * takes that controller.
 */
@Injectable()
export class CommandQueueRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(work: (tx: CommandTx) => Promise<T>): Promise<T> {
    return withPgTransaction(this.ds, work);
  }

  /**
   * Claims the PENDING commands of these controllers — and their SENT ones with `again` — that are
   * still valid, oldest first, at most `limit`, and marks them SENT, in one short transaction.
   */
  async claim(_job: SystemJob, controllers: string[], again: boolean, limit: number): Promise<ClaimedCommand[]> {
    if (!controllers.length) return [];
    return this.transaction(async (c) => {
      const { rows } = await c.query(
        `WITH picked AS (
           SELECT command_id FROM controller_command
            WHERE controller_id = ANY($1::varchar[]) AND status IN ('PENDING', ${again ? `'SENT'` : `'PENDING'`}) AND not_after > now()
            ORDER BY requested_at, command_id
            LIMIT $2
            FOR UPDATE SKIP LOCKED)
         UPDATE controller_command t SET status = 'SENT', sent_at = now(), attempts = t.attempts + 1
           FROM picked WHERE t.command_id = picked.command_id
         RETURNING t.command_id, t.controller_id, t.kind, t.payload, t.not_after, t.requested_at`,
        [controllers, limit],
      );
      return rows as ClaimedCommand[];
    });
  }

  /** The controller fetches its own: PENDING and unanswered SENT commands still valid, oldest first, marked SENT. */
  async takeOwn(controller: { controller_id: string }, limit: number): Promise<Omit<ClaimedCommand, 'controller_id'>[]> {
    return this.transaction(async (c) => {
      const { rows } = await c.query(
        `WITH picked AS (
           SELECT command_id FROM controller_command
            WHERE controller_id = $1 AND status IN ('PENDING', 'SENT') AND not_after > now()
            ORDER BY requested_at, command_id LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE controller_command t SET status = 'SENT', sent_at = now(), attempts = t.attempts + 1
           FROM picked WHERE t.command_id = picked.command_id
         RETURNING t.command_id, t.kind, t.payload, t.not_after, t.requested_at`,
        [controller.controller_id, limit],
      );
      return rows as Omit<ClaimedCommand, 'controller_id'>[];
    });
  }

  /** Commands the broker refused go back to PENDING (the attempt does not count). */
  async release(_job: SystemJob, command_ids: string[]): Promise<void> {
    if (!command_ids.length) return;
    await this.ds.query(
      `UPDATE controller_command SET status = 'PENDING', attempts = greatest(attempts - 1, 0)
        WHERE command_id = ANY($1::varchar[]) AND status = 'SENT'`,
      [command_ids],
    );
  }

  /** Controllers with PENDING commands still valid (at most `limit`). */
  async waitingControllers(_job: SystemJob, limit: number): Promise<string[]> {
    const rows = await this.ds.query<{ controller_id: string }[]>(
      `SELECT DISTINCT controller_id FROM controller_command WHERE status = 'PENDING' AND not_after > now() LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.controller_id);
  }

  /** Whether the presence machine has the controller ONLINE or UNSTABLE. */
  async online(_job: SystemJob, controller_id: string): Promise<boolean> {
    const [row] = await this.ds.query<unknown[]>(`SELECT 1 FROM controller_online_state WHERE controller_id = $1 AND online_state IN ('ONLINE', 'UNSTABLE')`, [
      controller_id,
    ]);
    return !!row;
  }

  /** In the job's transaction: PENDING commands past their not_after become EXPIRED (at most `limit`, skipping locked ones). */
  async expireDue(_job: SystemJob, tx: CommandTx, limit: number): Promise<CommandRow[]> {
    const { rows } = await tx.query(
      `UPDATE controller_command t SET status = 'EXPIRED', finished_at = now(), message = 'Not delivered before its expiry'
        WHERE t.command_id IN (SELECT command_id FROM controller_command WHERE status = 'PENDING' AND not_after <= now()
                                LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING ${COMMAND_ROW_COLUMNS.replace('status::text AS status', "'EXPIRED' AS status")}`,
      [limit],
    );
    return rows as CommandRow[];
  }

  /** In the job's transaction: SENT commands unanswered for `seconds` become TIMEOUT with `message`. */
  async timeOutSent(_job: SystemJob, tx: CommandTx, seconds: number, message: string, limit: number): Promise<CommandRow[]> {
    const { rows } = await tx.query(
      `UPDATE controller_command t SET status = 'TIMEOUT', finished_at = now(), message = $1
        WHERE t.command_id IN (SELECT command_id FROM controller_command
                                WHERE status = 'SENT' AND sent_at <= now() - make_interval(secs => $2)
                                LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING ${COMMAND_ROW_COLUMNS.replace('status::text AS status', "'TIMEOUT' AS status")}`,
      [message, seconds, limit],
    );
    return rows as CommandRow[];
  }

  /** Name, declared commands and time zone of these controllers (in the job's transaction when given). */
  async controllerInfo(_job: SystemJob, ids: string[], tx?: CommandTx): Promise<(ControllerInfo & { controller_id: string })[]> {
    if (!ids.length) return [];
    const sql = `SELECT c.controller_id, c.name, ct.commands, s.timezone
         FROM controller c JOIN controller_type ct ON ct.controllertype_cuid = c.controllertype_cuid
         LEFT JOIN system s ON s.system_cuid = c.system_cuid
        WHERE c.controller_id = ANY($1::varchar[])`;
    return rowsOf<ControllerInfo & { controller_id: string }>(tx ? await tx.query(sql, [ids]) : await this.ds.query(sql, [ids]));
  }

  /** In the job's transaction: COMMAND entries in the systems' changelogs. */
  async writeChangelog(_job: SystemJob, tx: CommandTx, entries: AutomaticChangelogEntry[]): Promise<void> {
    await writeAutomaticChangelog(tx, entries);
  }
}
