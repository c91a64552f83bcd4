import { TOAST_ACTION_RESPONSE_TIMEOUT_MS, TOAST_DEFAULT_TIMEOUT_MS, TOAST_MAX_VISIBLE, TOAST_REMOVE_DELAY_MS } from '../../../shared/common/spec-constants';
import type { TToast } from '../../../server/src/alerts/portal/portal.schema';

export type { TToast };

/** Spec §4 Toasts: queued → open (at most TOAST_MAX_VISIBLE) → closed → removed 300 ms later. */
export type ToastState = 'queued' | 'open' | 'closed';

export type CloseReason = 'timeout' | 'close-button' | 'click-through' | 'acknowledge' | 'mute' | 'close-all' | 'escape' | 'swipe';

/** Spec §3.2: a toast with its open flag and duration, plus the machine's bookkeeping. */
export interface ToastEntry extends TToast {
  state: ToastState;
  /** Spec §3.2 "open flag". */
  open: boolean;
  /** Milliseconds before it closes by itself; null = stays until closed. Fixed when it opens. */
  duration: number | null;
  /** Time left while paused or not yet started; null = no timeout. */
  remaining: number | null;
  closeReason?: CloseReason;
  /** A duration chosen by whoever pushed it (upsert), instead of the spec §9 one of its type. */
  customDuration?: number | null;
}

export interface ToastPreferences {
  /** user.meta.preferences.toast_notifications.toast_notifications_disabled */
  disabled?: boolean;
  /** toast_notification_timeout: ms, null = no timeout, undefined = the default. */
  timeout?: number | null;
}

export interface ToastSnapshot {
  /** Queued, open and closed (not yet removed) toasts, in arrival order. */
  toasts: readonly ToastEntry[];
  paused: boolean;
}

export type PushResult = 'queued' | 'open' | 'dropped' | 'duplicate';

/** What upsert did: a new toast (queued / open), the content of the one with that id replaced, or nothing (stale). */
export type UpsertResult = PushResult | 'replaced' | 'stale';

export interface UpsertOptions {
  /** Milliseconds before it closes by itself (null = stays); default: the spec §9 duration of its type. */
  duration?: number | null;
}

/** An ACTION_RESPONSE that ends the story of its id (no PENDING may follow it). */
const isFinal = (toast: Pick<TToast, 'type' | 'actionResponse'>) =>
  toast.type === 'ACTION_RESPONSE' && (toast.actionResponse === 'SUCCESS' || toast.actionResponse === 'FAILURE');

export interface ToastClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

const realClock: ToastClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

const SEEN_IDS_KEPT = 500;

/**
 * The toast state machine of spec §4 (no React here). Timers run only for open toasts, and all
 * of them pause while the pointer is over the toast area (pause/resume keep the time left).
 */
export class ToastStore {
  private entries: ToastEntry[] = [];
  private snapshot: ToastSnapshot = { toasts: [], paused: false };
  private paused = false;
  private prefs: ToastPreferences = {};
  private readonly timers = new Map<string, { handle: unknown; startedAt: number }>();
  private readonly removals = new Map<string, unknown>();
  private readonly seen = new Set<string>();
  private readonly listeners = new Set<() => void>();
  /** Ids whose SUCCESS / FAILURE was shown: a late PENDING of theirs is stale. */
  private readonly settled = new Set<string>();

  constructor(private readonly clock: ToastClock = realClock) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ToastSnapshot => this.snapshot;

  setPreferences(prefs: ToastPreferences): void {
    this.prefs = { ...prefs };
  }

  /** The duration a toast gets when it opens (spec §9). */
  durationFor(toast: Pick<TToast, 'type'>): number | null {
    if (toast.type === 'ACTION_RESPONSE') return TOAST_ACTION_RESPONSE_TIMEOUT_MS;
    return this.prefs.timeout === undefined ? TOAST_DEFAULT_TIMEOUT_MS : this.prefs.timeout;
  }

  /** A new toast: dropped when it is a notification and the user turned them off; else queued. */
  push(toast: TToast): PushResult {
    if (toast.type === 'NOTIFICATION' && this.prefs.disabled) return 'dropped';
    if (this.seen.has(toast.id)) return 'duplicate';
    return this.pushEntry(toast, {});
  }

  private pushEntry(toast: TToast, options: UpsertOptions): PushResult {
    this.remember(this.seen, toast.id);
    const entry: ToastEntry = {
      ...toast,
      state: 'queued',
      open: false,
      duration: null,
      remaining: null,
      ...(options.duration !== undefined ? { customDuration: options.duration } : {}),
    };
    this.entries.push(entry);
    this.pump();
    this.emit();
    return entry.state === 'open' ? 'open' : 'queued';
  }

  /**
   * A toast that may replace an earlier one with the same id (ACTION_RESPONSE: the PENDING toast
   * pushed when a command is sent, then the live SUCCESS / FAILURE with the command's id). Same id
   * still shown → its content is replaced and its timer starts again with the new duration (a
   * PENDING over a PENDING keeps the running timer); after SUCCESS / FAILURE a PENDING or SENT of
   * that id is stale and ignored. No such toast → pushed like a new one.
   */
  upsert(toast: TToast, options: UpsertOptions = {}): UpsertResult {
    const final = isFinal(toast);
    if (!final && this.settled.has(toast.id)) return 'stale';
    const entry = this.entries.find((e) => e.id === toast.id && e.state !== 'closed');
    if (final) this.remember(this.settled, toast.id);
    if (!entry) {
      if (this.seen.has(toast.id) && !final) return 'stale';
      this.seen.delete(toast.id);
      return this.pushEntry(toast, options);
    }
    const keepTimer = !final && !isFinal(entry) && options.duration === undefined;
    Object.assign(entry, toast);
    if (!final && toast.actionResponse === undefined) delete entry.actionResponse;
    if (options.duration !== undefined) entry.customDuration = options.duration;
    else if (!keepTimer) delete entry.customDuration;
    if (!keepTimer && entry.state === 'open') {
      const timer = this.timers.get(entry.id);
      if (timer) {
        this.clock.clearTimer(timer.handle);
        this.timers.delete(entry.id);
      }
      entry.duration = this.durationOf(entry);
      entry.remaining = entry.duration;
      if (!this.paused) this.startTimer(entry);
    }
    this.emit();
    return 'replaced';
  }

  close(id: string, reason: CloseReason): void {
    const entry = this.entries.find((e) => e.id === id && e.state !== 'closed');
    if (!entry) return;
    this.closeEntry(entry, reason);
    this.pump();
    this.emit();
  }

  /** Closes every open toast and drops the queued ones. */
  closeAll(): void {
    for (const entry of this.entries) {
      if (entry.state !== 'closed') this.closeEntry(entry, 'close-all');
    }
    this.emit();
  }

  /** Closes (open) or drops (queued) every toast that matches, e.g. all of one muted source. */
  closeWhere(match: (toast: ToastEntry) => boolean, reason: CloseReason): void {
    let changed = false;
    for (const entry of this.entries) {
      if (entry.state !== 'closed' && match(entry)) {
        this.closeEntry(entry, reason);
        changed = true;
      }
    }
    if (!changed) return;
    this.pump();
    this.emit();
  }

  /** The pointer entered the toast area: every running timer stops and keeps its time left. */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    const now = this.clock.now();
    for (const [id, timer] of this.timers) {
      this.clock.clearTimer(timer.handle);
      const entry = this.entries.find((e) => e.id === id && e.state !== 'closed');
      if (entry && entry.remaining !== null) entry.remaining = Math.max(0, entry.remaining - (now - timer.startedAt));
    }
    this.timers.clear();
    this.emit();
  }

  /** The pointer left: timers go on with the time they had left. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    for (const entry of this.entries) if (entry.state === 'open') this.startTimer(entry);
    this.emit();
  }

  /** Stops every timer (the shell unmounts). */
  dispose(): void {
    for (const timer of this.timers.values()) this.clock.clearTimer(timer.handle);
    for (const handle of this.removals.values()) this.clock.clearTimer(handle);
    this.timers.clear();
    this.removals.clear();
  }

  private remember(set: Set<string>, id: string): void {
    set.delete(id);
    set.add(id);
    if (set.size > SEEN_IDS_KEPT) set.delete(set.values().next().value as string);
  }

  private durationOf(entry: ToastEntry): number | null {
    return entry.customDuration !== undefined ? entry.customDuration : this.durationFor(entry);
  }

  private closeEntry(entry: ToastEntry, reason: CloseReason): void {
    const timer = this.timers.get(entry.id);
    if (timer) {
      this.clock.clearTimer(timer.handle);
      this.timers.delete(entry.id);
    }
    if (entry.state === 'queued') {
      // Never shown: nothing to animate, it goes at once.
      this.entries = this.entries.filter((e) => e !== entry);
      return;
    }
    entry.state = 'closed';
    entry.open = false;
    entry.closeReason = reason;
    this.removals.set(
      entry.id,
      this.clock.setTimer(() => this.remove(entry.id), TOAST_REMOVE_DELAY_MS),
    );
  }

  private remove(id: string): void {
    this.removals.delete(id);
    const before = this.entries.length;
    // Only the closed one: a toast upserted with the same id meanwhile stays.
    this.entries = this.entries.filter((e) => e.id !== id || e.state !== 'closed');
    if (this.entries.length !== before) this.emit();
  }

  /** Opens queued toasts, oldest first, while fewer than TOAST_MAX_VISIBLE are open. */
  private pump(): void {
    let open = this.entries.filter((e) => e.state === 'open').length;
    for (const entry of this.entries) {
      if (open >= TOAST_MAX_VISIBLE) break;
      if (entry.state !== 'queued') continue;
      entry.state = 'open';
      entry.open = true;
      entry.duration = this.durationOf(entry);
      entry.remaining = entry.duration;
      open++;
      if (!this.paused) this.startTimer(entry);
    }
  }

  private startTimer(entry: ToastEntry): void {
    if (entry.remaining === null || this.timers.has(entry.id)) return;
    const handle = this.clock.setTimer(() => {
      this.timers.delete(entry.id);
      this.close(entry.id, 'timeout');
    }, entry.remaining);
    this.timers.set(entry.id, { handle, startedAt: this.clock.now() });
  }

  private emit(): void {
    this.snapshot = { toasts: this.entries.map((e) => ({ ...e })), paused: this.paused };
    this.listeners.forEach((l) => l());
  }
}
