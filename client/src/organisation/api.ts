import { useMutation } from '@tanstack/react-query';
import { trpc } from '../trpc';

// Users' calls beyond react-admin's data provider: create (with or without an invitation),
// deactivate / reactivate, and sending an invitation again.

/** A new user from the form's values (the server validates them); the answer says whether an invitation mail went out. */
export function useCreateUser() {
  return useMutation({ mutationFn: (values: Record<string, unknown>) => trpc.user.create.mutate({ data: values as never }) });
}

/** Deactivates (`active: false`) or reactivates a user. */
export function useSetUserActive() {
  return useMutation({
    mutationFn: ({ user_cuid, active }: { user_cuid: string; active: boolean }) =>
      active ? trpc.user.reactivate.mutate({ user_cuid }) : trpc.user.deactivate.mutate({ user_cuid }),
  });
}

/** Mails an invited user their link again; the answer says whether it went out. */
export function useResendInvitation() {
  return useMutation({ mutationFn: (user_cuid: string) => trpc.account.resendInvitation.mutate({ user_cuid }) });
}
