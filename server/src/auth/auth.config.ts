import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, MinLength } from 'class-validator';
import { defineSettings, emptyToUndefined, toInt } from '../config/config';

/**
 * Sign-in and sessions: the session key, login throttling, password changes (server/src/auth).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class AuthSettings {
  /**
   * Key material for the `liuc` cookie (authenticated encryption); at least 32 characters. Required
   * in production; elsewhere, when unset, a random key is generated into DATA_DIR (session-secret.ts).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters long' })
  SESSION_SECRET?: string;

  /** Login throttling: failures allowed per account and address before delays grow, and the 429 ceiling. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_FREE_ATTEMPTS = 5;

  /** Attempts at one account from one address per window (the owner at another address is not locked out by it). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_MAX_ATTEMPTS_PER_ACCOUNT = 10;

  /** Attempts at one account from all addresses together per window: the ceiling for guesses spread over many addresses. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL = 100;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS = 50;

  /** Window (seconds) over which login failures are counted. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_WINDOW_SECONDS = 900;

  /** Passwords one user may set (their own or others', user.create and user.update) per minute; more answer 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PASSWORD_CHANGES_PER_MINUTE = 10;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends AuthSettings {}
}

export const AUTH_SETTINGS = defineSettings(AuthSettings, {
  check: (config) => (config.isProduction && !config.SESSION_SECRET ? ['SESSION_SECRET is required in production (at least 32 characters)'] : []),
});
