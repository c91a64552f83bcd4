import { Transform } from 'class-transformer';
import { IsInt, Min } from 'class-validator';
import { defineSettings, toInt } from '../config/config';

/**
 * Control: commands to controllers (server/src/control, docs/controller-protocol.md "Commands").
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class ControlSettings {
  /** Seconds a SENT command waits for the controller's acknowledgement before it is TIMEOUT (a later ack is still recorded). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  COMMAND_ACK_TIMEOUT_SECONDS = 30;

  /** Default lifetime of a command (`not_after` = request + this) while its controller is away. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  COMMAND_DEFAULT_TTL_SECONDS = 3600;

  /** Longest `not_after` a caller may ask for, in seconds after the request. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  COMMAND_MAX_TTL_SECONDS = 7 * 86_400;

  /** Milliseconds between the command worker's rounds (deliver PENDING to reachable controllers, TIMEOUT, EXPIRED); 0 → no worker (tests drive it). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  COMMAND_POLL_MS = 1000;

  /** Seconds a re-entered password counts for dangerous commands (step-up, ASVS 5.0 7.5.3). */
  @Transform(toInt)
  @IsInt()
  @Min(30)
  STEP_UP_MAX_AGE_SECONDS = 300;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends ControlSettings {}
}

export const CONTROL_SETTINGS = defineSettings(ControlSettings);
