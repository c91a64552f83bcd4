import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ControllerOnlineStateName } from '../../../shared/common/enums';
import { systemJob } from '../common/system-job';
import { ControllerOnlineStateRepository, type PresenceRow } from './controller-online-state.repository';
import { onContact, type OnlineRules, onSweep, type Presence } from './online-state-rules';
import { type Clock, TELEMETRY_CLOCK, TELEMETRY_SETTINGS, type TelemetrySettings } from './telemetry.config';

/** Who the presence machine's statements run for (contacts and sweeps of every company's controllers). */
const JOB = systemJob('telemetry.online-state');

export interface OnlineTransition {
  controller_id: string;
  state: ControllerOnlineStateName;
  at: Date;
}

/**
 * Keeps ControllerOnlineState current from contacts (heartbeats, telemetry, states) and a periodic
 * sweep, and writes one ControllerOnlineStateHistory row per transition (rules in
 * telemetry/online-state-rules.ts; SQL in controller-online-state.repository.ts; the periodic sweep
 * is run by ControllerOnlineStateWorker). Safe with several app instances: each controller's step
 * runs under a row lock on the controller, the sweep skips rows another instance holds.
 *
 * Contacts are cheap for the caller (fire and forget) and written at most every few seconds per
 * controller while nothing changes.
 */
@Injectable()
export class ControllerOnlineStateService implements OnApplicationShutdown {
  private readonly logger = new Logger('OnlineState');
  private readonly rules: OnlineRules;
  /** Last written contact per controller (clock ms) and the state then. */
  private readonly recent = new Map<string, { at: number; state: ControllerOnlineStateName }>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly resolutionMs: number;
  private sweeping?: Promise<OnlineTransition[]>;
  private readonly listeners: ((t: OnlineTransition) => void)[] = [];

  constructor(
    private readonly rows: ControllerOnlineStateRepository,
    @Inject(TELEMETRY_SETTINGS) settings: TelemetrySettings,
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

  async onApplicationShutdown(): Promise<void> {
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
    const step = await this.rows.transaction(async (tx) => {
      const row = await this.rows.lock(JOB, tx, controller_id, false);
      if (!row) return undefined;
      const step = onContact(toPresence(row), row.online_state ?? 'OFFLINE', at, this.rules);
      await this.rows.store(JOB, tx, controller_id, step, transport);
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
    await this.rows.startGrace(JOB, now);
    const candidates = await this.rows.sweepCandidates(JOB, offlineBefore);
    const transitions: OnlineTransition[] = [];
    for (const controller_id of candidates) {
      const step = await this.rows.transaction(async (tx) => {
        const row = await this.rows.lock(JOB, tx, controller_id, true);
        if (!row || !row.last_seen_at) return undefined;
        const step = onSweep(toPresence(row)!, now, this.rules);
        if (!step.transition) return undefined;
        await this.rows.store(JOB, tx, controller_id, step, undefined);
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
