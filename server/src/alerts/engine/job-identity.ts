import type { SystemJob } from '../../common/system-job';

/**
 * Who a background job's repository call runs for, in place of a caller's scope. The alert engine
 * and the trigger write hooks act for the system, not for a user: they read and write triggers of
 * every company by key (the keys come from the active trigger index, or from a write the CRUD
 * layer has already checked), so the identity filters nothing. It names the job in every call, so
 * a repository signature reads "who, then what" like every other, and an unscoped statement says so.
 */
export interface JobIdentity extends SystemJob {
  readonly job: 'alert-engine' | 'alert-writes';
}

/** The trigger engine (evaluation on data, timer and state). */
export const ALERT_ENGINE_JOB: JobIdentity = Object.freeze({ job: 'alert-engine' });

/** The trigger write hooks (rule checks, template sync and autocreation after a checked CRUD write). */
export const ALERT_WRITES_JOB: JobIdentity = Object.freeze({ job: 'alert-writes' });
