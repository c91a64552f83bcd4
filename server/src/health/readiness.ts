import { Injectable, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { SharedSignals } from '../database/shared-signals';
import { systemJob } from '../common/system-job';
import { MqttIngestService } from '../gateway/mqtt-ingest.service';
import { HealthRepository } from './health.repository';

const PROBE = systemJob('readiness-probe');

/** Longest wait for the database's answer to the readiness probe. */
const DATABASE_PROBE_MS = 2000;

export type PartState = 'ok' | 'down' | 'off' | 'draining';

export interface ReadinessReport {
  ready: boolean;
  /** Each part and its state; `off` = not configured here (no broker), counts as ready. */
  checks: { instance: PartState; database: PartState; broker: PartState };
  /** The parts that are not ready, in the order above. */
  not_ready: ('instance' | 'database' | 'broker')[];
}

/** Resolves with the promise, or rejects after `ms` (the promise itself is left to finish). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether this instance should get new requests: the database answers, the broker is reachable
 * (external: connected and subscribed; in-process: listening), and it is not shutting down.
 *
 * Shutting down: the first signal (main.ts) or the first destroy hook turns readiness to
 * `draining` at once; the HTTP server then keeps serving for SHUTDOWN_DRAIN_SECONDS (in the
 * before-shutdown hook, before Nest closes it) so a load balancer takes the instance out first.
 */
@Injectable()
export class Readiness implements OnModuleDestroy, BeforeApplicationShutdown {
  private draining = false;

  /**
   * How the drain waits its SHUTDOWN_DRAIN_SECONDS: a timer. A test replaces it to hold the drain
   * open and release it when it chooses, so the order "serving, then closed" is checked, not a time.
   */
  drainWait: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms));

  constructor(
    private readonly health: HealthRepository,
    private readonly mqtt: MqttIngestService,
    private readonly config: AppConfig,
    private readonly signals: SharedSignals,
  ) {}

  get isDraining(): boolean {
    return this.draining;
  }

  /** From now on readiness answers 503 (draining); liveness still answers. */
  startDraining(): void {
    this.draining = true;
  }

  onModuleDestroy(): void {
    this.startDraining();
  }

  async beforeApplicationShutdown(): Promise<void> {
    const ms = this.config.SHUTDOWN_DRAIN_SECONDS * 1000;
    if (ms > 0) await this.drainWait(ms);
  }

  async check(): Promise<ReadinessReport> {
    // On PostgreSQL through the signals' own connection (not behind the pool's queue), else the pool.
    const probe = this.signals.ping().then((answered): Promise<unknown> | true => answered ?? this.health.ping(PROBE));
    const database: PartState = await within(probe, DATABASE_PROBE_MS).then(
      () => 'ok' as const,
      () => 'down' as const,
    );
    const b = this.mqtt.brokerState;
    const checks = {
      instance: this.draining ? ('draining' as const) : ('ok' as const),
      database,
      broker: b === 'up' ? ('ok' as const) : b,
    };
    const not_ready = (['instance', 'database', 'broker'] as const).filter((part) => checks[part] !== 'ok' && checks[part] !== 'off');
    return { ready: not_ready.length === 0, checks, not_ready };
  }
}
