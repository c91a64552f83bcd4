import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../shared/access/policy';
import type { TSessionPayload } from '../auth/session.schema';

/** Who is calling a procedure: a signed-in person, or nobody. */
export interface TrpcContext {
  req: FastifyRequest;
  res: FastifyReply;
  /** The signed-in user as the policy sees them; undefined without a valid session. */
  actor?: Actor;
  session?: TSessionPayload;
  /** Set when the session cookie was present but failed; the answer deletes it. */
  sessionFailure?: string;
  /** Re-issues this request's session at `epoch` after the caller's own change (see keepOwnSession). */
  renewSession?: (epoch: number) => Promise<void>;
}

/** A context with a signed-in user, as procedures behind the policy middleware receive it. */
export interface AuthedContext extends TrpcContext {
  actor: Actor;
  session: TSessionPayload;
}
