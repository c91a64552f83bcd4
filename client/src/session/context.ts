import type { TSessionContext } from './auth-api';

/** Spec §4: loaded once user, memberships, both blacklists and the superuser flag are known. */
export function isCompleteContext(ctx: unknown): ctx is TSessionContext {
  const c = ctx as Partial<TSessionContext> | null;
  return (
    !!c &&
    !!c.user &&
    typeof c.user.user_cuid === 'string' &&
    Array.isArray(c.memberships) &&
    Array.isArray(c.notificationBlacklist) &&
    Array.isArray(c.portalNotificationBlacklist) &&
    typeof c.isSuperUser === 'boolean'
  );
}
