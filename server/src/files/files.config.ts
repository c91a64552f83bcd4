import { join } from 'node:path';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Min } from 'class-validator';
import { defineSettings, toInt } from '../config/config';

/**
 * Hosted files: sizes, quotas, types and where the objects are kept (server/src/files).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class FilesSettings {
  /** Hosted files: largest upload in bytes (larger ones answer 413). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  FILES_MAX_BYTES = 10 * 1024 * 1024;

  /** Hosted files: bytes of all files one company holds (owned by it or uploaded into its share of a system); an upload past it answers 413. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  FILES_COMPANY_MAX_BYTES = 1024 * 1024 * 1024;

  /** Hosted files: uploads into one company per hour, all its users together; more answer 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  FILES_UPLOADS_PER_COMPANY_PER_HOUR = 200;

  /** Hosted files: uploads one user may have running at once on an instance (each is held in memory, at most FILES_MAX_BYTES); one more answers 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  FILES_UPLOADS_RUNNING_PER_USER = 2;

  /** Hosted files: content types accepted on upload, comma-separated (checked against the file's bytes). */
  @IsString()
  FILES_ALLOWED_TYPES = 'image/png,image/jpeg,image/webp,image/svg+xml,application/pdf,text/csv,text/plain,application/json';

  /** Hosted files on local disk (when FILES_S3_BUCKET is empty): the folder objects are written to; empty → <DATA_DIR>/files. */
  @IsString()
  FILES_DIR = '';

  /** Seconds between sweeps that remove the objects of files deleted with their company, system or domain; 0 → never. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  FILES_SWEEP_SECONDS = 600;

  /** Hosted files in an S3-compatible store instead of the disk when set. */
  @IsString()
  FILES_S3_BUCKET = '';

  /** Endpoint of an S3-compatible store (MinIO, R2 …); empty → AWS. Path-style addressing when set. */
  @IsString()
  FILES_S3_ENDPOINT = '';

  @IsString()
  FILES_S3_REGION = 'us-east-1';

  /** Credentials of the store; empty → the usual AWS environment / profile chain. */
  @IsString()
  FILES_S3_ACCESS_KEY_ID = '';

  @IsString()
  FILES_S3_SECRET_ACCESS_KEY = '';
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends FilesSettings {}
}

export const FILES_SETTINGS = defineSettings(FilesSettings, {
  finish: (config) => {
    if (!config.FILES_DIR) config.FILES_DIR = join(config.DATA_DIR, 'files');
  },
});
