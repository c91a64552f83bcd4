import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { defineSettings, toInt } from '../config/config';

/**
 * A system's state as the system list and the fleet overview compute it (systems/system-state.repository.ts).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class SystemsSettings {
  /** Fleet overview: the log parameter read as a system's battery state of charge (%). */
  @IsString()
  FLEET_SOC_PARAMETER = 'battery_soc';

  /** Fleet overview: a battery state of charge below this (%) puts a system on the attention list. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100)
  FLEET_LOW_SOC_PERCENT = 20;

  /** Fleet overview: minutes without new data after which a system counts as stale. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  FLEET_STALE_MINUTES = 60;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends SystemsSettings {}
}

export const SYSTEMS_SETTINGS = defineSettings(SystemsSettings);
