import type { AuthProvider, UserIdentity } from 'ra-core';
import { LOGIN_PATH } from '../../shared/common/spec-constants';
import { actorOf, canAccessWith, permissionFor } from './permissions';
import { login } from './session/auth-api';
import type { SessionManager } from './session/session-manager';
import { httpStatusOf } from './trpc';

/**
 * react-admin's authProvider over the session manager (spec §4): checkAuth waits for the first
 * session check, logout always lands on /auth/login, and canAccess asks the shared policy.ts.
 */
export function createAuthProvider(manager: SessionManager): AuthProvider {
  const context = async () => {
    const state = await manager.whenSettled();
    return state.status === 'loaded' ? state.context : null;
  };

  return {
    async login(params: { email?: string; username?: string; password: string }) {
      const result = await login(params.email ?? params.username ?? '', params.password);
      if (!result.ok) throw new Error(result.failure.message);
      manager.replaceContext(result.context);
    },

    async logout() {
      const state = manager.getState();
      // Signed out by the session loop (401, inactive, failures): it already went to the login
      // page with the reason; react-admin must not navigate again.
      if (state.status === 'signedOut' && state.signOutReason !== 'SIGNED_OUT') return false;
      await manager.signOut();
      return LOGIN_PATH;
    },

    async checkAuth() {
      if (await context()) return;
      // The session manager has already sent the user to the login page with the reason.
      throw { redirectTo: LOGIN_PATH, message: false };
    },

    async checkError(error: unknown) {
      const status = httpStatusOf(error);
      // 401: the session is gone, sign out, unless a check made after this page's own writes have
      // answered says it holds (a write may have re-issued it meanwhile). 403: refused, but stay signed in.
      if (status === 401 && !(await manager.stillSignedIn())) throw { redirectTo: LOGIN_PATH, message: false };
      if (status === 403) throw { logoutUser: false, message: 'ra.notification.not_authorized' };
    },

    async getIdentity(): Promise<UserIdentity> {
      const ctx = await context();
      if (!ctx) throw new Error('Not signed in');
      return { id: ctx.user.user_cuid, fullName: ctx.user.name || ctx.user.email, email: ctx.user.email };
    },

    async getPermissions() {
      const ctx = await context();
      return ctx ? actorOf(ctx) : null;
    },

    async canAccess({ resource, action, record }: { resource: string; action: string; record?: unknown }) {
      const ctx = await context();
      const permission = permissionFor(resource, action);
      // With a record: the level held in the record's company, like the server.
      return !!ctx && !!permission && canAccessWith(actorOf(ctx), permission, record);
    },
  };
}
