import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { defineSettings, emptyToUndefined, toBool, toInt } from '../config/config';

/**
 * The database and its preparation at start: connection, pool, migrations, demo data and the initial
 * superuser (server/src/database, server/src/seed).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class DatabaseSettings {
  /** PostgreSQL connection string; unset → embedded PGlite in DATA_DIR. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  DATABASE_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /** Seed the demo companies, users and catalogue. Default: on for the embedded database only. */
  @Transform(toBool)
  @IsOptional()
  @IsBoolean()
  SEED_DEMO?: boolean;

  /** Run pending migrations at start. */
  @Transform(toBool)
  @IsBoolean()
  MIGRATE_ON_START = true;

  /** Initial superuser created at start when no user exists (production has no default account). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsEmail()
  INITIAL_SUPERUSER_EMAIL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(12, { message: 'INITIAL_SUPERUSER_PASSWORD must be at least 12 characters long' })
  INITIAL_SUPERUSER_PASSWORD?: string;

  /** Company the initial superuser belongs to. */
  @IsString()
  @MinLength(1)
  INITIAL_COMPANY_NAME = 'Portal Operator';
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends DatabaseSettings {}
}

export const DATABASE_SETTINGS = defineSettings(DatabaseSettings, {
  check: (config) =>
    Boolean(config.INITIAL_SUPERUSER_EMAIL) !== Boolean(config.INITIAL_SUPERUSER_PASSWORD)
      ? ['INITIAL_SUPERUSER_EMAIL and INITIAL_SUPERUSER_PASSWORD must be set together']
      : [],
});
