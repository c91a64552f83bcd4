import type { ControllerOnlineStateName } from '../../../shared/common/enums';

/**
 * The online-state machine of a controller, as pure functions (the service stores the result).
 *
 * Contact = any heartbeat, telemetry or state message that reached the portal; its time is the
 * portal's receive time (never the controller's clock: a backfill carries old timestamps).
 *
 * - ONLINE → OFFLINE when no contact for `offlineAfterMs` (the grace period, about three missed
 *   heartbeats). The transition is dated at last contact + grace.
 * - A dropout is a silence longer than `dropoutGapMs` (about 1.5 heartbeats), whether or not it
 *   reached OFFLINE. Dropouts are kept for `flapWindowMs`.
 * - On contact: UNSTABLE when the window holds `flapThreshold` dropouts or more; a controller
 *   that is UNSTABLE stays so until it has been in contact without a dropout for
 *   `stableAfterMs` (hysteresis, so it does not blink between states); otherwise ONLINE.
 * - OFFLINE → ONLINE (or UNSTABLE, by the same rule) on the first contact.
 */
export interface OnlineRules {
  offlineAfterMs: number;
  dropoutGapMs: number;
  flapWindowMs: number;
  flapThreshold: number;
  stableAfterMs: number;
}

export interface Presence {
  state: ControllerOnlineStateName;
  /** Last contact; null when never seen. */
  last_seen_at: Date | null;
  state_since: Date;
  /** Start of the current run of contact without a dropout; null while OFFLINE. */
  online_since: Date | null;
  /** Starts of the silences counted as dropouts, oldest first. */
  dropouts: Date[];
}

export interface Step {
  next: Presence;
  /** Set when the state changes: the new state and the instant it changed. */
  transition?: { state: ControllerOnlineStateName; at: Date };
}

const prune = (dropouts: Date[], now: Date, rules: OnlineRules): Date[] => dropouts.filter((d) => d.getTime() > now.getTime() - rules.flapWindowMs);

/** A contact at `at`. `current` is null for a controller never seen (its state row may say anything). */
export function onContact(current: Presence | null, currentState: ControllerOnlineStateName, at: Date, rules: OnlineRules): Step {
  const state = current?.state ?? currentState;
  const last = current?.last_seen_at ?? null;
  if (last && at.getTime() <= last.getTime()) return { next: current! };
  const dropouts = prune(current?.dropouts ?? [], at, rules);
  const gap = last ? at.getTime() - last.getTime() : Number.POSITIVE_INFINITY;
  const broken = state === 'OFFLINE' || !current?.online_since || gap > rules.dropoutGapMs;
  // A silence that did not reach OFFLINE is a dropout too (OFFLINE ones were counted by the sweep).
  if (last && state !== 'OFFLINE' && gap > rules.dropoutGapMs) dropouts.push(last);
  const online_since = broken ? at : current.online_since!;
  let nextState: ControllerOnlineStateName;
  if (dropouts.length >= rules.flapThreshold) nextState = 'UNSTABLE';
  else if (state === 'UNSTABLE' && at.getTime() - online_since.getTime() < rules.stableAfterMs) nextState = 'UNSTABLE';
  else nextState = 'ONLINE';
  const changed = nextState !== state;
  return {
    next: {
      state: nextState,
      last_seen_at: at,
      state_since: changed ? at : (current?.state_since ?? at),
      online_since,
      dropouts,
    },
    transition: changed ? { state: nextState, at } : undefined,
  };
}

/** The periodic check at `now`: silence past the grace period, or an UNSTABLE controller that has calmed down. */
export function onSweep(current: Presence, now: Date, rules: OnlineRules): Step {
  const dropouts = prune(current.dropouts, now, rules);
  const last = current.last_seen_at;
  if (current.state !== 'OFFLINE' && last && now.getTime() - last.getTime() >= rules.offlineAfterMs) {
    const at = new Date(last.getTime() + rules.offlineAfterMs);
    if (!dropouts.some((d) => d.getTime() === last.getTime())) dropouts.push(last);
    return {
      next: { state: 'OFFLINE', last_seen_at: last, state_since: at, online_since: null, dropouts },
      transition: { state: 'OFFLINE', at },
    };
  }
  if (
    current.state === 'UNSTABLE' &&
    dropouts.length < rules.flapThreshold &&
    current.online_since &&
    now.getTime() - current.online_since.getTime() >= rules.stableAfterMs
  ) {
    return {
      next: { ...current, state: 'ONLINE', state_since: now, dropouts },
      transition: { state: 'ONLINE', at: now },
    };
  }
  return { next: { ...current, dropouts } };
}
