import 'reflect-metadata';
import { join } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase());
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Every setting of the portal, read from the environment once at start and validated.
 * Each one is documented in README.md with its default.
 */
export class AppConfig {
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

  /** Folder of the embedded database (and, later, local files). */
  @IsString()
  DATA_DIR = './data';

  /**
   * Key material for the `liuc` cookie (authenticated encryption); at least 32 characters. Required
   * in production; elsewhere, when unset, a random key is generated into DATA_DIR (session-secret.ts).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters long' })
  SESSION_SECRET?: string;

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

  /** Brand owner name when no RootDomain/Domain matches the request's host (title: "<name> Portal"). */
  @IsString()
  @MinLength(1)
  BRAND_OWNER_NAME = 'Energy';

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

  /** Most calls one batched tRPC request may hold; larger batches answer 413 before any call runs. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TRPC_MAX_BATCH_SIZE = 50;

  /** Passwords one user may set (their own or others', user.create and user.update) per minute; more answer 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PASSWORD_CHANGES_PER_MINUTE = 10;

  /** Live event streams (SSE) one user may hold open on one instance; a new one closes the oldest. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LIVE_STREAMS_PER_USER = 5;

  /** Seconds between checks that an open live stream's session is still valid (signed out, deactivated, password changed → the stream ends). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LIVE_SESSION_CHECK_SECONDS = 15;

  // ---- Alerts: the outbox worker (server/src/alerts/delivery, docs/alerts.md, "The outbox") ----

  /** Deliver alert events at all (off: events stay PENDING; benches compare with it off). */
  @Transform(toBool)
  @IsBoolean()
  ALERTS_DELIVERY_ENABLED = true;

  /** Failed sends of one alert to one channel before it is ARCHIVED with the reason. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_MAX_ATTEMPTS = 6;

  /** First retry after this many ms; each later one waits twice as long … */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_BACKOFF_BASE_MS = 5_000;

  /** … up to this many ms. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_BACKOFF_MAX_MS = 600_000;

  /** "Wait" answers (429 retry_after) one delivery may get before it is ARCHIVED; they do not count as failed attempts. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_MAX_DEFERRALS = 30;

  /**
   * A claimed (SENDING) event or delivery not finished within this many seconds is claimed again (its
   * instance died). A delivery's holder renews it every third of this while it works: only an
   * instance silent for a whole lease loses its deliveries.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_LEASE_SECONDS = 60;

  /** Poll interval (ms) of the worker; it also wakes on the engine's signal and, on PostgreSQL, on LISTEN. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  ALERTS_DELIVERY_POLL_MS = 2_000;

  /** Events and deliveries one worker claims at once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_BATCH = 200;

  /** Channels one worker sends to at the same time. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_DELIVERY_CONCURRENCY = 16;

  /** A channel's alerts wait this many ms (from the first one) so a burst goes out as one message. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_GROUP_WINDOW_MS = 2_000;

  /** From this many alerts for one channel in one window, they go out as one grouped message. */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  ALERTS_GROUP_MIN = 3;

  /** Most alerts in one grouped message (more make several messages). */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  ALERTS_GROUP_MAX = 100;

  /** Days finished deliveries (SENT / ARCHIVED per channel) are kept; 0 → forever. The Notification and NotificationChannelToNotification rows stay. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_DELIVERY_KEEP_DAYS = 30;

  /** Alarm toasts only for events whose device time is at most this many seconds old (backfill raises none). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_LIVE_WINDOW_SECONDS = 900;

  /** Window (seconds) over which login failures are counted. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_WINDOW_SECONDS = 900;

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

  // ---- Alerts: the trigger engine (server/src/alerts/engine, docs/alerts.md, "The trigger engine") ----
  /** Milliseconds between the engine timer's claims of due triggers (no_data, offline, pending durations); 0 → no timer (tests drive it). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_TIMER_INTERVAL_MS = 1000;

  /** Due triggers one timer claim takes (FOR UPDATE SKIP LOCKED LIMIT n; the rest wait for the next claim or another instance). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERTS_TIMER_BATCH = 200;

  /** Ingested values waiting for evaluation, at most; past it the values are dropped and their triggers re-read the stored values instead. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  ALERTS_QUEUE_MAX_ROWS = 500_000;

  /** Seconds between checks whether triggers were changed by another instance (the index is then reloaded); 0 → never. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERTS_INDEX_CHECK_SECONDS = 5;
  // ---- Control: commands to controllers (server/src/control, docs/controller-protocol.md "Commands") ----
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

  // ---- The operator's home: fleet overview, map, data exports (server/src/fleet, server/src/exports)

  /** Fleet overview: milliseconds one computed overview is shared by callers who see the same systems at the same levels; 0 → computed on every call. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  OVERVIEW_CACHE_MS = 3000;

  /** Fleet overview: the log parameter read as a system's battery state of charge (%). */
  @IsString()
  FLEET_SOC_PARAMETER = 'battery_soc';

  /** Fleet overview: a battery state of charge below this (%) puts a system on the attention list. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100)
  FLEET_LOW_SOC_PERCENT = 20;

  /** Fleet overview: minutes without new data after which a system counts as stale. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  FLEET_STALE_MINUTES = 60;

  /** Map: an XYZ tile server ({z}/{x}/{y}), online or self-hosted, drawn under the pins; empty → only the country borders that ship with the app. */
  @IsString()
  MAP_TILE_URL = '';

  /** Map: the attribution shown for MAP_TILE_URL's tiles (their licence usually requires it). */
  @IsString()
  MAP_TILE_ATTRIBUTION = '';

  /** Data exports: the folder finished export files are written to; empty → <DATA_DIR>/exports. */
  @IsString()
  EXPORT_DIR = '';

  /** Data exports: hours a finished export file stays downloadable before the sweep removes it. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_RETENTION_HOURS = 72;

  /** Data exports: longest range (days) one export may cover. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_MAX_RANGE_DAYS = 400;

  /** Data exports: milliseconds between the export worker's rounds (background jobs, scheduled exports, sweeps); 0 → no worker (tests drive it). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  EXPORT_POLL_MS = 2000;

  /** Data exports: jobs one instance runs at once; keep it above EXPORT_COMPANY_MAX_RUNNING so one company never holds every slot. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(32)
  EXPORT_WORKER_CONCURRENCY = 3;

  /** Data exports: jobs one user may have running at once (the worker starts a user's next job when one ends). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_USER_MAX_RUNNING = 1;

  /** Data exports: jobs one user may have waiting (QUEUED); one more is refused with 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_USER_MAX_QUEUED = 3;

  /** Data exports: jobs charged to one budget account (a root company and the companies made from it) running at once (across every instance). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_COMPANY_MAX_RUNNING = 2;

  /** Data exports: jobs charged to one budget account waiting (QUEUED, scheduled ones included); one more a user starts is refused with 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_COMPANY_MAX_QUEUED = 10;

  /** Data exports: scheduled templates charged to one company (its actors set their schedules); one more is refused with 400. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_SCHEDULES_PER_COMPANY = 50;

  /** Data exports: streamed exports (GET /api/exports/stream) one user may have open at once on one instance; one more answers 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_USER_MAX_STREAMS = 2;

  /** Data exports: largest export, in column-days (days × columns; an hourly day counts 1/12, a daily one 1/288), for jobs and streams alike. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_MAX_COLUMN_DAYS = 4000;

  /** Data exports: milliseconds one read of an export (one chunk of rows) may take on PostgreSQL before it is cancelled (statement_timeout). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  EXPORT_STATEMENT_TIMEOUT_MS = 30_000;

  /** Data exports: most rows one read of an export returns (the time window shrinks to stay under it); smaller chunks let other requests in sooner on the embedded database. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(100_000)
  EXPORT_CHUNK_ROWS = 5000;

  /** Data exports: the nice value (0–19) a long export's thread takes (Linux); it then gives way to requests, ingest and short exports when the cores are busy. 0 leaves it as is. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(19)
  EXPORT_THREAD_NICE = 10;

  /** Data exports: rows after which an export counts as long and its thread drops to EXPORT_THREAD_NICE (0: every export from its first chunk). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  EXPORT_BACKGROUND_AFTER_ROWS = 50_000;

  /** Data exports (PostgreSQL): while the event loop is busier than this (0–1), a long export waits twice its last chunk's time (at most 1 s) before the next; 0: never. */
  @Transform(toInt)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  EXPORT_BACKGROUND_BUSY = 0.5;

  // ---- Alert channels (email, Telegram, Discord: server/src/alerts/channels) -------------------

  /** Email: the SMTP server (smtp://user:pass@host:587, smtps://…:465); empty → mails are written as .eml files under <DATA_DIR>/mail. */
  @IsString()
  SMTP_URL = '';

  /** Email: the sender of alert and verification mails. */
  @IsString()
  MAIL_FROM = 'Energy portal <alerts@portal.invalid>';

  /** The portal's address as users reach it, for links in messages (no trailing slash); empty → http://localhost:<PORT>. */
  @IsString()
  PUBLIC_URL = '';

  /** Email: seconds an address verification link stays valid. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  EMAIL_VERIFY_TTL_SECONDS = 48 * 3600;

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

  // ---- Budgets: what one user, address, company or controller may spend (server/src/budgets, docs/security.md) ----

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

  /** Telegram: the bot's token from BotFather; empty → Telegram channels are not offered. A secret: never logged. */
  @IsString()
  TELEGRAM_BOT_TOKEN = '';

  /** Telegram: the Bot API's address (a local Bot API server or a test peer may stand in). */
  @IsString()
  TELEGRAM_API_URL = 'https://api.telegram.org';

  /** Telegram: seconds one getUpdates long poll waits for the bot's next message. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(50)
  TELEGRAM_POLL_SECONDS = 25;

  /** Discord: hosts (host or host:port) a webhook URL may point at, comma-separated; nothing else is ever requested. */
  @IsString()
  DISCORD_WEBHOOK_HOSTS = 'discord.com,discordapp.com,canary.discord.com,ptb.discord.com';

  /** Alert channels: milliseconds one request to Telegram, Discord or the SMTP server may take. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  CHANNEL_HTTP_TIMEOUT_MS = 10_000;

  /** Directory of the built browser app. Default: dist/client when built, else client/public (a placeholder page). */
  @IsOptional()
  @IsString()
  @Transform(emptyToUndefined)
  CLIENT_DIR?: string;

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  /** The environment these settings were read from (module-specific settings read it too). */
  declare readonly env: Readonly<Record<string, string | undefined>>;

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }

  get embedded(): boolean {
    return !this.DATABASE_URL;
  }

  get seedDemo(): boolean {
    return this.SEED_DEMO ?? this.embedded;
  }

  /** The session key; ensureSessionSecret() provides one when the setting is empty. There is no built-in key. */
  get sessionSecret(): string {
    if (!this.SESSION_SECRET) throw new ConfigError('No session key: set SESSION_SECRET (or call ensureSessionSecret)');
    return this.SESSION_SECRET;
  }
}

export class ConfigError extends Error {}

/** Reads and validates the settings; throws a ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const picked: Record<string, unknown> = {};
  for (const key of [...known, 'DATABASE_URL', 'SESSION_SECRET', 'SEED_DEMO', 'INITIAL_SUPERUSER_EMAIL', 'INITIAL_SUPERUSER_PASSWORD']) {
    if (env[key] !== undefined) picked[key] = env[key];
  }
  const config = plainToInstance(AppConfig, picked, { exposeDefaultValues: true });
  const problems = validateSync(config, { skipMissingProperties: false }).flatMap((e) => Object.values(e.constraints ?? {}));
  if (config.isProduction && !config.SESSION_SECRET) {
    problems.push('SESSION_SECRET is required in production (at least 32 characters)');
  }
  if (Boolean(config.INITIAL_SUPERUSER_EMAIL) !== Boolean(config.INITIAL_SUPERUSER_PASSWORD)) {
    problems.push('INITIAL_SUPERUSER_EMAIL and INITIAL_SUPERUSER_PASSWORD must be set together');
  }
  if (problems.length) throw new ConfigError(`Invalid settings:\n - ${problems.join('\n - ')}`);
  if (!config.FILES_DIR) config.FILES_DIR = join(config.DATA_DIR, 'files');
  if (!config.EXPORT_DIR) config.EXPORT_DIR = join(config.DATA_DIR, 'exports');
  Object.defineProperty(config, 'env', { value: { ...env }, enumerable: false });
  return config;
}
