import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { ControllerOnlineStateName } from '../common/enums';
import { DATA_SOURCE } from '../database/database.module';
import { withPgTransaction } from '../database/pg-transaction';
import { onContact, type OnlineRules, onSweep, type Presence, type Step } from './online-state-rules';
import { type Clock, TELEMETRY_CLOCK, TELEMETRY_SETTINGS, type TelemetrySettings } from './telemetry.config';

interface PresenceRow {
  controller_id: string;
  online_state: ControllerOnlineStateName | null;
  last_seen_at: Date | null;
  state_since: Date | null;
  online_since: Date | null;
  dropouts: Date[] | null;
}

export interface OnlineTransition {
  controller_id: string;
  state: ControllerOnlineStateName;
  at: Date;
}

/**
 * Keeps ControllerOnlineState current from contacts (heartbeats, telemetry, states) and a periodic
 * sweep, and writes one ControllerOnlineStateHistory row per transition (rules in
 * telemetry/online-state-rules.ts). Safe with several app instances: each controller's step runs
 * under a row lock on the controller, the sweep skips rows another instance holds.
 *
 * Contacts are cheap for the caller (fire and forget) and written at most every few seconds per
 * controller while nothing changes.
 */
@Injectable()
export class ControllerOnlineStateService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('OnlineState');
  private readonly rules: OnlineRules;
  /** Last written contact per controller (clock ms) and the state then. */
  private readonly recent = new Map<string, { at: number; state: ControllerOnlineStateName }>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly resolutionMs: number;
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<OnlineTransition[]>;
  private readonly listeners: ((t: OnlineTransition) => void)[] = [];

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
    @Inject(TELEMETRY_CLOCK) private readonly clock: Clock,
  ) {
    const o = settings.online;
    this.rules = {
      offlineAfterMs: o.offlineAfterSeconds * 1000,
      dropoutGapMs: o.dropoutGapSeconds * 1000,
      flapWindowMs: o.flapWindowSeconds * 1000,
      flapThreshold: o.flapThreshold,
      stableAfterMs: o.stableAfterSeconds * 1000,
    };
    this.resolutionMs = Math.min(5000, Math.floor(this.rules.dropoutGapMs / 4));
  }

  onModuleInit(): void {
    if (this.settings.online.sweepSeconds > 0) {
      this.timer = setInterval(() => void this.sweep().catch((e) => this.logger.warn(`sweep failed: ${(e as Error).message}`)), this.settings.online.sweepSeconds * 1000);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([this.sweeping, ...this.inFlight.values()]);
  }

  /** Called on every transition (after commit). */
  onTransition(listener: (t: OnlineTransition) => void): void {
    this.listeners.push(listener);
  }

  /** A controller was heard from now. Never throws; the write happens in the background. */
  touch(controller_id: string, transport: string): void {
    const now = this.clock.now();
    const recent = this.recent.get(controller_id);
    if (recent && recent.state === 'ONLINE' && now.getTime() - recent.at < this.resolutionMs) return;
    if (this.inFlight.has(controller_id)) return;
    const work = this.contact(controller_id, now, transport)
      .catch((e) => this.logger.warn(`contact of ${controller_id} not recorded: ${(e as Error).message}`))
      .finally(() => this.inFlight.delete(controller_id));
    this.inFlight.set(controller_id, work);
  }

  /** Waits for the background contact writes (tests). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Records a contact at `at` and applies the state rules. Returns the state after it. */
  async contact(controller_id: string, at: Date, transport: string): Promise<ControllerOnlineStateName | undefined> {
    const step = await this.inTransaction(async (c) => {
      const row = await this.lock(c, controller_id, false);
      if (!row) return undefined;
      const step = onContact(toPresence(row), row.online_state ?? 'OFFLINE', at, this.rules);
      await this.store(c, controller_id, step, transport);
      return step;
    });
    if (!step) return undefined;
    this.recent.set(controller_id, { at: at.getTime(), state: step.next.state });
    if (step.transition) this.emit({ controller_id, ...step.transition });
    return step.next.state;
  }

  /**
   * Marks silent controllers OFFLINE, lets calmed-down UNSTABLE ones back to ONLINE, and starts
   * the grace period of controllers that claim a state but were never heard by this portal.
   */
  sweep(now: Date = this.clock.now()): Promise<OnlineTransition[]> {
    this.sweeping ??= this.runSweep(now).finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async runSweep(now: Date): Promise<OnlineTransition[]> {
    const offlineBefore = new Date(now.getTime() - this.rules.offlineAfterMs);
    // Controllers with a state but no contact recorded yet: the grace period starts now.
    await this.ds.query(
      `INSERT INTO controller_presence (controller_id, last_seen_at, state_since, online_since)
       SELECT s.controller_id, $1, $1, CASE WHEN s.online_state = 'OFFLINE' THEN NULL ELSE $1::timestamptz END
         FROM controller_online_state s
        WHERE NOT EXISTS (SELECT 1 FROM controller_presence p WHERE p.controller_id = s.controller_id)
       ON CONFLICT DO NOTHING`,
      [now],
    );
    const candidates = (await this.ds.query(
      `SELECT p.controller_id
         FROM controller_presence p
         JOIN controller_online_state s ON s.controller_id = p.controller_id
        WHERE (s.online_state <> 'OFFLINE' AND p.last_seen_at <= $1) OR s.online_state = 'UNSTABLE'`,
      [offlineBefore],
    )) as { controller_id: string }[];
    const transitions: OnlineTransition[] = [];
    for (const { controller_id } of candidates) {
      const step = await this.inTransaction(async (c) => {
        const row = await this.lock(c, controller_id, true);
        if (!row || !row.last_seen_at) return undefined;
        const step = onSweep(toPresence(row)!, now, this.rules);
        if (!step.transition) return undefined;
        await this.store(c, controller_id, step, undefined);
        return step;
      });
      if (step?.transition) {
        this.recent.set(controller_id, { at: step.next.last_seen_at?.getTime() ?? 0, state: step.next.state });
        const t = { controller_id, ...step.transition };
        transitions.push(t);
        this.emit(t);
      }
    }
    return transitions;
  }

  private emit(t: OnlineTransition): void {
    for (const l of this.listeners) {
      try {
        l(t);
      } catch (e) {
        this.logger.warn(`transition listener failed: ${(e as Error).message}`);
      }
    }
  }

  /** Locks the controller row (NO KEY UPDATE: foreign-key checks still pass) and reads its presence. */
  private async lock(c: PoolClient, controller_id: string, skipLocked: boolean): Promise<PresenceRow | undefined> {
    const { rows } = await c.query<PresenceRow>(
      `SELECT c.controller_id, s.online_state, p.last_seen_at, p.state_since, p.online_since, p.dropouts
         FROM controller c
         LEFT JOIN controller_presence p ON p.controller_id = c.controller_id
         LEFT JOIN controller_online_state s ON s.controller_id = c.controller_id
        WHERE c.controller_id = $1
        FOR NO KEY UPDATE OF c${skipLocked ? ' SKIP LOCKED' : ''}`,
      [controller_id],
    );
    return rows[0];
  }

  private async store(c: PoolClient, controller_id: string, step: Step, transport: string | undefined): Promise<void> {
    const n = step.next;
    await c.query(
      `INSERT INTO controller_presence (controller_id, last_seen_at, state_since, online_since, dropouts, last_transport)
       VALUES ($1, $2, $3, $4, $5::timestamptz[], $6)
       ON CONFLICT (controller_id) DO UPDATE SET
         last_seen_at = EXCLUDED.last_seen_at, state_since = EXCLUDED.state_since, online_since = EXCLUDED.online_since,
         dropouts = EXCLUDED.dropouts, last_transport = COALESCE(EXCLUDED.last_transport, controller_presence.last_transport)`,
      [controller_id, n.last_seen_at, n.state_since, n.online_since, n.dropouts.map((d) => d.toISOString()), transport ?? null],
    );
    if (step.transition) {
      await c.query(
        `INSERT INTO controller_online_state (controller_id, online_state) VALUES ($1, $2)
         ON CONFLICT (controller_id) DO UPDATE SET online_state = EXCLUDED.online_state`,
        [controller_id, step.transition.state],
      );
      await c.query(
        `INSERT INTO controller_online_state_history (controller_id, "timestamp", online_state) VALUES ($1, $2, $3)
         ON CONFLICT (controller_id, "timestamp") DO UPDATE SET online_state = EXCLUDED.online_state`,
        [controller_id, step.transition.at, step.transition.state],
      );
    }
  }

  private inTransaction<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    return withPgTransaction(this.ds, work);
  }
}

function toPresence(row: PresenceRow): Presence | null {
  if (!row.last_seen_at || !row.state_since) return null;
  return {
    state: row.online_state ?? 'OFFLINE',
    last_seen_at: row.last_seen_at,
    state_since: row.state_since,
    online_since: row.online_since,
    dropouts: (row.dropouts ?? []).map((d) => new Date(d)),
  };
}
