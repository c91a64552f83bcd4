import { useMutation } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { trpc } from '../trpc';

// The preferences page's calls: the toast preferences (the answer is the new session context)
// and a password change.

export type ToastPreferencesInput = Parameters<typeof trpc.user.updatePreferences.mutate>[0];

/** Saves the user's preferences; the answer is the session context to put in place. */
export function useUpdatePreferences() {
  return useMutation({ mutationFn: (input: ToastPreferencesInput) => trpc.user.updatePreferences.mutate(input) });
}

/** account.changePassword: this session goes on, the others end. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { current_password: string; new_password: string }) => trpc.account.changePassword.mutate(input),
  });
}

/** The server's field errors of a failed call (tRPC error data), by field path. */
export function fieldErrorsOf<Field extends string>(error: unknown): Partial<Record<Field, string>> {
  if (!(error instanceof TRPCClientError)) return {};
  const list = (error.data as { fieldErrors?: { path: string; message: string }[] } | undefined)?.fieldErrors ?? [];
  return Object.fromEntries(list.map((f) => [f.path, f.message])) as Partial<Record<Field, string>>;
}
