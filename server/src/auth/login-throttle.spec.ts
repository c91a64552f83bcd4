import 'reflect-metadata';
import { createTestDataSource, type TestDatabase } from '../../../test/factories/database';
import { MemoryLoginAttempts } from '../../../test/factories/memory-login-attempts';
import { NO_DATABASE } from '../../../test/factories/memory-sessions';
import { loadConfig } from '../api/app-config';
import { LoginAttemptsRepository } from './login-attempts.repository';
import { LoginThrottle, type ThrottleVerdict } from './login-throttle';

/** On PostgreSQL when TEST_DATABASE_URL is set, otherwise on an in-memory PGlite (the brake lives in login_attempt). */
describe('LoginThrottle', () => {
  const config = loadConfig({
    LOGIN_FREE_ATTEMPTS: '3',
    LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '6',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '10',
    LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL: '15',
    LOGIN_WINDOW_SECONDS: '60',
  });
  const t0 = 1_700_000_000_000;
  let db: TestDatabase;
  let sut: LoginThrottle;
  let run = 0;
  /** A fresh account name per test: the table is shared by the tests of this file. */
  let acct: (name: string) => string;

  beforeAll(async () => {
    db = await createTestDataSource();
  });
  afterAll(async () => {
    sut?.onModuleDestroy();
    await db?.close();
  });
  beforeEach(() => {
    sut?.onModuleDestroy();
    sut = new LoginThrottle(db.dataSource, config, new LoginAttemptsRepository(db.dataSource));
    const r = ++run;
    acct = (name) => `${name}-${r}@x.io`;
  });

  const ticketOf = (v: ThrottleVerdict) => {
    if (v.blocked) throw new Error('expected an attempt');
    return v.ticket;
  };

  it('lets the first failures through, then delays grow, then 429 for that address until the window passes', async () => {
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const v = await sut.reserve(acct('a'), '1.1.1.1', t0 + i);
      expect(v.blocked).toBe(false);
      delays.push(v.blocked ? -1 : v.delayMs);
      // a wrong password: the reservation stays as the failure
    }
    expect(delays).toEqual([0, 0, 0, 250, 500, 1000]);
    expect(await sut.reserve(acct('a').toUpperCase(), '1.1.1.1', t0 + 10)).toEqual({ blocked: true, retryAfterSeconds: 60 });
    expect((await sut.reserve(acct('a'), '1.1.1.1', t0 + 61_000)).blocked).toBe(false);
  });

  it('reserves before the password is checked: concurrent attempts past the limit are refused at once', async () => {
    const verdicts = await Promise.all(Array.from({ length: 40 }, () => sut.reserve(acct('c'), '9.9.9.9', t0)));
    expect(verdicts.filter((v) => !v.blocked)).toHaveLength(6);
  });

  it('counts the attempts of every instance together (two brakes on one database)', async () => {
    const other = new LoginThrottle(db.dataSource, config, new LoginAttemptsRepository(db.dataSource));
    try {
      const verdicts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? sut : other).reserve(acct('multi'), '9.9.9.8', t0)));
      expect(verdicts.filter((v) => !v.blocked)).toHaveLength(6);
    } finally {
      other.onModuleDestroy();
    }
  });

  it("the account's owner from an address without failures is not locked out by an attacker's address", async () => {
    for (let i = 0; i < 6; i++) await sut.reserve(acct('owner'), '6.6.6.6', t0);
    expect((await sut.reserve(acct('owner'), '6.6.6.6', t0 + 1)).blocked).toBe(true);
    expect(await sut.reserve(acct('owner'), '7.7.7.7', t0 + 1)).toMatchObject({ blocked: false, delayMs: 0 });
  });

  it('caps an account over all addresses at the larger total', async () => {
    for (let a = 0; a < 3; a++) for (let i = 0; i < 5; i++) expect((await sut.reserve(acct('d'), `8.8.8.${a}`, t0)).blocked).toBe(false);
    expect(await sut.reserve(acct('d'), '8.8.8.200', t0 + 1)).toEqual({ blocked: true, retryAfterSeconds: 60 });
  });

  it('brakes per address across accounts', async () => {
    for (let i = 0; i < 10; i++) await sut.reserve(acct(`user${i}`), '3.3.3.3', t0);
    expect((await sut.reserve(acct('fresh'), '3.3.3.3', t0 + 1)).blocked).toBe(true);
    expect(await sut.reserve(acct('fresh'), '4.4.4.4', t0 + 1)).toMatchObject({ blocked: false, delayMs: 0 });
  });

  it('a success clears the failures of that account from that address; a release gives the attempt back', async () => {
    for (let i = 0; i < 5; i++) await sut.reserve(acct('b'), '5.5.5.5', t0);
    await sut.succeed(ticketOf(await sut.reserve(acct('b'), '5.5.5.5', t0)));
    expect(await sut.reserve(acct('b'), '5.5.5.5', t0 + 1)).toMatchObject({ blocked: false, delayMs: 0 });

    for (let i = 0; i < 5; i++) await sut.reserve(acct('e'), '5.5.5.6', t0);
    await sut.release(ticketOf(await sut.reserve(acct('e'), '5.5.5.6', t0)));
    expect((await sut.reserve(acct('e'), '5.5.5.6', t0)).blocked).toBe(false);
    expect((await sut.reserve(acct('e'), '5.5.5.6', t0)).blocked).toBe(true);
  });
});

/** The same rules with an in-memory stand-in for the repository (no database; times passed in). */
describe('LoginThrottle rules (in memory)', () => {
  const t0 = 1_700_000_000_000;
  let store: MemoryLoginAttempts;
  const made: LoginThrottle[] = [];
  const throttle = (free: number, perPair: number, perAddress: number, perAccount: number) => {
    const config = loadConfig({
      LOGIN_FREE_ATTEMPTS: String(free),
      LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: String(perPair),
      LOGIN_MAX_ATTEMPTS_PER_ADDRESS: String(perAddress),
      LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL: String(perAccount),
      LOGIN_WINDOW_SECONDS: '60',
    });
    const t = new LoginThrottle(NO_DATABASE, config, store.asRepository());
    made.push(t);
    return t;
  };
  beforeEach(() => {
    store = new MemoryLoginAttempts();
  });
  afterEach(() => {
    for (const t of made.splice(0)) t.onModuleDestroy();
  });

  const delayOf = (v: ThrottleVerdict) => (v.blocked ? `blocked ${v.retryAfterSeconds} s` : v.delayMs);
  const ticketOf = (v: ThrottleVerdict) => {
    if (v.blocked) throw new Error('expected an attempt');
    return v.ticket;
  };

  it('doubles the delay per account and address after the free failures, never past 8 s, then refuses', async () => {
    const sut = throttle(1, 10, 50, 100);
    const delays: (number | string)[] = [];
    for (let i = 0; i < 11; i++) delays.push(delayOf(await sut.reserve('ada@x.io', '1.1.1.1', t0 + i * 1000)));
    expect(delays).toEqual([0, 250, 500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 'blocked 50 s']); // the 11th at t0 + 10 s: the first (t0) leaves at t0 + 60 s
    expect(store.logins).toHaveLength(10); // the refused attempt counts nothing
  });

  it('counts the account as typed whatever its case and spaces, and the address by its first 100 characters', async () => {
    const sut = throttle(1, 10, 50, 100);
    const long = 'x'.repeat(100);
    expect(ticketOf(await sut.reserve('  Ada@X.io ', `${long}-first`, t0))).toMatchObject({ account: 'ada@x.io', address: long });
    expect(delayOf(await sut.reserve('ADA@x.io', `${long}-second`, t0))).toBe(250);
    expect(store.logins.map((a) => [a.account, a.address])).toEqual([
      ['ada@x.io', long],
      ['ada@x.io', long],
    ]);
  });

  it('refuses until the oldest counted attempt leaves the window, then lets one through', async () => {
    const sut = throttle(5, 3, 50, 100);
    for (const dt of [0, 5_000, 10_000]) await sut.reserve('ada@x.io', '1.1.1.1', t0 + dt);
    expect(await sut.reserve('ada@x.io', '1.1.1.1', t0 + 20_000)).toEqual({ blocked: true, retryAfterSeconds: 40 });
    expect(await sut.reserve('ada@x.io', '1.1.1.1', t0 + 59_999)).toEqual({ blocked: true, retryAfterSeconds: 1 });
    expect((await sut.reserve('ada@x.io', '1.1.1.1', t0 + 60_000)).blocked).toBe(false);
    expect((await sut.reserve('ada@x.io', '1.1.1.1', t0 + 60_000)).blocked).toBe(true);
  });

  it('locks an account at one address only, until its attempts over every address reach the larger total', async () => {
    const sut = throttle(5, 3, 50, 7);
    for (let i = 0; i < 3; i++) await sut.reserve('ada@x.io', '6.6.6.6', t0);
    expect((await sut.reserve('ada@x.io', '6.6.6.6', t0)).blocked).toBe(true);
    // The owner, from an address without failures, signs in as if nothing happened.
    expect(await sut.reserve('ada@x.io', '7.7.7.7', t0)).toMatchObject({ blocked: false, delayMs: 0 });
    for (let i = 0; i < 3; i++) expect((await sut.reserve('ada@x.io', `8.8.8.${i}`, t0)).blocked).toBe(false);
    expect(await sut.reserve('ada@x.io', '9.9.9.9', t0 + 1000)).toEqual({ blocked: true, retryAfterSeconds: 59 });
    expect((await sut.reserve('bob@x.io', '9.9.9.9', t0 + 1000)).blocked).toBe(false);
  });

  it('brakes one address guessing across accounts: delays past the per-account count, then refusal at its own ceiling', async () => {
    const sut = throttle(1, 3, 6, 100);
    const delays: (number | string)[] = [];
    for (let i = 0; i < 7; i++) delays.push(delayOf(await sut.reserve(`user${i}@x.io`, '3.3.3.3', t0)));
    expect(delays).toEqual([0, 0, 0, 0, 250, 500, 'blocked 60 s']);
    expect(await sut.reserve('user7@x.io', '4.4.4.4', t0)).toMatchObject({ blocked: false, delayMs: 0 });
  });

  it("a success clears that account's failures from that address only; a release gives back its own attempt only", async () => {
    const sut = throttle(1, 10, 50, 100);
    for (let i = 0; i < 3; i++) await sut.reserve('ada@x.io', '5.5.5.5', t0);
    for (let i = 0; i < 2; i++) await sut.reserve('ada@x.io', '5.5.5.6', t0);
    await sut.reserve('bob@x.io', '5.5.5.5', t0);
    await sut.succeed(ticketOf(await sut.reserve('ada@x.io', '5.5.5.5', t0)));
    expect(store.logins.map((a) => `${a.account} ${a.address}`).sort()).toEqual(['ada@x.io 5.5.5.6', 'ada@x.io 5.5.5.6', 'bob@x.io 5.5.5.5']);
    expect(delayOf(await sut.reserve('ada@x.io', '5.5.5.5', t0))).toBe(0);

    const before = store.logins.length;
    const released = ticketOf(await sut.reserve('ada@x.io', '5.5.5.6', t0));
    await sut.release(released);
    expect(store.logins).toHaveLength(before);
    expect(store.logins.some((a) => a.ticket === released.ticket)).toBe(false);
    expect(delayOf(await sut.reserve('ada@x.io', '5.5.5.6', t0))).toBe(500);
  });

  it('counts each attempt under its account then address lock, so concurrent guesses cannot pass the ceiling together', async () => {
    const sut = throttle(5, 3, 50, 100);
    const verdicts = await Promise.all(Array.from({ length: 12 }, () => sut.reserve('ada@x.io', '2.2.2.2', t0)));
    expect(verdicts.filter((v) => !v.blocked)).toHaveLength(3);
    expect(store.locks.slice(0, 2)).toEqual(['account:ada@x.io', 'address:2.2.2.2']);
    expect(store.locks).toHaveLength(24);
  });
});
