import { IsString, MinLength } from 'class-validator';
import { defineSettings } from '../config/config';

/**
 * Branding (server/src/branding).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class BrandingSettings {
  /** Brand owner name when no RootDomain/Domain matches the request's host (title: "<name> Portal"). */
  @IsString()
  @MinLength(1)
  BRAND_OWNER_NAME = 'Energy';
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends BrandingSettings {}
}

export const BRANDING_SETTINGS = defineSettings(BrandingSettings);
