import { ROLES_FETCH_DELAY_MS, SESSION_MAX_FAILURES, SESSION_RECHECK_MS } from '../../../shared/common/spec-constants';
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
  let online: boolean;
  let answeredMeanwhile: boolean;

  beforeEach(() => {
    online = true;
    answeredMeanwhile = true;
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
      isOnline: () => online,
      answeredSince: () => answeredMeanwhile,
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
    answers = Array.from({ length: 20 }, (): SessionCheck => ({ kind: 'failed', message: 'down' }));
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

  describe("a 401 while one of the page's own writes was out (its answer may re-issue this session)", () => {
    /** A manager whose page has one write out until `answerWrite` is called. */
    function withWriteOut(checkAnswers: SessionCheck[]) {
      let writeOut = true;
      const started = 1;
      const waiting: (() => void)[] = [];
      const answerWrite = () => {
        writeOut = false;
        waiting.splice(0).forEach((w) => w());
      };
      answers = checkAnswers;
      sut = new SessionManager({
        checkSession: async () => {
          checks++;
          return answers.shift() ?? { kind: 'ok', context: context() };
        },
        fetchRoles: async () => ROLES,
        logout: async () => {
          logouts++;
        },
        onSignedOut: (reason) => signedOut.push(reason),
        ownWrites: {
          mark: () => (writeOut ? -1 : started),
          settled: async (mark) => {
            const overlapped = mark === -1 || writeOut || mark !== started;
            if (writeOut) await new Promise<void>((r) => waiting.push(r));
            return overlapped;
          },
        },
        now: clock.now,
        setTimer: clock.setTimer,
        clearTimer: clock.clearTimer,
      });
      return { answerWrite };
    }

    it('checks again once the write has answered, and stays signed in when that check holds', async () => {
      const { answerWrite } = withWriteOut([{ kind: 'unauthorized', code: 'REVOKED', message: 'The session has ended' }]);
      sut.start(context());
      await clock.advance(SESSION_RECHECK_MS);
      expect(checks).toBe(1);
      expect(sut.getState().status).toBe('loaded');
      answerWrite();
      await clock.advance(0);
      expect(checks).toBe(2);
      expect(sut.getState()).toMatchObject({ status: 'loaded', failures: 0 });
      expect(signedOut).toEqual([]);
      expect(logouts).toBe(0);
    });

    it('signs out when the check after the write says 401 too', async () => {
      const { answerWrite } = withWriteOut([
        { kind: 'unauthorized', code: 'REVOKED', message: 'The session has ended' },
        { kind: 'unauthorized', code: 'REVOKED', message: 'The session has ended' },
      ]);
      sut.start(context());
      await clock.advance(SESSION_RECHECK_MS);
      answerWrite();
      await clock.advance(0);
      expect(checks).toBe(2);
      expect(sut.getState()).toMatchObject({ status: 'signedOut', signOutReason: 'REVOKED' });
      expect(signedOut).toEqual(['REVOKED']);
    });

    it('a 401 to a check sent after the last write had answered signs out at once', async () => {
      const { answerWrite } = withWriteOut([{ kind: 'unauthorized', code: 'REVOKED', message: 'The session has ended' }]);
      answerWrite();
      sut.start(context());
      await clock.advance(SESSION_RECHECK_MS);
      expect(checks).toBe(1);
      expect(sut.getState()).toMatchObject({ status: 'signedOut', signOutReason: 'REVOKED' });
    });

    it("stillSignedIn (a call's 401) waits for the write, then answers what a fresh check says", async () => {
      const { answerWrite } = withWriteOut([]);
      sut.start(context());
      const held = sut.stillSignedIn();
      await clock.advance(0);
      expect(checks).toBe(0);
      answerWrite();
      await expect(held).resolves.toBe(true);
      expect(checks).toBe(1);
      answers = [{ kind: 'unauthorized', code: 'REVOKED', message: 'The session has ended' }];
      await expect(sut.stillSignedIn()).resolves.toBe(false);
      expect(signedOut).toEqual(['REVOKED']);
    });
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
  describe('what each kind of answer does to the counter (a dropped link never signs out)', () => {
    const cases: { name: string; answer: () => SessionCheck; counts: boolean; offline?: boolean; silent?: boolean }[] = [
      { name: 'a 500 answer', answer: () => ({ kind: 'failed', message: 'boom', status: 500 }), counts: true },
      { name: 'a 502 from a proxy', answer: () => ({ kind: 'failed', message: 'bad gateway', status: 502 }), counts: true },
      { name: 'a 503 answer', answer: () => ({ kind: 'failed', message: 'down', status: 503 }), counts: true },
      { name: 'a 404 or other unexpected status', answer: () => ({ kind: 'failed', message: 'not found', status: 404 }), counts: true },
      {
        name: 'a time-out of an answering server (online, other requests answered meanwhile)',
        answer: () => ({ kind: 'failed', message: 'The session check timed out' }),
        counts: true,
      },
      {
        name: 'a time-out with nothing answered meanwhile (a silent drop)',
        answer: () => ({ kind: 'failed', message: 'The session check timed out' }),
        counts: false,
        silent: true,
      },
      {
        name: 'a 502 even when nothing else answered meanwhile (it is an answer)',
        answer: () => ({ kind: 'failed', message: 'bad gateway', status: 502 }),
        counts: true,
        silent: true,
      },
      { name: 'a malformed or incomplete 200', answer: () => ({ kind: 'ok', context: { user: null } as unknown as TSessionContext }), counts: true },
      { name: 'no answer at all (fetch rejected)', answer: () => ({ kind: 'unreachable', message: 'Failed to fetch' }), counts: false },
      {
        name: 'a time-out while the browser is offline',
        answer: () => ({ kind: 'failed', message: 'The session check timed out' }),
        counts: false,
        offline: true,
      },
      {
        name: 'a 503 answer even while the browser says offline (it did answer)',
        answer: () => ({ kind: 'failed', message: 'x', status: 503 }),
        counts: true,
        offline: true,
      },
    ];
    for (const c of cases) {
      it(`${c.name} ${c.counts ? 'counts as a failed check' : 'does not count, and marks the state unreachable'}`, async () => {
        answers = [{ kind: 'failed', message: 'first', status: 500 }, c.answer(), c.answer()];
        sut.start(context());
        await clock.advance(SESSION_RECHECK_MS);
        expect(sut.getState().failures).toBe(1);
        online = !c.offline;
        answeredMeanwhile = !c.silent;
        await clock.advance(SESSION_RECHECK_MS * 2);
        expect(sut.getState()).toMatchObject({ status: 'loaded', failures: c.counts ? 3 : 1, unreachable: !c.counts });
        expect(sut.getState().errors.at(-1)?.kind).toBe(c.counts ? (c.name.includes('malformed') ? 'incomplete' : 'network') : 'unreachable');
        // The next answer clears `unreachable`; a success resets the counter.
        online = true;
        answeredMeanwhile = true;
        await clock.advance(SESSION_RECHECK_MS);
        expect(sut.getState()).toMatchObject({ status: 'loaded', failures: 0, unreachable: false });
        expect(signedOut).toEqual([]);
      });
    }

    it('a check that throws counts as failed', async () => {
      sut = new SessionManager({
        checkSession: async () => {
          throw new Error('bug');
        },
        fetchRoles: async () => ROLES,
        logout: async () => undefined,
        onSignedOut: (reason) => signedOut.push(reason),
        isOnline: () => true,
        now: clock.now,
        setTimer: clock.setTimer,
        clearTimer: clock.clearTimer,
      });
      sut.start(context());
      await clock.advance(SESSION_RECHECK_MS * 3);
      expect(sut.getState().failures).toBe(3);
    });

    it('a 30-s drop (offline, every check rejected) keeps the session, and the first answer after it resets the counter', async () => {
      const drop = (30_000 / SESSION_RECHECK_MS) | 0;
      answers = [
        ...Array.from({ length: 3 }, (): SessionCheck => ({ kind: 'failed', message: '502', status: 502 })),
        ...Array.from({ length: drop }, (): SessionCheck => ({ kind: 'unreachable', message: 'Failed to fetch' })),
      ];
      sut.start(context());
      await clock.advance(SESSION_RECHECK_MS * 3);
      online = false;
      await clock.advance(SESSION_RECHECK_MS * drop);
      expect(checks).toBe(3 + drop);
      expect(sut.getState()).toMatchObject({ status: 'loaded', failures: 3, unreachable: true });
      expect(signedOut).toEqual([]);
      expect(logouts).toBe(0);
      online = true;
      await clock.advance(SESSION_RECHECK_MS);
      expect(sut.getState()).toMatchObject({ status: 'loaded', failures: 0, unreachable: false });
    });

    it('a drop between failed answers neither resets nor adds: 11 answered failures in a row still sign out', async () => {
      const fail = (): SessionCheck => ({ kind: 'failed', message: '503', status: 503 });
      const gone = (): SessionCheck => ({ kind: 'unreachable', message: 'Failed to fetch' });
      answers = [...Array.from({ length: 6 }, fail), gone(), gone(), gone(), ...Array.from({ length: 5 }, fail)];
      sut.start(context());
      await clock.advance(SESSION_RECHECK_MS * 13);
      expect(sut.getState()).toMatchObject({ status: 'loaded', failures: SESSION_MAX_FAILURES });
      await clock.advance(SESSION_RECHECK_MS);
      expect(sut.getState()).toMatchObject({ status: 'signedOut', signOutReason: 'FAILURES' });
      expect(signedOut).toEqual(['FAILURES']);
    });

    it(`11 consecutive 5xx answers sign out (the spec's rule is kept for answers)`, async () => {
      answers = Array.from({ length: SESSION_MAX_FAILURES + 1 }, (): SessionCheck => ({ kind: 'failed', message: '500', status: 500 }));
      sut.start(context());
      await clock.advance(SESSION_RECHECK_MS * (SESSION_MAX_FAILURES + 1));
      expect(sut.getState()).toMatchObject({ status: 'signedOut', signOutReason: 'FAILURES' });
      expect(logouts).toBe(1);
    });

    it('a 401 while the state was unreachable still signs out at once', async () => {
      answers = [
        { kind: 'unreachable', message: 'Failed to fetch' },
        { kind: 'unauthorized', code: 'REVOKED', message: 'gone' },
      ];
      sut.start(context());
      await clock.advance(SESSION_RECHECK_MS);
      expect(sut.getState().unreachable).toBe(true);
      await clock.advance(SESSION_RECHECK_MS);
      expect(sut.getState()).toMatchObject({ status: 'signedOut', signOutReason: 'REVOKED' });
    });
  });
});
