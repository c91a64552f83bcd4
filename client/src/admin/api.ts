import { useMutation, useQuery } from '@tanstack/react-query';
import { trpc } from '../trpc';

// The back office's calls beyond react-admin's data provider: a new API token (its secret comes
// back once) and the hosted files' upload limits.

export type AuthTokenInput = Parameters<typeof trpc.authToken.create.mutate>[0];

/** Creates an API token; the answer carries the secret, shown once. */
export function useCreateAuthToken() {
  return useMutation({ mutationFn: (input: AuthTokenInput) => trpc.authToken.create.mutate(input) });
}

/** The server's upload limits (size, accepted types), asked once the dialog opens and kept a minute. */
export function useHostedFileLimits(enabled: boolean) {
  return useQuery({ queryKey: ['hostedFile', 'limits'], queryFn: () => trpc.hostedFile.limits.query(), enabled, staleTime: 60_000 });
}
