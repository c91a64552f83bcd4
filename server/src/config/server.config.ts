import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { defineSettings, emptyToUndefined, toBool, toInt } from './config';

/**
 * The server process and its HTTP front: environment, address, instance name, data folder, proxies,
 * public address, the browser app's folder and the log level. They belong to no domain: every layer
 * may read them.
 *
 * Read from the environment once at start and validated with every other domain's settings
 * (api/app-config.ts); each one is documented in README.md with its default.
 */
export class ServerSettings {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /**
   * This instance's name among several (the `instance` label of /metrics, the log prefix); unset →
   * `<hostname>:<pid>`. Set it per replica (a, b… or the container's name) so an operator can tell
   * which one is behind.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9_.:-]{1,64}$/)
  INSTANCE_NAME?: string;

  /** Folder of the embedded database (and, later, local files). */
  @IsString()
  DATA_DIR = './data';

  /** Public origin(s) allowed to send mutations, comma-separated; empty → same host as the request. */
  @IsString()
  ALLOWED_ORIGINS = '';

  /** Trust X-Forwarded-* from a reverse proxy (for HTTPS detection and client addresses). */
  @Transform(toBool)
  @IsBoolean()
  TRUST_PROXY = false;

  /**
   * With TRUST_PROXY: how many proxies stand in front (each appends to X-Forwarded-For). The client
   * address is the one the outermost of them saw, never an entry the client wrote itself.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10)
  TRUST_PROXY_HOPS = 1;

  /** The portal's address as users reach it, for links in messages (no trailing slash); empty → http://localhost:<PORT>. */
  @IsString()
  PUBLIC_URL = '';

  /** Directory of the built browser app. Default: dist/client when built, else client/public (a placeholder page). */
  @IsOptional()
  @IsString()
  @Transform(emptyToUndefined)
  CLIENT_DIR?: string;

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';
}

declare module './config' {
  // Every setting is a property of the one AppConfig the modules are given.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppConfig extends ServerSettings {}
}

export const SERVER_SETTINGS = defineSettings(ServerSettings);
