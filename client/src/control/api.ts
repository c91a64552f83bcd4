import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useGetList } from 'react-admin';
import type { TCommandRecord, TControllerConfig } from '../../../server/src/control/commands/commands.schema';
import type { TDeclaredCommand } from '../../../shared/controllers/command-wire';
import { commandQueries, controllerConfigKey, invalidate } from '../toasts/live-events';
import { trpc } from '../trpc';

export type { TCommandRecord, TControllerConfig, TDeclaredCommand };
export type TConfigTarget = TControllerConfig['targets'][number];

export interface SendInput {
  controller_id: string;
  kind: string;
  payload: Record<string, unknown>;
  id: string;
  password?: string;
}
export interface ApplyInput {
  controller_id: string;
  only?: string[];
  id: string;
}

// The control procedures (controllerCommand.send, controllerConfig.get / applyDifference:
// server/src/control/commands/commands.schema.ts) and react-admin's controllerCommand list.

/** How many of a controller's commands the list shows (newest first). */
export const COMMANDS_SHOWN = 50;

/** A controller's latest commands, newest first (controllerCommand.getList filtered by controller_id). */
export function useControllerCommands(controllerId: string) {
  return useGetList<TCommandRecord & { id: string }>('controllerCommand', {
    filter: { controller_id: controllerId },
    sort: { field: 'requested_at', order: 'DESC' },
    pagination: { page: 1, perPage: COMMANDS_SHOWN },
  });
}

/** The query key of a controller's configuration (desired against reported). */
export const configQueryKey = controllerConfigKey;

/** A controller's configuration: per target, the desired and the reported one. */
export function useControllerConfig(controllerId: string) {
  return useQuery({ queryKey: configQueryKey(controllerId), queryFn: () => trpc.controllerConfig.get.query({ controller_id: controllerId }) });
}

/** Sends a command (controllerCommand.send); the answer is its record. */
export function useSendCommand() {
  return useMutation({ mutationFn: (input: SendInput) => trpc.controllerCommand.send.mutate(input) });
}

/** Applies the configuration's differences (all, or `only` some targets); the answer is the apply_config command's record. */
export function useApplyControllerConfig() {
  return useMutation({ mutationFn: (input: ApplyInput) => trpc.controllerConfig.applyDifference.mutate(input) });
}

/**
 * Marks a controller's command lists and configuration stale through the query client (the same
 * queries a live event about one of its commands invalidates, toasts/live-events.ts).
 */
export function useInvalidateCommandData(): (controllerId: string) => Promise<void> {
  const queryClient = useQueryClient();
  return (controllerId) => invalidate(queryClient, commandQueries(controllerId));
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A new command id (the idempotency key, 24 characters like the portal's cuids). The screen keeps
 * it for the retries of one request, so a repeated click or a step-up re-send never runs it twice.
 */
export function newCommandId(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  // 252 = 7 × 36: values above it would favour the first letters; they are drawn again.
  let out = '';
  while (out.length < 24) {
    for (const b of bytes) if (b < 252 && out.length < 24) out += ID_ALPHABET[b % 36];
    crypto.getRandomValues(bytes);
  }
  return out;
}

/** The server asks for the password again (step-up for a dangerous command): PRECONDITION_FAILED with data.stepUp. */
export function needsStepUp(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const data = (error.data ?? {}) as { code?: string; httpStatus?: number; stepUp?: boolean };
  return (data.code === 'PRECONDITION_FAILED' || data.httpStatus === 412) && data.stepUp === true;
}

/** Field errors of a failed call, by path ('password', 'payload.value' …). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const list = ((error.data ?? {}) as { fieldErrors?: { path: string; message: string }[] }).fieldErrors ?? [];
  return Object.fromEntries(list.map((f) => [f.path, f.message]));
}

/** Statuses that end a command. */
export const FINISHED_STATUSES = ['SUCCESS', 'FAILURE', 'TIMEOUT', 'EXPIRED'] as const;

/** The colour of a status chip: PENDING grey, SENT blue, SUCCESS green, FAILURE / TIMEOUT / EXPIRED red. */
export function statusColour(status: string): 'default' | 'info' | 'success' | 'error' {
  if (status === 'SENT') return 'info';
  if (status === 'SUCCESS') return 'success';
  if (status === 'FAILURE' || status === 'TIMEOUT' || status === 'EXPIRED') return 'error';
  return 'default';
}

/** Where a toast about a command leads: the controller's commands tab. */
export const commandsTabOf = (controllerId: string) => `/controller/${encodeURIComponent(controllerId)}/show/commands`;
export const configurationTabOf = (controllerId: string) => `/controller/${encodeURIComponent(controllerId)}/show/configuration`;
