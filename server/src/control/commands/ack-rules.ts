import type { TCommandAck } from '../../../../shared/controllers/command-wire';
import { CommandAckError } from '../../gateway/command-link';
import type { AckUpdate } from './command-acks.repository';
import type { CommandRow } from './command-queue.repository';
import type { AckOutcome } from './command-inbox';

/** One controller's answer in a batch. */
export interface BatchAck {
  controller_id: string;
  ack: TCommandAck;
}

/** What a batch of answers does, decided from the commands it locked. */
export interface AckDecision {
  /** Per answer, in batch order: recorded, already answered, or refused. */
  outcomes: (AckOutcome | CommandAckError)[];
  /** Commands that reached a final status now (`late`: the answer came after TIMEOUT / EXPIRED). */
  finished: (CommandRow & { late: boolean })[];
  updates: AckUpdate[];
  /** controller_id → the controller configuration it reported (JSON text). */
  reportedControllers: Map<string, string>;
  /** entity_cuid → the answering controller and the device configuration it reported (JSON text). */
  reportedDevices: Map<string, { controller_id: string; cfg: string }>;
}

/**
 * The rules of acknowledgements (docs/control.md, *Commands*): an answer to an id that is not a
 * command of the answering controller is refused (404); an answer to a command already answered
 * (SUCCESS / FAILURE) changes nothing; any other answer records its status — a late one too (after
 * TIMEOUT or EXPIRED) — with the configuration it reports. Later answers to the same id in the
 * batch see it answered. `locked` are the batch's commands as stored (changed in place).
 */
export function judgeAcks(batch: readonly BatchAck[], locked: CommandRow[]): AckDecision {
  const byKey = new Map(locked.map((r) => [`${r.command_id}\u0000${r.controller_id}`, r]));
  const out: AckDecision = { outcomes: [], finished: [], updates: [], reportedControllers: new Map(), reportedDevices: new Map() };
  for (const { controller_id, ack } of batch) {
    const row = byKey.get(`${ack.id}\u0000${controller_id}`);
    if (!row) {
      out.outcomes.push(new CommandAckError(404, 'NOT_FOUND', `No command '${ack.id}' for this controller`));
      continue;
    }
    if (row.status === 'SUCCESS' || row.status === 'FAILURE') {
      out.outcomes.push({ id: ack.id, recorded: false, status: row.status });
      continue;
    }
    const late = row.status === 'TIMEOUT' || row.status === 'EXPIRED';
    const message = ack.message ?? null;
    row.status = ack.status;
    row.message = message;
    out.updates.push({ id: ack.id, status: ack.status, message, applied: ack.applied_config ? JSON.stringify(ack.applied_config) : null });
    if (ack.applied_config?.controller) out.reportedControllers.set(controller_id, JSON.stringify(ack.applied_config.controller));
    for (const [key, cfg] of Object.entries(ack.applied_config?.devices ?? {})) out.reportedDevices.set(key, { controller_id, cfg: JSON.stringify(cfg) });
    out.finished.push({ ...row, late });
    out.outcomes.push({ id: ack.id, recorded: true, status: ack.status, late });
  }
  return out;
}
