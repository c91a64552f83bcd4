import { Transform } from 'class-transformer';
import { IsInt, Min } from 'class-validator';
import { defineSettings, toInt } from '../../config/config';

/**
 * Live events: the streams (SSE) users hold open (server/src/alerts/portal).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class LiveEventsSettings {
  /** Live event streams (SSE) one user may hold open on one instance; a new one closes the oldest. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LIVE_STREAMS_PER_USER = 5;

  /** Seconds between checks that an open live stream's session is still valid (signed out, deactivated, password changed → the stream ends). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LIVE_SESSION_CHECK_SECONDS = 15;
}

declare module '../../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends LiveEventsSettings {}
}

export const LIVE_EVENTS_SETTINGS = defineSettings(LiveEventsSettings);
