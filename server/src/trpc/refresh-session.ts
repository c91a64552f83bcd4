import { TRPCError } from '@trpc/server';
import { setSessionCookie } from '../auth/cookies';
import type { TSessionContext } from '../auth/session.schema';
import type { SessionService } from '../auth/session.service';
import type { AuthedContext } from './context';

/**
 * After a user changes what their own session context holds (preferences, blacklists), seal the
 * fresh context into a new cookie on this answer, so the next session check carries it.
 */
export async function refreshSession(sessions: SessionService, ctx: AuthedContext): Promise<TSessionContext> {
  const refreshed = await sessions.refresh(ctx.session);
  if (!refreshed) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'The session has ended; sign in again' });
  setSessionCookie(ctx.req, ctx.res, refreshed.cookie);
  return refreshed.ctx;
}
