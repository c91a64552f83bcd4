import { type Cluster, startDemoCluster } from '../factories/cluster';
import type { TestDatabase } from '../factories/database';
import { HttpClient } from '../factories/http-client';

/**
 * Two built instances on one PostgreSQL behind a real HAProxy (npm run build first; PostgreSQL:
 * TEST_DATABASE_URL). The harness itself: both come up together (migrations and seeds take turns),
 * HAProxy health-checks them, a session made through the proxy opens on either instance, and a
 * killed instance is taken out while the other goes on answering.
 */
describe('two instances behind HAProxy', () => {
  let db: TestDatabase;
  let cluster: Cluster;

  beforeAll(async () => {
    ({ db, cluster } = await startDemoCluster());
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    await db?.close();
  });

  it('a session made through the proxy opens on every instance', async () => {
    const client = new HttpClient(cluster.url);
    expect((await client.login('installer@demo.local')).status).toBe(200);
    for (const inst of cluster.instances) {
      const direct = new HttpClient(`http://127.0.0.1:${inst.port}`);
      for (const [k, v] of client.cookies) direct.cookies.set(k, v);
      const session = await direct.request<{ user: { email: string } }>('GET', '/api/auth/session');
      expect(session.status).toBe(200);
      expect(JSON.stringify(session.body)).toContain('installer@demo.local');
    }
  });

  it('kill -9 of one instance: HAProxy marks it down and every request still gets an answer', async () => {
    const client = new HttpClient(cluster.url);
    expect((await client.login('installer@demo.local')).status).toBe(200);
    await cluster.kill('a');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await client.query('system.getList', { pagination: { page: 1, perPage: 5 }, filter: {} })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    await cluster.restart('a');
    expect(await cluster.proxy.serverStates()).toEqual({ a: expect.stringMatching(/^UP/), b: expect.stringMatching(/^UP/) });
  });
});
