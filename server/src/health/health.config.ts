import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { defineSettings, emptyToUndefined, toInt } from '../config/config';

/**
 * Health, metrics and a graceful stop (server/src/health, docs/metrics.md).
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class HealthSettings {
  /**
   * Bearer token for GET /metrics (docs/metrics.md). Set → /metrics needs `Authorization: Bearer
   * <token>` from anywhere (401 without it). Unset → /metrics answers only requests made directly
   * (no X-Forwarded-For / Forwarded header) from a loopback or private address (403 otherwise).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters long' })
  METRICS_TOKEN?: string;

  /**
   * On SIGTERM/SIGINT: seconds the instance keeps serving with /api/health/ready answering 503
   * ("draining") before it stops taking connections, so a load balancer takes it out first. Set
   * it above the balancer's check interval × fall count (HAProxy `inter 500ms fall 2` → 2).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300)
  SHUTDOWN_DRAIN_SECONDS = 0;
}

declare module '../config/config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends HealthSettings {}
}

export const HEALTH_SETTINGS = defineSettings(HealthSettings);
