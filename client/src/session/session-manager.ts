import { ROLES_FETCH_DELAY_MS, SESSION_MAX_FAILURES, SESSION_RECHECK_MS } from '../../../shared/common/spec-constants';
import type { SessionCheck, TSessionContext } from './auth-api';
import { isCompleteContext } from './context';

/** A role as role.all answers it. */
export interface TRole {
  role_cuid: string;
  name: string;
  level: number;
  description: string | null;
  /** The name and description in other languages (`{ fr: { name, description } }`). */
  translations?: Record<string, unknown>;
}

export type SessionStatus = 'loading' | 'loaded' | 'signedOut';

/** Why the manager signed the user out: a 401 code from the server, INACTIVE, or FAILURES. */
export type SignOutReason = string;

export interface SessionError {
  at: number;
  /** network: the server answered badly (counts); unreachable: no answer at all (does not count). */
  kind: 'network' | 'unreachable' | 'unauthorized' | 'inactive' | 'incomplete' | 'roles';
  message: string;
  status?: number;
  code?: string;
}

/** Spec §4 Session: what the context holds. */
export interface SessionState {
  status: SessionStatus;
  context: TSessionContext | null;
  /** All roles (role.all), empty until loaded (spec §4 Roles loading). */
  roles: TRole[];
  /** Consecutive failed checks; a success resets it; an unreachable server leaves it as it is. */
  failures: number;
  /** The last check got no answer at all (or the browser says it is offline); the next answer clears it. */
  unreachable: boolean;
  /** Recent errors, newest last (kept in the context, spec §8). */
  errors: SessionError[];
  signOutReason?: SignOutReason;
}

export interface SessionDeps {
  checkSession(signal: AbortSignal): Promise<SessionCheck>;
  fetchRoles(): Promise<TRole[]>;
  /** POST /api/auth/logout; the server already deleted a failing cookie, this makes sure. */
  logout(): Promise<unknown>;
  /** Called once when the manager signs the user out by itself (the shell navigates to /auth/login). */
  onSignedOut(reason: SignOutReason): void;
  /** Whether the browser believes it has a network (navigator.onLine); defaults to true outside a browser. */
  isOnline?: () => boolean;
  /**
   * This page's own writes: `mark` where they stand when a check leaves; `settled(mark)` waits until
   * none is out and answers whether one was out since the mark. A write's answer may re-issue the
   * session (a password change ends the other sessions and keeps this one), so a 401 to a check sent
   * meanwhile is checked again. Absent: never.
   */
  ownWrites?: { mark(): number; settled(mark: number): Promise<boolean> };
  /** Whether the server answered any request since `at` (ms); unknown (absent) counts as yes. */
  answeredSince?: (at: number) => boolean;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** A check that has not answered after this long counts as failed (not in the spec). */
export const SESSION_CHECK_TIMEOUT_MS = 5 * SESSION_RECHECK_MS;
const MAX_ERRORS_KEPT = 20;

export { isCompleteContext };

type Listener = (state: SessionState) => void;

/**
 * The browser's session loop (spec §4 Session and Roles loading, §9 constants), free of React:
 * GET /api/auth/session every SESSION_RECHECK_MS (never two at once). What each answer does to
 * the counter of consecutive failed checks (docs/client-network.md):
 * - 200 with a whole context: resets it (and clears `unreachable`);
 * - a failed check: an answer from the server that is not a session (5xx, any other non-401
 *   status, a malformed or incomplete body) or a check that did not finish within
 *   SESSION_CHECK_TIMEOUT_MS while the server answered other requests meanwhile: +1;
 * - no answer at all (fetch rejected: offline, connection refused or cut), or a time-out while
 *   navigator.onLine is false or nothing else was answered meanwhile (a silent drop): unchanged, the state says `unreachable` (a dropped link never
 *   signs anyone out; the server decides when it answers again);
 * - 401 or an inactive user: signed out at once; but a 401 to a check that was out while one of
 *   this page's own writes was (whose answer may carry this session's new cookie) is checked again
 *   once the writes have answered, and signs out if that check says 401 too.
 * More than SESSION_MAX_FAILURES failed checks clear the state, call logout and onSignedOut.
 * ROLES_FETCH_DELAY_MS after start, if no roles are held, role.all is asked once.
 */
export class SessionManager {
  private state: SessionState = { status: 'loading', context: null, roles: [], failures: 0, unreachable: false, errors: [] };
  private readonly listeners = new Set<Listener>();
  private checkTimer: unknown;
  private rolesTimer: unknown;
  private running = false;
  private inFlight = false;
  /** The check that is out, if any. */
  private current: Promise<void> | null = null;
  private rolesRequested = false;
  /** Bumped by replaceContext: a check sent before it answers with an older context. */
  private generation = 0;
  private readonly waiters: ((state: SessionState) => void)[] = [];
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly isOnline: () => boolean;

  constructor(private readonly deps: SessionDeps) {
    this.now = deps.now ?? Date.now;
    this.isOnline = deps.isOnline ?? (() => (typeof navigator === 'undefined' || typeof navigator.onLine !== 'boolean' ? true : navigator.onLine));
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  getState = (): SessionState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts the loop; a context just received from the login answer makes the state loaded at once. */
  start(initial?: TSessionContext | null): void {
    if (this.running || this.state.status === 'signedOut') return;
    this.running = true;
    if (initial && isCompleteContext(initial) && !initial.user.inactive) {
      this.set({ status: 'loaded', context: initial });
      this.schedule(SESSION_RECHECK_MS);
    } else {
      this.schedule(0);
    }
    this.rolesTimer = this.setTimer(() => void this.loadRolesOnce(), ROLES_FETCH_DELAY_MS);
  }

  /** Stops the timers (the shell unmounts); the state stays as it is. */
  stop(): void {
    this.running = false;
    this.clearTimer(this.checkTimer);
    this.clearTimer(this.rolesTimer);
  }

  /** Resolves once the state is loaded or signed out (react-admin's checkAuth waits on it). */
  whenSettled(): Promise<SessionState> {
    if (this.state.status !== 'loading') return Promise.resolve(this.state);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** A fresh context from the server (after a preference change or a mute). */
  replaceContext(context: TSessionContext): void {
    if (this.state.status === 'signedOut' || !isCompleteContext(context)) return;
    this.generation++;
    this.set({ status: 'loaded', context });
  }

  /**
   * A call of this page was answered 401: whether the session still holds (then the caller goes on)
   * or is gone (then the user is signed out, as by the loop). Waits for this page's writes first, and
   * for a check already out, then checks once more.
   */
  async stillSignedIn(): Promise<boolean> {
    if (this.deps.ownWrites) await this.deps.ownWrites.settled(this.deps.ownWrites.mark());
    while (this.current) await this.current;
    await this.checkOnce();
    return this.state.status === 'loaded';
  }

  /** Signs out on the user's request (react-admin's logout): no onSignedOut callback. */
  async signOut(): Promise<void> {
    const already = this.state.status === 'signedOut';
    this.clear('SIGNED_OUT');
    if (!already) await this.deps.logout();
  }

  /** Re-reads the status (it may change while a request is out). */
  private isSignedOut(): boolean {
    return this.state.status === 'signedOut';
  }

  private set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    if (this.state.status !== 'loading') this.waiters.splice(0).forEach((w) => w(this.state));
    this.listeners.forEach((l) => l(this.state));
  }

  private recordError(error: Omit<SessionError, 'at'>): SessionError[] {
    return [...this.state.errors, { at: this.now(), ...error }].slice(-MAX_ERRORS_KEPT);
  }

  private schedule(ms: number): void {
    this.clearTimer(this.checkTimer);
    if (!this.running) return;
    this.checkTimer = this.setTimer(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    if (!this.running || this.inFlight) return;
    const started = this.now();
    await this.checkOnce();
    // Every SESSION_RECHECK_MS from the start of the previous check, never overlapping.
    this.schedule(Math.max(0, SESSION_RECHECK_MS - (this.now() - started)));
  }

  /** One session check; public for tests and for a check on demand. */
  async checkOnce(): Promise<void> {
    if (this.inFlight || this.state.status === 'signedOut') return;
    const check = this.checkNow();
    this.current = check;
    try {
      await check;
    } finally {
      if (this.current === check) this.current = null;
    }
  }

  private async checkNow(): Promise<void> {
    this.inFlight = true;
    const generation = this.generation;
    const started = this.now();
    const writes = this.deps.ownWrites?.mark();
    const controller = new AbortController();
    const timeout = this.setTimer(() => controller.abort(), SESSION_CHECK_TIMEOUT_MS);
    let result: SessionCheck;
    try {
      result = await this.deps.checkSession(controller.signal);
    } catch (error) {
      result = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    } finally {
      this.clearTimer(timeout);
      this.inFlight = false;
    }
    if (this.isSignedOut()) return;
    // A time-out counts only when the server is answering (other requests got answers meanwhile);
    // with the browser offline or nothing answered since the check started, it is a silent drop.
    if (result.kind === 'failed' && result.status === undefined && (!this.isOnline() || this.deps.answeredSince?.(started) === false)) {
      result = { kind: 'unreachable', message: result.message };
    }
    if (result.kind === 'unreachable') {
      this.set({ unreachable: true, errors: this.recordError({ kind: 'unreachable', message: result.message }) });
      return;
    }
    if (this.state.unreachable) this.set({ unreachable: false });
    if (result.kind === 'ok') {
      if (!isCompleteContext(result.context)) {
        this.failed({ kind: 'incomplete', message: 'The session answer is incomplete' });
      } else if (result.context.user.inactive) {
        this.set({ errors: this.recordError({ kind: 'inactive', message: 'The account is inactive', code: 'INACTIVE' }) });
        this.forceSignOut('INACTIVE');
      } else if (generation !== this.generation) {
        // Sent before a fresher context arrived (e.g. saved preferences): keep the fresher one.
        this.set({ failures: 0 });
      } else {
        this.set({ status: 'loaded', context: result.context, failures: 0 });
      }
    } else if (result.kind === 'unauthorized') {
      if (writes !== undefined && (await this.deps.ownWrites!.settled(writes)) && !this.isSignedOut()) return this.checkOnce();
      this.set({ errors: this.recordError({ kind: 'unauthorized', message: result.message, code: result.code, status: 401 }) });
      this.forceSignOut(result.code);
    } else {
      this.failed({ kind: 'network', message: result.message, status: result.status });
    }
  }

  private failed(error: Omit<SessionError, 'at'>): void {
    const failures = this.state.failures + 1;
    this.set({ failures, errors: this.recordError(error) });
    if (failures > SESSION_MAX_FAILURES) this.forceSignOut('FAILURES');
  }

  private clear(reason: SignOutReason): void {
    this.stop();
    this.set({ status: 'signedOut', context: null, roles: [], signOutReason: reason });
  }

  private forceSignOut(reason: SignOutReason): void {
    if (this.state.status === 'signedOut') return;
    this.clear(reason);
    void this.deps.logout().catch(() => undefined);
    this.deps.onSignedOut(reason);
  }

  private async loadRolesOnce(): Promise<void> {
    if (this.rolesRequested || this.state.roles.length > 0 || this.state.status === 'signedOut') return;
    this.rolesRequested = true;
    try {
      const roles = await this.deps.fetchRoles();
      if (!this.isSignedOut()) this.set({ roles: [...roles].sort((a, b) => a.level - b.level) });
    } catch (error) {
      this.set({ errors: this.recordError({ kind: 'roles', message: error instanceof Error ? error.message : String(error) }) });
    }
  }
}
