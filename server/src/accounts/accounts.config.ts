import { Transform } from 'class-transformer';
import { IsInt, Min } from 'class-validator';
import { defineSettings, toInt } from '../config/config';

/**
 * Accounts people recover on their own: invitations and password resets (server/src/accounts).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class AccountsSettings {
  /** Accounts: hours an invitation link (set your own password) stays valid. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  INVITATION_TTL_HOURS = 72;

  /** Accounts: minutes a password reset link stays valid. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RESET_TTL_MINUTES = 30;

  /** Accounts: "forgot password" requests for one address per hour; past it the answer is the same but no mail goes out. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RESET_REQUESTS_PER_HOUR = 3;

  /** Accounts: "forgot password" requests from one client address per hour (any email); past it no mail goes out. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 20;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends AccountsSettings {}
}

export const ACCOUNTS_SETTINGS = defineSettings(AccountsSettings);
