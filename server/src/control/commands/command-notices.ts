import { commandActionResponse, type FINAL_COMMAND_STATUSES } from '../../../../shared/common/enums';
import { maskSecrets } from '../../common/secret-config';
import type { TCommandMessage } from '../../../../shared/controllers/command-wire';
import type { TToast } from '../../alerts/portal/portal.schema';
import type { AutomaticChangelogEntry } from '../../systems/automatic-changelog';
import { commandLabel, secretArgs } from './command-checks';
import type { ClaimedCommand, CommandRow, ControllerInfo } from './command-queue.repository';

/** Final statuses a worker round or an answer set, for the changelog and the FAILURE toasts. */
export type FinalStatus = (typeof FINAL_COMMAND_STATUSES)[number];

/** What a command's ACTION_RESPONSE toast says. */
export interface CommandNotice {
  command_id: string;
  controller_id: string;
  controller_name: string;
  label: string;
  status: 'PENDING' | FinalStatus;
  message: string;
  timezone: string | null;
}

/** The ACTION_RESPONSE toast of a command (PENDING when stored, then its final status). */
export function commandToast(t: CommandNotice, now: Date = new Date()): TToast {
  const actionResponse = commandActionResponse(t.status);
  return {
    id: t.command_id,
    type: 'ACTION_RESPONSE',
    title: `${t.label}: ${t.controller_name}`,
    message: t.message,
    severity: actionResponse === 'FAILURE' ? 'ERROR' : 'INFO',
    triggeredAt: { timestamp: now, timezone: t.timezone ?? 'UTC' },
    onClickTarget: `/controller/${encodeURIComponent(t.controller_id)}/show/commands`,
    actionResponse,
    command: { command_id: t.command_id, controller_id: t.controller_id, status: t.status },
  };
}

/** The toast of a command that reached a final status (TIMEOUT and EXPIRED show as FAILURE). */
export function finalNotice(r: CommandRow, info: ControllerInfo | undefined): CommandNotice {
  return {
    command_id: r.command_id,
    controller_id: r.controller_id,
    controller_name: info?.name ?? r.controller_id,
    label: commandLabel(r.kind, info?.commands),
    status: r.status as FinalStatus,
    message: r.message ?? (r.status === 'SUCCESS' ? 'Done' : 'Failed'),
    timezone: info?.timezone ?? null,
  };
}

/**
 * COMMAND changelog entries of commands that reached a final status (`late`: an answer after
 * TIMEOUT / EXPIRED); a command of a controller without system has none. Secret arguments masked.
 */
export function commandChangelog(rows: readonly (CommandRow & { late?: boolean })[], info: ReadonlyMap<string, ControllerInfo>): AutomaticChangelogEntry[] {
  const entries: AutomaticChangelogEntry[] = [];
  for (const r of rows) {
    if (!r.system_cuid) continue;
    const i = info.get(r.controller_id);
    const label = commandLabel(r.kind, i?.commands);
    entries.push({
      system_cuid: r.system_cuid,
      kind: 'COMMAND',
      title: `${label} on ${i?.name ?? r.controller_id}: ${r.status}${r.late ? ' (late answer)' : ''}`,
      message: [r.message, `Payload: ${JSON.stringify(maskSecrets(r.payload, secretArgs(r.kind, i?.commands))).slice(0, 2000)}`].filter(Boolean).join('\n'),
      user_cuid: r.requested_by,
      ref: r.command_id,
    });
  }
  return entries;
}

/** A stored command as the controller receives it. */
export function toMessage(r: Omit<ClaimedCommand, 'controller_id'>): TCommandMessage {
  return {
    id: r.command_id,
    kind: r.kind,
    payload: r.payload ?? {},
    not_after: new Date(r.not_after).toISOString(),
    requested_at: new Date(r.requested_at).toISOString(),
  };
}

/** Oldest request first (the order a controller runs them in). */
export const byRequestedAt = <T extends { requested_at: Date }>(rows: T[]): T[] =>
  rows.sort((a, b) => new Date(a.requested_at).getTime() - new Date(b.requested_at).getTime());
