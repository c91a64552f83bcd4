/**
 * Who calls a repository method that no person's request started (ingest of a controller's
 * batch, a retention sweep, the simulator): a background job, by name. Such a method takes it
 * first where a request's method takes the caller's scope, so every repository method still says
 * on whose behalf it runs; the job's own checks (a controller's token, a schedule) were made before.
 */
export interface SystemJob {
  readonly job: string;
}

export const systemJob = (job: string): SystemJob => Object.freeze({ job });
