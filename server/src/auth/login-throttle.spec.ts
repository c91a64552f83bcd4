import 'reflect-metadata';
import { createTestDataSource, type TestDatabase } from '../../../test/factories/database';
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
