import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { SystemJob } from '../../common/system-job';
import { DATA_SOURCE } from '../../database/database.module';
import { withPgTransaction } from '../../database/pg-transaction';
import { COMMAND_ROW_COLUMNS, type CommandRow } from './command-queue.repository';
import type { CommandTx } from './commands.repository';

/** One answer to record: the command's new status, message and applied configuration (JSON text). */
export interface AckUpdate {
  id: string;
  status: string;
  message: string | null;
  applied: string | null;
}

/**
 * The SQL of a batch of controllers' acknowledgements (ack-rules.ts decides, this writes), all in
 * the batch's transaction: the commands locked in id order, the answers in one UPDATE … FROM unnest,
 * the reported configurations of controllers and devices. Each command is matched to the
 * controller that answered, so an answer never reaches another controller's command or devices.
 */
@Injectable()
export class CommandAcksRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(work: (tx: CommandTx) => Promise<T>): Promise<T> {
    return withPgTransaction(this.ds, work);
  }

  /** Locks (id order) the commands these (command id, controller) pairs name; a pair that does not match is left out. */
  async lockCommands(_job: SystemJob, tx: CommandTx, keys: readonly { id: string; controller_id: string }[]): Promise<CommandRow[]> {
    const { rows } = await tx.query(
      `SELECT ${COMMAND_ROW_COLUMNS} FROM controller_command t
         JOIN unnest($1::varchar[], $2::varchar[]) AS k(id, ctrl) ON t.command_id = k.id AND t.controller_id = k.ctrl
        ORDER BY t.command_id FOR UPDATE OF t`,
      [keys.map((k) => k.id), keys.map((k) => k.controller_id)],
    );
    return rows as CommandRow[];
  }

  /** Records the answers (acked and finished now). */
  async recordAnswers(_job: SystemJob, tx: CommandTx, updates: readonly AckUpdate[]): Promise<void> {
    if (!updates.length) return;
    await tx.query(
      `UPDATE controller_command t SET status = u.status::controller_command_status, acked_at = now(), finished_at = now(), message = u.message, applied_config = u.applied::jsonb
         FROM unnest($1::varchar[], $2::text[], $3::text[], $4::text[]) AS u(id, status, message, applied)
        WHERE t.command_id = u.id`,
      [updates.map((u) => u.id), updates.map((u) => u.status), updates.map((u) => u.message), updates.map((u) => u.applied)],
    );
  }

  /**
   * What controllers said they run (controller_id → JSON text). The rows are locked in key order
   * first, so two instances' batches that report the same controllers queue instead of deadlocking.
   */
  async writeReportedControllers(_job: SystemJob, tx: CommandTx, reported: ReadonlyMap<string, string>): Promise<void> {
    if (!reported.size) return;
    await tx.query(`SELECT 1 FROM controller WHERE controller_id = ANY($1::varchar[]) ORDER BY controller_id FOR UPDATE`, [[...reported.keys()]]);
    await tx.query(
      `UPDATE controller c SET reported_config = d.cfg::jsonb, reported_at = now()
         FROM unnest($1::varchar[], $2::text[]) AS d(id, cfg) WHERE c.controller_id = d.id`,
      [[...reported.keys()], [...reported.values()]],
    );
  }

  /** What devices run (entity_cuid → the answering controller and JSON text): only devices of that controller change. Locked in key order first. */
  async writeReportedDevices(_job: SystemJob, tx: CommandTx, reported: ReadonlyMap<string, { controller_id: string; cfg: string }>): Promise<void> {
    if (!reported.size) return;
    const list = [...reported];
    await tx.query(`SELECT 1 FROM entity WHERE entity_cuid = ANY($1::varchar[]) ORDER BY entity_cuid FOR UPDATE`, [list.map(([k]) => k)]);
    await tx.query(
      `UPDATE entity e SET reported_config = d.cfg::jsonb, reported_at = now()
         FROM unnest($1::varchar[], $2::varchar[], $3::text[]) AS d(key, ctrl, cfg)
        WHERE e.entity_cuid = d.key AND e.controller_id = d.ctrl`,
      [list.map(([k]) => k), list.map(([, v]) => v.controller_id), list.map(([, v]) => v.cfg)],
    );
  }
}
