import { hostname } from 'node:os';
import { z } from 'zod';

/**
 * Every setting of telemetry, ingest, the MQTT broker, online state and the simulator.
 *
 * Read from the environment in this one place (`loadTelemetrySettings`) and handed to the module
 * as a typed object (`TELEMETRY_SETTINGS`). Names, defaults and meanings are listed in
 * docs/controller-protocol.md ("Settings").
 */
export const TELEMETRY_SETTINGS = Symbol('TELEMETRY_SETTINGS');

const int = (min: number, max: number, fallback: number) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer between ${min} and ${max}` });
        return z.NEVER;
      }
      return n;
    });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const bool = (fallback: boolean | undefined) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())));

const ZEnv = z.object({
  MQTT_URL: optionalText.refine((v) => v === undefined || /^(mqtts?|wss?|tcp|ssl):\/\//.test(v), {
    message: 'must be an mqtt://, mqtts://, tcp://, ssl://, ws:// or wss:// URL',
  }),
  MQTT_USERNAME: optionalText,
  MQTT_PASSWORD: optionalText,
  MQTT_CLIENT_ID: optionalText,
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('portal'),
  MQTT_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/)
    .default('portal/v1'),
  MQTT_RECEIVE_MAXIMUM: int(1, 65535, 500),
  MQTT_SESSION_EXPIRY_SECONDS: int(60, 4_294_967_295, 7 * 86_400),
  MQTT_LEAVE_ON_STOP: bool(false),
  MQTT_PORT: int(0, 65535, 1883),
  MQTT_HOST: z.string().min(1).default('0.0.0.0'),
  MQTT_CONNECT_TIMEOUT_SECONDS: int(1, 300, 10),
  MQTT_MAX_CONNECT_BYTES: int(256, 1024 * 1024, 8192),
  MQTT_MAX_CONNECTIONS_PER_ADDRESS: int(1, 1_000_000, 100),
  MQTT_MAX_CONNECTIONS: int(1, 1_000_000, 10_000),
  MQTT_MEMBER_LEASE_SECONDS: int(0, 3600, 15),
  MQTT_SESSION_QUEUE_MAX_MESSAGES: int(1, 1_000_000, 1000),
  MQTT_SESSION_QUEUE_MAX_BYTES: int(1024, 1024 * 1024 * 1024, 1024 * 1024),
  MQTT_MAX_INFLIGHT: int(1, 65535, 100),
  MQTT_SESSIONS_PER_CONTROLLER: int(1, 1000, 4),
  MQTT_SESSION_QUEUE_TOTAL_BYTES: int(1024, 16 * 1024 * 1024 * 1024, 64 * 1024 * 1024),

  TELEMETRY_BATCH_MAX_ROWS: int(1, 100_000, 5000),
  TELEMETRY_BATCH_MAX_WAIT_MS: int(0, 10_000, 50),
  TELEMETRY_FLUSH_CONCURRENCY: int(1, 16, 2),
  TELEMETRY_MAX_ROWS_PER_MESSAGE: int(1, 100_000, 10_000),
  TELEMETRY_MAX_BODY_BYTES: int(1024, 64 * 1024 * 1024, 4 * 1024 * 1024),
  TELEMETRY_MAX_BACKFILL_DAYS: int(1, 3650, 31),
  TELEMETRY_MAX_FUTURE_SECONDS: int(0, 86_400, 300),
  TELEMETRY_CACHE_TTL_MS: int(0, 3_600_000, 30_000),
  TELEMETRY_RETENTION_RAW_DAYS: int(0, 36_500, 400),
  TELEMETRY_RETENTION_5M_DAYS: int(0, 36_500, 800),
  TELEMETRY_RETENTION_1H_DAYS: int(0, 36_500, 3650),
  TELEMETRY_RETENTION_1D_DAYS: int(0, 36_500, 0),
  TELEMETRY_RETENTION_INTERVAL_MINUTES: int(0, 10_080, 60),

  ONLINE_HEARTBEAT_SECONDS: int(1, 86_400, 30),
  ONLINE_OFFLINE_AFTER_SECONDS: int(1, 86_400, 90),
  ONLINE_DROPOUT_GAP_SECONDS: int(1, 86_400, 45),
  ONLINE_FLAP_WINDOW_SECONDS: int(1, 604_800, 900),
  ONLINE_FLAP_THRESHOLD: int(1, 1000, 3),
  ONLINE_STABLE_AFTER_SECONDS: int(0, 604_800, 600),
  ONLINE_SWEEP_SECONDS: int(0, 3600, 5),

  SIMULATOR: bool(undefined),
  SIMULATOR_INTERVAL_SECONDS: int(1, 3600, 10),
  SIMULATOR_BACKFILL_HOURS: int(0, 24 * 31, 24),
});

export interface TelemetrySettings {
  mqtt: {
    /** External broker; undefined → the in-process broker (aedes) on `port`. */
    url?: string;
    username?: string;
    password?: string;
    /** Stable id of this instance's persistent session at the external broker. */
    clientId: string;
    shareGroup: string;
    /**
     * Seconds this instance's lease on its session lasts without renewal; a member silent a lease
     * longer has its session retired by another instance (mqtt-members.worker.ts). 0 = never.
     */
    memberLeaseSeconds: number;
    /** This instance's name (INSTANCE_NAME, else host:pid): the lease's owner or adopter. */
    instance: string;
    topicPrefix: string;
    /** QoS 1 deliveries the external broker may have in flight to this instance (back-pressure). */
    receiveMaximum: number;
    /**
     * How long the external broker keeps this instance's session while it is away: its share of the
     * deliveries (in flight and queued) waits there for the same client id, and is lost after it.
     */
    sessionExpirySeconds: number;
    /**
     * On a graceful stop, leave the share group and end the session empty (a replica retired while
     * the others run) instead of keeping it for the same client id. Never on the last instance.
     */
    leaveOnStop: boolean;
    /** Port of the in-process broker; 0 = no in-process broker. */
    port: number;
    host: string;
    /** In-process broker: a socket must complete CONNECT and authentication within this time. */
    connectTimeoutMs: number;
    /** In-process broker: largest packet before authentication (the CONNECT), in bytes. */
    maxConnectBytes: number;
    /** In-process broker: largest packet after authentication (TELEMETRY_MAX_BODY_BYTES + 1 KiB for topic and header). */
    maxPacketBytes: number;
    /** In-process broker: open connections per client address, and in all. */
    maxConnectionsPerAddress: number;
    maxConnections: number;
    /**
     * In-process broker: what one persistent session keeps (messages and bytes, the oldest dropped
     * past either) and how many messages a connected client may have unacknowledged (bounded-persistence.ts).
     */
    sessionQueue: { maxMessages: number; maxBytes: number; maxInflight: number; maxTotalBytes: number };
    /** In-process broker: persistent sessions one controller may hold (session-quota.ts). */
    sessionsPerController: number;
  };
  ingest: {
    batchMaxRows: number;
    batchMaxWaitMs: number;
    flushConcurrency: number;
    maxRowsPerMessage: number;
    maxBodyBytes: number;
    maxBackfillDays: number;
    maxFutureSeconds: number;
    cacheTtlMs: number;
  };
  /** Days kept per resolution; 0 = forever. */
  retention: { rawDays: number; fiveMinuteDays: number; hourDays: number; dayDays: number; intervalMinutes: number };
  online: {
    heartbeatSeconds: number;
    offlineAfterSeconds: number;
    dropoutGapSeconds: number;
    flapWindowSeconds: number;
    flapThreshold: number;
    stableAfterSeconds: number;
    /** How often the offline/recovery sweep runs; 0 = never on a timer (tests call it). */
    sweepSeconds: number;
  };
  simulator: { enabled: boolean; intervalSeconds: number; backfillHours: number };
}

export class TelemetryConfigError extends Error {}

/** Every problem in the telemetry settings of `env` (none: they are valid). */
export function telemetryProblems(env: NodeJS.ProcessEnv): string[] {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
  const e = parsed.data;
  if (e.ONLINE_DROPOUT_GAP_SECONDS > e.ONLINE_OFFLINE_AFTER_SECONDS) return ['ONLINE_DROPOUT_GAP_SECONDS must not exceed ONLINE_OFFLINE_AFTER_SECONDS'];
  return [];
}

/**
 * Telemetry's section of the portal's settings (api/app-config.ts): its settings are checked with
 * every other domain's at start, so one error lists them all; the module then reads them
 * (`loadTelemetrySettings`) into the typed object it is given.
 */
export const TELEMETRY_SETTINGS_SECTION = {
  settings: class TelemetryParsedApart {},
  parsedApart: { names: Object.keys(ZEnv.shape), problems: telemetryProblems },
};

/** Reads and validates the telemetry settings; `embedded` = no DATABASE_URL (turns the simulator on by default). */
export function loadTelemetrySettings(env: NodeJS.ProcessEnv = process.env, embedded = !env.DATABASE_URL): TelemetrySettings {
  const problems = telemetryProblems(env);
  if (problems.length) throw new TelemetryConfigError(`Invalid telemetry settings:\n - ${problems.join('\n - ')}`);
  const e = ZEnv.parse(env);
  return {
    mqtt: {
      url: e.MQTT_URL,
      username: e.MQTT_USERNAME,
      password: e.MQTT_PASSWORD,
      clientId: e.MQTT_CLIENT_ID ?? `portal-ingest-${hostname()}`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 64),
      shareGroup: e.MQTT_SHARE_GROUP,
      memberLeaseSeconds: e.MQTT_MEMBER_LEASE_SECONDS,
      instance: env.INSTANCE_NAME?.trim() || `${hostname()}:${process.pid}`,
      topicPrefix: e.MQTT_TOPIC_PREFIX,
      receiveMaximum: e.MQTT_RECEIVE_MAXIMUM,
      sessionExpirySeconds: e.MQTT_SESSION_EXPIRY_SECONDS,
      leaveOnStop: e.MQTT_LEAVE_ON_STOP ?? false,
      port: e.MQTT_PORT,
      host: e.MQTT_HOST,
      connectTimeoutMs: e.MQTT_CONNECT_TIMEOUT_SECONDS * 1000,
      maxConnectBytes: e.MQTT_MAX_CONNECT_BYTES,
      maxPacketBytes: e.TELEMETRY_MAX_BODY_BYTES + 1024,
      maxConnectionsPerAddress: e.MQTT_MAX_CONNECTIONS_PER_ADDRESS,
      maxConnections: e.MQTT_MAX_CONNECTIONS,
      sessionQueue: {
        maxMessages: e.MQTT_SESSION_QUEUE_MAX_MESSAGES,
        maxBytes: e.MQTT_SESSION_QUEUE_MAX_BYTES,
        maxInflight: e.MQTT_MAX_INFLIGHT,
        maxTotalBytes: e.MQTT_SESSION_QUEUE_TOTAL_BYTES,
      },
      sessionsPerController: e.MQTT_SESSIONS_PER_CONTROLLER,
    },
    ingest: {
      batchMaxRows: e.TELEMETRY_BATCH_MAX_ROWS,
      batchMaxWaitMs: e.TELEMETRY_BATCH_MAX_WAIT_MS,
      // PGlite has one connection: concurrent flushes would only queue.
      flushConcurrency: embedded ? 1 : e.TELEMETRY_FLUSH_CONCURRENCY,
      maxRowsPerMessage: e.TELEMETRY_MAX_ROWS_PER_MESSAGE,
      maxBodyBytes: e.TELEMETRY_MAX_BODY_BYTES,
      maxBackfillDays: e.TELEMETRY_MAX_BACKFILL_DAYS,
      maxFutureSeconds: e.TELEMETRY_MAX_FUTURE_SECONDS,
      cacheTtlMs: e.TELEMETRY_CACHE_TTL_MS,
    },
    retention: {
      rawDays: e.TELEMETRY_RETENTION_RAW_DAYS,
      fiveMinuteDays: e.TELEMETRY_RETENTION_5M_DAYS,
      hourDays: e.TELEMETRY_RETENTION_1H_DAYS,
      dayDays: e.TELEMETRY_RETENTION_1D_DAYS,
      intervalMinutes: e.TELEMETRY_RETENTION_INTERVAL_MINUTES,
    },
    online: {
      heartbeatSeconds: e.ONLINE_HEARTBEAT_SECONDS,
      offlineAfterSeconds: e.ONLINE_OFFLINE_AFTER_SECONDS,
      dropoutGapSeconds: e.ONLINE_DROPOUT_GAP_SECONDS,
      flapWindowSeconds: e.ONLINE_FLAP_WINDOW_SECONDS,
      flapThreshold: e.ONLINE_FLAP_THRESHOLD,
      stableAfterSeconds: e.ONLINE_STABLE_AFTER_SECONDS,
      sweepSeconds: e.ONLINE_SWEEP_SECONDS,
    },
    simulator: {
      enabled: e.SIMULATOR ?? embedded,
      intervalSeconds: e.SIMULATOR_INTERVAL_SECONDS,
      backfillHours: e.SIMULATOR_BACKFILL_HOURS,
    },
  };
}

/** A clock the online-state machine and the ingest age checks read; tests replace it. */
export interface Clock {
  now(): Date;
}
export const TELEMETRY_CLOCK = Symbol('TELEMETRY_CLOCK');
export const systemClock: Clock = { now: () => new Date() };
