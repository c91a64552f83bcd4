import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { defineSettings, toInt } from '../config/config';

/**
 * The operator's home: the fleet overview's cache and the map (server/src/fleet).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class FleetSettings {
  /** Fleet overview: milliseconds one computed overview is shared by callers who see the same systems at the same levels; 0 → computed on every call. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  OVERVIEW_CACHE_MS = 3000;

  /** Map: an XYZ tile server ({z}/{x}/{y}), online or self-hosted, drawn under the pins; empty → only the country borders that ship with the app. */
  @IsString()
  MAP_TILE_URL = '';

  /** Map: the attribution shown for MAP_TILE_URL's tiles (their licence usually requires it). */
  @IsString()
  MAP_TILE_ATTRIBUTION = '';
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends FleetSettings {}
}

export const FLEET_SETTINGS = defineSettings(FleetSettings);
