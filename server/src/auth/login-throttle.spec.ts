import { loadConfig } from '../config/config';
import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  const config = loadConfig({
    LOGIN_FREE_ATTEMPTS: '3',
    LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '6',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '10',
    LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL: '15',
    LOGIN_WINDOW_SECONDS: '60',
  });
  const t0 = 1_700_000_000_000;

  it('lets the first failures through, then delays grow, then 429 for that address until the window passes', () => {
    const sut = new LoginThrottle(config);
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const v = sut.reserve('a@x.io', '1.1.1.1', t0 + i);
      expect(v.blocked).toBe(false);
      delays.push(v.blocked ? -1 : v.delayMs);
      // a wrong password: the reservation stays as the failure
    }
    expect(delays).toEqual([0, 0, 0, 250, 500, 1000]);
    expect(sut.reserve('A@X.io', '1.1.1.1', t0 + 10)).toEqual({ blocked: true, retryAfterSeconds: 60 });
    expect(sut.reserve('a@x.io', '1.1.1.1', t0 + 61_000).blocked).toBe(false);
  });

  it('reserves before the password is checked: concurrent attempts past the limit are refused at once', () => {
    const sut = new LoginThrottle(config);
    const verdicts = Array.from({ length: 40 }, () => sut.reserve('c@x.io', '9.9.9.9', t0));
    expect(verdicts.filter((v) => !v.blocked)).toHaveLength(6);
  });

  it('the account\'s owner from an address without failures is not locked out by an attacker\'s address', () => {
    const sut = new LoginThrottle(config);
    for (let i = 0; i < 6; i++) sut.reserve('owner@x.io', '6.6.6.6', t0);
    expect(sut.reserve('owner@x.io', '6.6.6.6', t0 + 1).blocked).toBe(true);
    expect(sut.reserve('owner@x.io', '7.7.7.7', t0 + 1)).toMatchObject({ blocked: false, delayMs: 0 });
  });

  it('caps an account over all addresses at the larger total', () => {
    const sut = new LoginThrottle(config);
    for (let a = 0; a < 3; a++) for (let i = 0; i < 5; i++) expect(sut.reserve('d@x.io', `8.8.8.${a}`, t0).blocked).toBe(false);
    expect(sut.reserve('d@x.io', '8.8.8.200', t0 + 1)).toEqual({ blocked: true, retryAfterSeconds: 60 });
  });

  it('brakes per address across accounts', () => {
    const sut = new LoginThrottle(config);
    for (let i = 0; i < 10; i++) sut.reserve(`user${i}@x.io`, '3.3.3.3', t0);
    expect(sut.reserve('fresh@x.io', '3.3.3.3', t0 + 1).blocked).toBe(true);
    expect(sut.reserve('fresh@x.io', '4.4.4.4', t0 + 1)).toMatchObject({ blocked: false, delayMs: 0 });
  });

  it('a success clears the failures of that account from that address; a release gives the attempt back', () => {
    const sut = new LoginThrottle(config);
    for (let i = 0; i < 5; i++) sut.reserve('b@x.io', '5.5.5.5', t0);
    const ok = sut.reserve('b@x.io', '5.5.5.5', t0);
    if (ok.blocked) throw new Error('expected an attempt');
    sut.succeed(ok.ticket);
    expect(sut.reserve('b@x.io', '5.5.5.5', t0 + 1)).toMatchObject({ blocked: false, delayMs: 0 });
    const other = new LoginThrottle(config);
    for (let i = 0; i < 5; i++) other.reserve('e@x.io', '5.5.5.5', t0);
    const last = other.reserve('e@x.io', '5.5.5.5', t0);
    if (last.blocked) throw new Error('expected an attempt');
    other.release(last.ticket);
    expect(other.reserve('e@x.io', '5.5.5.5', t0).blocked).toBe(false);
    expect(other.reserve('e@x.io', '5.5.5.5', t0).blocked).toBe(true);
  });
});
