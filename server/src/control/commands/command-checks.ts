import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { actingCompany } from '../../access/acting-company';
import { type Actor, can, POLICY } from '../../../../shared/access/policy';
import { forbidden } from '../../common/errors';
import { ownEntry } from '../../../../shared/common/own-entry';
import {
  DANGEROUS_BUILT_INS,
  type TDeclaredCommand,
  ZApplyConfigPayload,
  ZDeclaredCommands,
  ZRestartPayload,
  ZSetParameterPayload,
} from '../../../../shared/controllers/command-wire';
import { fieldError, fieldErrors } from '../../common/field-error';
import type { Budgets } from '../../budgets/budgets.service';
import type { CommandsRepository } from './commands.repository';

/** What the checks read (CommandsRepository; an in-memory stand-in in unit tests). */
export type CommandCheckReads = Pick<CommandsRepository, 'entityKinds' | 'deviceType' | 'typeLogsParameter'>;

/** What send() checked: the payload to store and whether it needs a step-up. */
export interface CheckedCommand {
  payload: Record<string, unknown>;
  dangerous: boolean;
  /** A label for toasts and the changelog ("Restart", the declared label …). */
  label: string;
}

const BUILT_IN_LABELS: Record<string, string> = {
  apply_config: 'Apply configuration',
  set_parameter: 'Set parameter',
  restart: 'Restart',
};

/** A readable label for a command kind (declared label, built-in label, or the name itself). */
export function commandLabel(kind: string, declared: unknown): string {
  const builtIn = ownEntry(BUILT_IN_LABELS, kind);
  if (builtIn) return builtIn;
  return declaredCommands(declared).find((c) => c.name === kind)?.label ?? kind;
}

/** The arguments of a command kind its controller type declares secret (beside the secret-named keys: common/secret-config.ts). */
export function secretArgs(kind: string, declared: unknown): ReadonlySet<string> {
  return new Set(
    declaredCommands(declared)
      .find((c) => c.name === kind)
      ?.args.filter((a) => a.secret)
      .map((a) => a.name) ?? [],
  );
}

/** The commands a controller type declares; a stored list that does not parse declares none. */
export function declaredCommands(stored: unknown): TDeclaredCommand[] {
  const parsed = ZDeclaredCommands.safeParse(stored ?? []);
  return parsed.success ? parsed.data : [];
}

/** A zod failure of the payload, as field errors under `payload.…`. */
function payloadErrors(error: z.ZodError): TRPCError {
  return fieldErrors(error.issues.map((i) => ({ path: ['payload', ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], message: i.message })));
}

/**
 * Checks a command's kind and payload against the controller (its devices, its type's declared
 * commands) and the caller's rights on the data processors it configures. The controller's
 * budget is spent later, by spendCommandBudget in the storing transaction.
 */
export async function checkCommand(
  budgets: Pick<Budgets, 'assertCommandRoom'>,
  reads: CommandCheckReads,
  actor: Actor,
  controller: { controller_id: string; commands: unknown; company_cuid: string; shares: readonly { company_cuid: string; change: boolean }[] },
  kind: string,
  payload: Record<string, unknown>,
): Promise<CheckedCommand> {
  // A budget this instance already found spent refuses before any query.
  budgets.assertCommandRoom(controller.controller_id, commandActingCompany(actor, controller));
  return checkKindAndPayload(reads, actor, controller, kind, payload);
}

/** The company whose budget a command spends: the one the sender acts from (a partner with a change share: its own). */
const commandActingCompany = (actor: Actor, controller: { company_cuid: string; shares: readonly { company_cuid: string; change: boolean }[] }): string =>
  actingCompany(actor, POLICY['controllers.configure'].level, { company_cuid: controller.company_cuid, shares: controller.shares.filter((s) => s.change) });

/**
 * Inside the transaction that stores a command (after its insert succeeded): the command counts
 * against the controller's budget of the company the sender acts from (COMMANDS_PER_CONTROLLER_PER_MINUTE;
 * a partner with a change share has its own, so it cannot spend the owner's); past it TOO_MANY_REQUESTS
 * and the transaction rolls back. So a command refused by any check (payload, password, not_after,
 * a used id) spends nothing, and a refused spend stores nothing.
 */
export async function spendCommandBudget(
  budgets: Pick<Budgets, 'spendCommandIn'>,
  c: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> },
  actor: Actor,
  controller: { controller_id: string; company_cuid: string; shares: readonly { company_cuid: string; change: boolean }[] },
): Promise<void> {
  await budgets.spendCommandIn(async (sql, params) => (await c.query(sql, params)).rows, controller.controller_id, commandActingCompany(actor, controller));
}

async function checkKindAndPayload(
  reads: CommandCheckReads,
  actor: Actor,
  controller: { controller_id: string; commands: unknown; company_cuid: string; shares: readonly { company_cuid: string; change: boolean }[] },
  kind: string,
  payload: Record<string, unknown>,
): Promise<CheckedCommand> {
  switch (kind) {
    case 'apply_config': {
      const parsed = ZApplyConfigPayload.safeParse(payload);
      if (!parsed.success) throw payloadErrors(parsed.error);
      const keys = Object.keys(parsed.data.devices ?? {});
      if (keys.length) {
        const rows = await reads.entityKinds(actor, controller.controller_id, keys);
        const byKey = new Map(rows.map((r) => [r.entity_cuid, r.kind]));
        for (const key of keys) {
          const entityKind = byKey.get(key);
          if (entityKind === undefined) throw fieldError(['payload', 'devices', key], 'Device not found', 'NOT_FOUND');
          if (
            entityKind !== 'Device' &&
            !can(actor, 'dataProcessors.configure', { entity_type_kind: entityKind, company_cuid: controller.company_cuid, shares: controller.shares })
          ) {
            throw forbidden(entityKind === 'CalculatedValue' ? 'Configuring a calculated value needs level 0' : 'You may not configure this data processor');
          }
        }
      }
      return { payload: parsed.data, dangerous: false, label: BUILT_IN_LABELS.apply_config };
    }
    case 'set_parameter': {
      const parsed = ZSetParameterPayload.safeParse(payload);
      if (!parsed.success) throw payloadErrors(parsed.error);
      const entitytype_id = await reads.deviceType(actor, controller.controller_id, parsed.data.entity_cuid);
      if (!entitytype_id) throw fieldError(['payload', 'entity_cuid'], 'Device not found', 'NOT_FOUND');
      const logged = await reads.typeLogsParameter(actor, entitytype_id, parsed.data.parameter_id);
      if (!logged) throw fieldError(['payload', 'parameter_id'], 'This device type has no such parameter');
      return { payload: parsed.data, dangerous: false, label: BUILT_IN_LABELS.set_parameter };
    }
    case 'restart': {
      const parsed = ZRestartPayload.safeParse(payload);
      if (!parsed.success) throw payloadErrors(parsed.error);
      return { payload: parsed.data, dangerous: DANGEROUS_BUILT_INS.includes('restart'), label: BUILT_IN_LABELS.restart };
    }
  }
  const declared = declaredCommands(controller.commands).find((c) => c.name === kind);
  if (!declared) throw fieldError(['kind'], 'This controller does not take this command');
  return { payload: checkArgs(declared, payload), dangerous: declared.dangerous || DANGEROUS_BUILT_INS.includes(kind), label: declared.label ?? kind };
}

/** The arguments of a declared command: only declared ones, of their type, in their bounds. */
function checkArgs(declared: TDeclaredCommand, payload: Record<string, unknown>): Record<string, unknown> {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const names = new Set(declared.args.map((a) => a.name));
  for (const key of Object.keys(payload)) if (!names.has(key)) issues.push({ path: ['payload', key], message: 'This command takes no such argument' });
  const out: Record<string, unknown> = {};
  for (const arg of declared.args) {
    const value = ownEntry(payload, arg.name);
    const path = ['payload', arg.name];
    if (value === undefined || value === null || value === '') {
      if (arg.required) issues.push({ path, message: 'Required' });
      continue;
    }
    if (arg.type === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value)) issues.push({ path, message: 'A number' });
      else if (arg.min !== undefined && value < arg.min) issues.push({ path, message: `At least ${arg.min}` });
      else if (arg.max !== undefined && value > arg.max) issues.push({ path, message: `At most ${arg.max}` });
      else out[arg.name] = value;
    } else if (arg.type === 'boolean') {
      if (typeof value !== 'boolean') issues.push({ path, message: 'Yes or no' });
      else out[arg.name] = value;
    } else {
      if (typeof value !== 'string') issues.push({ path, message: 'A text' });
      else if (value.length > 1000) issues.push({ path, message: 'At most 1000 characters' });
      else if (arg.choices && !arg.choices.includes(value)) issues.push({ path, message: `One of: ${arg.choices.join(', ')}` });
      else out[arg.name] = value;
    }
  }
  if (issues.length) throw fieldErrors(issues);
  return out;
}
