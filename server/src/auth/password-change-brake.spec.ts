import 'reflect-metadata';
import { TRPCError } from '@trpc/server';
import { MemoryLoginAttempts } from '../../../test/factories/memory-login-attempts';
import { NO_DATABASE } from '../../../test/factories/memory-sessions';
import { loadConfig } from '../api/app-config';
import { PasswordChangeBrake } from './password-change-brake';

/** The password-change brake's rule with an in-memory stand-in for its repository (no database; times passed in). */
describe('PasswordChangeBrake rules', () => {
  const config = loadConfig({ PASSWORD_CHANGES_PER_MINUTE: '3', LOGIN_WINDOW_SECONDS: '900' });
  const t0 = 1_700_000_000_000;
  let store: MemoryLoginAttempts;
  let sut: PasswordChangeBrake;

  beforeEach(() => {
    store = new MemoryLoginAttempts();
    sut = new PasswordChangeBrake(NO_DATABASE, config, store.asRepository());
  });
  afterEach(() => sut.onModuleDestroy());

  /** The refusal of one admission, or undefined when it was admitted. */
  const refusal = async (user_cuid: string, now: number) => {
    try {
      await sut.admit(user_cuid, now);
      return undefined;
    } catch (e) {
      if (!(e instanceof TRPCError)) throw e;
      return { code: e.code, message: e.message };
    }
  };

  it('admits PASSWORD_CHANGES_PER_MINUTE changes a minute, then answers 429 with the seconds until the oldest leaves the minute', async () => {
    expect(await refusal('u-ada', t0)).toBeUndefined();
    expect(await refusal('u-ada', t0 + 10_000)).toBeUndefined();
    expect(await refusal('u-ada', t0 + 20_000)).toBeUndefined();
    expect(await refusal('u-ada', t0 + 20_500)).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Too many password changes; try again in 40 s' });
    expect(await refusal('u-ada', t0 + 59_999)).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Too many password changes; try again in 1 s' });
    expect(store.passwordChanges.map((c) => c.at.getTime())).toEqual([t0, t0 + 10_000, t0 + 20_000]); // a refusal counts nothing
  });

  it('slides its minute: a change a full minute old no longer counts', async () => {
    for (const dt of [0, 1, 2]) await sut.admit('u-ada', t0 + dt);
    expect((await refusal('u-ada', t0 + 59_000))?.code).toBe('TOO_MANY_REQUESTS');
    expect(await refusal('u-ada', t0 + 60_000)).toBeUndefined();
    expect((await refusal('u-ada', t0 + 60_000))?.code).toBe('TOO_MANY_REQUESTS'); // changes at t0+1 ms, t0+2 ms, t0+60 s
    expect(await refusal('u-ada', t0 + 60_001)).toBeUndefined();
  });

  it('counts per acting user: one user at the limit does not brake another', async () => {
    for (let i = 0; i < 3; i++) await sut.admit('u-admin', t0);
    expect((await refusal('u-admin', t0))?.code).toBe('TOO_MANY_REQUESTS');
    expect(await refusal('u-bob', t0)).toBeUndefined();
    expect(store.passwordChanges.filter((c) => c.user_cuid === 'u-bob')).toHaveLength(1);
  });

  it('counts under the user’s lock: concurrent changes past the limit are refused', async () => {
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => refusal('u-ada', t0)));
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(3);
    expect(outcomes.filter((o) => o?.code === 'TOO_MANY_REQUESTS')).toHaveLength(5);
    expect(new Set(store.locks)).toEqual(new Set(['password:u-ada']));
    expect(store.locks).toHaveLength(8);
  });
});
