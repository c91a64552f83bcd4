import { loadConfig } from '../config/config';
import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  const config = loadConfig({ LOGIN_FREE_ATTEMPTS: '3', LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '6', LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '10', LOGIN_WINDOW_SECONDS: '60' });
  const t0 = 1_700_000_000_000;

  it('lets the first failures through, then delays grow, then 429 until the window passes', () => {
    const sut = new LoginThrottle(config);
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const v = sut.verdict('a@x.io', '1.1.1.1', t0 + i);
      expect(v.blocked).toBe(false);
      delays.push(v.blocked ? -1 : v.delayMs);
      sut.fail('a@x.io', '1.1.1.1', t0 + i);
    }
    expect(delays).toEqual([0, 0, 0, 250, 500, 1000]);
    const blocked = sut.verdict('A@X.io', '2.2.2.2', t0 + 10);
    expect(blocked).toEqual({ blocked: true, retryAfterSeconds: 60 });
    expect(sut.verdict('a@x.io', '1.1.1.1', t0 + 61_000).blocked).toBe(false);
  });

  it('brakes per address across accounts', () => {
    const sut = new LoginThrottle(config);
    for (let i = 0; i < 10; i++) sut.fail(`user${i}@x.io`, '3.3.3.3', t0);
    expect(sut.verdict('fresh@x.io', '3.3.3.3', t0 + 1).blocked).toBe(true);
    expect(sut.verdict('fresh@x.io', '4.4.4.4', t0 + 1)).toEqual({ blocked: false, delayMs: 0 });
  });

  it('a success clears the account counter', () => {
    const sut = new LoginThrottle(config);
    for (let i = 0; i < 5; i++) sut.fail('b@x.io', '5.5.5.5', t0);
    sut.succeed('b@x.io');
    expect(sut.verdict('b@x.io', '6.6.6.6', t0 + 1)).toEqual({ blocked: false, delayMs: 0 });
  });
});
