import {
  ROLES_FETCH_DELAY_MS,
  SESSION_MAX_FAILURES,
  SESSION_RECHECK_MS,
} from '../../../server/src/common/spec-constants';
import { FakeClock } from '../test-support/fake-clock';
import type { SessionCheck, TSessionContext } from './auth-api';
import { SessionManager, type TRole } from './session-manager';

const context = (patch: Partial<TSessionContext['user']> = {}): TSessionContext => ({
  user: { user_cuid: 'u1', email: 'basic@demo.local', name: 'Demo Basic', inactive: false, meta: {}, ...patch },
  memberships: [],
  notificationBlacklist: [],
  portalNotificationBlacklist: [],
  isSuperUser: false,
});

const ROLES: TRole[] = [
  { role_cuid: 'r3', name: 'Basic', level: 3, description: null },
  { role_cuid: 'r0', name: 'Superuser', level: 0, description: null },
];

describe('SessionManager (spec §4 Session, Roles loading)', () => {
  let clock: FakeClock;
  let answers: SessionCheck[];
  let checks: number;
  let logouts: number;
  let signedOut: string[];
  let roleCalls: number;
  let sut: SessionManager;

  beforeEach(() => {
    clock = new FakeClock();
    answers = [];
    checks = 0;
    logouts = 0;
    signedOut = [];
    roleCalls = 0;
    sut = new SessionManager({
      checkSession: async () => {
        checks++;
        return answers.shift() ?? { kind: 'ok', context: context() };
      },
      fetchRoles: async () => {
        roleCalls++;
        return ROLES;
      },
      logout: async () => {
        logouts++;
      },
      onSignedOut: (reason) => signedOut.push(reason),
      now: clock.now,
      setTimer: clock.setTimer,
      clearTimer: clock.clearTimer,
    });
  });
  afterEach(() => sut.stop());

  it('is loading until the first check answers with the whole context, then loaded', async () => {
    expect(sut.getState().status).toBe('loading');
    const settled = sut.whenSettled();
    sut.start();
    await clock.advance(0);
    expect(sut.getState()).toMatchObject({ status: 'loaded', context: context(), failures: 0 });
    await expect(settled).resolves.toMatchObject({ status: 'loaded' });
  });

  it('starts loaded from the login answer and checks again every second', async () => {
    sut.start(context());
    expect(sut.getState().status).toBe('loaded');
    await clock.advance(SESSION_RECHECK_MS - 1);
    expect(checks).toBe(0);
    await clock.advance(1);
    expect(checks).toBe(1);
    await clock.advance(SESSION_RECHECK_MS * 5);
    expect(checks).toBe(6);
  });

  it('counts failed checks, and a success resets the counter', async () => {
    answers = [
      { kind: 'failed', message: 'network' },
      { kind: 'failed', message: 'bad gateway', status: 502 },
      { kind: 'ok', context: context() },
      { kind: 'failed', message: 'again' },
    ];
    sut.start(context());
    await clock.advance(SESSION_RECHECK_MS * 2);
    expect(sut.getState().failures).toBe(2);
    expect(sut.getState().errors.map((e) => e.message)).toEqual(['network', 'bad gateway']);
    await clock.advance(SESSION_RECHECK_MS);
    expect(sut.getState().failures).toBe(0);
    await clock.advance(SESSION_RECHECK_MS);
    expect(sut.getState()).toMatchObject({ status: 'loaded', failures: 1 });
  });

  it(`signs out when the failures pass ${SESSION_MAX_FAILURES}, not before`, async () => {
    answers = Array.from({ length: 20 }, () => ({ kind: 'failed', message: 'down' }) as SessionCheck);
    sut.start(context());
    await clock.advance(SESSION_RECHECK_MS * SESSION_MAX_FAILURES);
    expect(sut.getState()).toMatchObject({ status: 'loaded', failures: SESSION_MAX_FAILURES });
    expect(signedOut).toEqual([]);
    await clock.advance(SESSION_RECHECK_MS);
    expect(sut.getState()).toMatchObject({ status: 'signedOut', context: null, roles: [], signOutReason: 'FAILURES' });
    expect(signedOut).toEqual(['FAILURES']);
    expect(logouts).toBe(1);
    // No more checks after signing out.
    await clock.advance(SESSION_RECHECK_MS * 5);
    expect(checks).toBe(SESSION_MAX_FAILURES + 1);
  });

  it('signs out at once on a 401, with its code, and keeps the error', async () => {
    answers = [{ kind: 'unauthorized', code: 'REVOKED', message: 'The session has ended' }];
    sut.start(context());
    await clock.advance(SESSION_RECHECK_MS);
    expect(sut.getState()).toMatchObject({ status: 'signedOut', signOutReason: 'REVOKED' });
    expect(sut.getState().errors).toEqual([expect.objectContaining({ kind: 'unauthorized', code: 'REVOKED', status: 401 })]);
    expect(signedOut).toEqual(['REVOKED']);
    expect(logouts).toBe(1);
  });

  it('signs out an inactive user', async () => {
    answers = [{ kind: 'ok', context: context({ inactive: true }) }];
    sut.start();
    await clock.advance(0);
    expect(sut.getState()).toMatchObject({ status: 'signedOut', signOutReason: 'INACTIVE', context: null });
    expect(signedOut).toEqual(['INACTIVE']);
  });

  it(`asks for the roles once, ${ROLES_FETCH_DELAY_MS} ms after start, sorted by level`, async () => {
    sut.start(context());
    await clock.advance(ROLES_FETCH_DELAY_MS - 1);
    expect(roleCalls).toBe(0);
    expect(sut.getState().roles).toEqual([]);
    await clock.advance(1);
    expect(roleCalls).toBe(1);
    expect(sut.getState().roles.map((r) => r.level)).toEqual([0, 3]);
    sut.stop();
    sut.start();
    await clock.advance(ROLES_FETCH_DELAY_MS * 3);
    expect(roleCalls).toBe(1);
  });

  it('keeps a context replaced while a check was out (the check carried the older cookie)', async () => {
    let release: (check: SessionCheck) => void = () => undefined;
    const slow = new Promise<SessionCheck>((resolve) => (release = resolve));
    sut = new SessionManager({
      checkSession: () => slow,
      fetchRoles: async () => ROLES,
      logout: async () => undefined,
      onSignedOut: () => undefined,
      now: clock.now,
      setTimer: clock.setTimer,
      clearTimer: clock.clearTimer,
    });
    sut.start(context());
    await clock.advance(SESSION_RECHECK_MS);
    const saved = context({ meta: { preferences: { toast_notifications: { toast_notification_timeout: 5000 } } } });
    sut.replaceContext(saved);
    release({ kind: 'ok', context: context() });
    await clock.advance(0);
    expect(sut.getState().context).toEqual(saved);
  });

  it('a user sign-out clears the state without the forced-sign-out callback', async () => {
    sut.start(context());
    await sut.signOut();
    expect(sut.getState()).toMatchObject({ status: 'signedOut', signOutReason: 'SIGNED_OUT', context: null });
    expect(signedOut).toEqual([]);
    expect(logouts).toBe(1);
  });
});
