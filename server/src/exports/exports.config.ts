import { join } from 'node:path';
import { Transform } from 'class-transformer';
import { IsInt, IsNumber, IsString, Max, Min } from 'class-validator';
import { defineSettings, toInt } from '../config/config';

/**
 * Data exports: files, jobs, schedules, streams and how hard they may work (server/src/exports).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class ExportsSettings {
  /** Data exports: the folder finished export files are written to; empty → <DATA_DIR>/exports. */
  @IsString()
  EXPORT_DIR = '';

  /** Data exports: hours a finished export file stays downloadable before the sweep removes it. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_RETENTION_HOURS = 72;

  /** Data exports: longest range (days) one export may cover. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_MAX_RANGE_DAYS = 400;

  /** Data exports: milliseconds between the export worker's rounds (background jobs, scheduled exports, sweeps); 0 → no worker (tests drive it). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  EXPORT_POLL_MS = 2000;

  /** Data exports: jobs one instance runs at once; keep it above EXPORT_COMPANY_MAX_RUNNING so one company never holds every slot. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(32)
  EXPORT_WORKER_CONCURRENCY = 3;

  /** Data exports: jobs one user may have running at once (the worker starts a user's next job when one ends). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_USER_MAX_RUNNING = 1;

  /** Data exports: jobs one user may have waiting (QUEUED); one more is refused with 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_USER_MAX_QUEUED = 3;

  /** Data exports: jobs charged to one budget account (a root company and the companies made from it) running at once (across every instance). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_COMPANY_MAX_RUNNING = 2;

  /** Data exports: jobs charged to one budget account waiting (QUEUED, scheduled ones included); one more a user starts is refused with 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_COMPANY_MAX_QUEUED = 10;

  /** Data exports: scheduled templates charged to one company (its actors set their schedules); one more is refused with 400. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_SCHEDULES_PER_COMPANY = 50;

  /** Data exports: streamed exports (GET /api/exports/stream) one user may have open at once on one instance; one more answers 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_USER_MAX_STREAMS = 2;

  /** Data exports: largest export, in column-days (days × columns; an hourly day counts 1/12, a daily one 1/288), for jobs and streams alike. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_MAX_COLUMN_DAYS = 4000;

  /** Data exports: milliseconds one read of an export (one chunk of rows) may take on PostgreSQL before it is cancelled (statement_timeout). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  EXPORT_STATEMENT_TIMEOUT_MS = 30_000;

  /** Data exports: most rows one read of an export returns (the time window shrinks to stay under it); smaller chunks let other requests in sooner on the embedded database. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(100_000)
  EXPORT_CHUNK_ROWS = 5000;

  /** Data exports: the nice value (0–19) a long export's thread takes (Linux); it then gives way to requests, ingest and short exports when the cores are busy. 0 leaves it as is. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(19)
  EXPORT_THREAD_NICE = 10;

  /** Data exports: rows after which an export counts as long and its thread drops to EXPORT_THREAD_NICE (0: every export from its first chunk). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  EXPORT_BACKGROUND_AFTER_ROWS = 50_000;

  /** Data exports (PostgreSQL): while the event loop is busier than this (0–1), a long export waits twice its last chunk's time (at most 1 s) before the next; 0: never. */
  @Transform(toInt)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  EXPORT_BACKGROUND_BUSY = 0.5;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends ExportsSettings {}
}

export const EXPORTS_SETTINGS = defineSettings(ExportsSettings, {
  finish: (config) => {
    if (!config.EXPORT_DIR) config.EXPORT_DIR = join(config.DATA_DIR, 'exports');
  },
});
