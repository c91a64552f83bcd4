import { trpc } from '../trpc';

/** Every role with its level (role.all), which the session manager loads after sign-in to read permissions. */
export const fetchRoles = () => trpc.role.all.query();
