import { type Cluster, startDemoCluster } from '../factories/cluster';
import type { TestDatabase } from '../factories/database';
import { HttpClient } from '../factories/http-client';

/** The configured totals: small, so the test is quick; no growing delay (free attempts above the total). */
const PER_ACCOUNT = 6;
const CHANGES_PER_MINUTE = 4;

/**
 * The brakes count across instances (two built instances on one PostgreSQL behind HAProxy; npm run
 * build first): attempts sent to A and to B in turn add up to one total, so N instances do not give
 * an attacker N times the attempts.
 */
describe('brakes shared by two instances', () => {
  let db: TestDatabase;
  let cluster: Cluster;
  const direct = (name: string) => new HttpClient(`http://127.0.0.1:${cluster.instances.find((i) => i.name === name)!.port}`);

  beforeAll(async () => {
    ({ db, cluster } = await startDemoCluster({
      env: {
        LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: String(PER_ACCOUNT),
        LOGIN_FREE_ATTEMPTS: '50',
        PASSWORD_CHANGES_PER_MINUTE: String(CHANGES_PER_MINUTE),
      },
    }));
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    await db?.close();
  });

  it('failed logins alternating between the instances trip the login brake at the configured total', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_ACCOUNT; i++) statuses.push((await direct(i % 2 === 0 ? 'a' : 'b').login('expert@demo.local', 'wrong-password')).status);
    expect(statuses).toEqual(Array(PER_ACCOUNT).fill(401));
    // The next attempt is refused wherever it lands, even with the right password: through the proxy and on each instance.
    const viaProxy = await new HttpClient(cluster.url).login('expert@demo.local');
    expect(viaProxy.status).toBe(429);
    expect(Number(viaProxy.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const name of ['a', 'b']) expect((await direct(name).login('expert@demo.local')).status).toBe(429);
    // Another account is untouched (the brake is per account and address, not global).
    expect((await new HttpClient(cluster.url).login('installer@demo.local')).status).toBe(200);
  });

  it('password changes alternating between the instances trip the password-change brake at the configured total', async () => {
    const client = new HttpClient(cluster.url);
    expect((await client.login('basic@demo.local')).status).toBe(200);
    const on = (name: string) => {
      const c = direct(name);
      for (const [k, v] of client.cookies) c.cookies.set(k, v);
      return c;
    };
    let current = 'demo-password';
    for (let i = 0; i < CHANGES_PER_MINUTE; i++) {
      const next = `a-new-password-${i}-for-basic`;
      const c = on(i % 2 === 0 ? 'a' : 'b');
      const res = await c.mutate('account.changePassword', { current_password: current, new_password: next });
      expect(res.error?.message ?? res.status).toBe(200);
      // The session goes on with the cookie the change renewed.
      for (const [k, v] of c.cookies) client.cookies.set(k, v);
      current = next;
    }
    for (const name of ['a', 'b']) {
      const refused = await on(name).mutate('account.changePassword', { current_password: current, new_password: 'one-more-password-for-basic' });
      expect(refused.status).toBe(429);
      expect(refused.error?.data.code).toBe('TOO_MANY_REQUESTS');
    }
    // Nothing was hashed for the refused ones: the last admitted password still signs in.
    expect((await new HttpClient(cluster.url).login('basic@demo.local', current)).status).toBe(200);
  });
});
