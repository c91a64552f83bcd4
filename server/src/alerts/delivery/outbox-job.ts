import { newCuid } from '../../common/ids';
import type { SystemJob } from '../../common/system-job';

/**
 * Who the outbox's SQL runs for: no user, the outbox job of one instance (docs/alerts.md, "The
 * outbox"). Its repositories take it first, where a request's repository takes the caller's scope:
 * the job works across companies on purpose, and its tenancy rules (which channels and which users
 * see an alarm) are in the queries themselves.
 */
export interface OutboxJob extends SystemJob {
  readonly job: 'alert-outbox';
  /** This instance's worker (for logs and tests; claims carry their own round token). */
  readonly instance: string;
}

export const outboxJob = (instance = newCuid()): OutboxJob => ({ job: 'alert-outbox', instance });
