import { Transform } from 'class-transformer';
import { IsInt, IsNumber, Min } from 'class-validator';
import { defineSettings, toInt } from '../config/config';

/**
 * Budgets: what one user, address, company or controller may spend (server/src/budgets, docs/security.md).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class BudgetsSettings {
  /** Mails (address verifications, invitations) one user may cause per hour; more answer 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAILS_PER_USER_PER_HOUR = 20;

  /** Mails (verifications, invitations, password resets) to one address per hour, counted per budget account causing them; more answer 429 (a reset: silently no mail). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAILS_PER_ADDRESS_PER_HOUR = 5;

  /** Mails (verifications, invitations) caused for one budget account (a root company and the companies made from it) per hour, by all its users; more answer 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAILS_PER_COMPANY_PER_HOUR = 100;

  /** Commands sent to one controller per minute (controllerCommand.send, controllerConfig.applyDifference); more answer 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  COMMANDS_PER_CONTROLLER_PER_MINUTE = 30;

  /** Budgets: tRPC calls one session may make per second, on average (a decimal allowed; each instance counts its own; a batch counts each call); past it 429 with Retry-After before any work. 0: no limit. */
  @Transform(toInt)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  REQUESTS_PER_SESSION_PER_SECOND = 20;

  /** Budgets: tRPC calls one session may make at once above REQUESTS_PER_SESSION_PER_SECOND (the bucket's size: a page opening many lists). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  REQUESTS_PER_SESSION_BURST = 200;

  /** Triggers charged to one budget account (created by actors acting from its companies); creating more is refused. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TRIGGERS_PER_COMPANY = 2000;

  /** Notification channels of the companies of one budget account; creating more is refused. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  CHANNELS_PER_COMPANY = 100;

  /** Data processors charged to one budget account (created by actors acting from its companies); creating more is refused. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PROCESSORS_PER_COMPANY = 2000;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends BudgetsSettings {}
}

export const BUDGETS_SETTINGS = defineSettings(BudgetsSettings);
