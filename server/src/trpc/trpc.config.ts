import { Transform } from 'class-transformer';
import { IsInt, Min } from 'class-validator';
import { defineSettings, toInt } from '../config/config';

/**
 * The tRPC endpoint (server/src/trpc, server/src/api).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class TrpcSettings {
  /** Most calls one batched tRPC request may hold; larger batches answer 413 before any call runs. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TRPC_MAX_BATCH_SIZE = 50;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends TrpcSettings {}
}

export const TRPC_SETTINGS = defineSettings(TrpcSettings);
