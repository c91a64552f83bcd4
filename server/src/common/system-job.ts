/**
 * Who a statement runs for when no user asked for it: a background job of this process (a worker
 * round, the acknowledgement batches of many controllers, a presence sweep). Repositories take the
 * caller first; a background method takes the job's identity there instead, so the call says
 * plainly that it reaches every company's rows on purpose. A job that needs more (the outbox's
 * instance, the Telegram loop's lease owner) extends this one type rather than inventing its own.
 */
export interface SystemJob {
  readonly job: string;
}

/** A system job by name (e.g. `systemJob('commands.worker')`). */
export const systemJob = (job: string): SystemJob => Object.freeze({ job });
