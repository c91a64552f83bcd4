import { request } from 'node:http';
import { AlertEngine } from '../../server/src/alerts/engine/alert-engine.worker';
import { SharedSignals } from '../../server/src/database/shared-signals';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { issueSimulatorToken } from '../../server/src/simulator/fleet';
import { eventually } from '../factories/alert-fixtures';
import type { HttpClient } from '../factories/http-client';
import { type AlertTestApp, eventsOf, ingest, startAlertApp } from '../alerts/support';

/**
 * Two portal instances (each its own Nest application, caches, trigger engine and LISTEN
 * connection) on one PostgreSQL: a write on A is seen on B at once, not after a cache's lifetime.
 * "At once" is measured against the caches' lifetimes: brands live 10 s, list counts 5 s, the
 * controller directory 60 s here, and the engine's periodic trigger check is off.
 */
const SETTINGS = { ALERTS_INDEX_CHECK_SECONDS: '0', TELEMETRY_CACHE_TTL_MS: '60000' };
/** Well below every cache lifetime above: what "at once" allows for a notice to travel. */
/**
 * A change must be seen on the other instance before the caches' own lifetimes could have dropped
 * it (list counts 5 s, brands 10 s): that order proves the signal did it, however busy the machine.
 */
const AT_ONCE_MS = 4_500;

describe('shared state between two instances', () => {
  let a: AlertTestApp;
  let b: AlertTestApp;
  let superA: HttpClient;
  let superB: HttpClient;
  /** The demo company's live token (each app's fixture issued one under the same name: B's is the live one). */
  let token: string;

  beforeAll(async () => {
    a = await startAlertApp({ env: SETTINGS });
    b = await startAlertApp({ db: a.db, env: SETTINGS, clock: a.clock });
    superA = await a.client('superuser@demo.local');
    superB = await b.client('superuser@demo.local');
    token = b.demo.demoToken;
  });
  afterAll(async () => {
    await b?.close(false);
    await a?.close();
  });

  /** GET /api/branding on an instance as if asked for `host`. */
  const brandOf = (app: AlertTestApp, host: string) =>
    new Promise<{ title: string }>((done, fail) => {
      const url = new URL(app.baseUrl);
      const req = request({ host: url.hostname, port: url.port, path: '/api/branding', headers: { host } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => done(JSON.parse(body) as { title: string }));
      });
      req.on('error', fail);
      req.end();
    });

  /** Polls `read` until it equals `want`, failing after AT_ONCE_MS; answers how long it took. */
  async function soon<T>(read: () => Promise<T>, want: T): Promise<number> {
    const start = Date.now();
    for (;;) {
      const got = await read();
      if (JSON.stringify(got) === JSON.stringify(want)) return Date.now() - start;
      if (Date.now() - start > AT_ONCE_MS) expect(got).toEqual(want);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a brand changed on A shows on B at once', async () => {
    expect((await superA.mutate('rootDomain.create', { data: { name: 'shared-brand.example', root_domain_data: { title: 'First title' } } })).status).toBe(200);
    expect((await brandOf(b, 'portal.shared-brand.example')).title).toBe('First title'); // cached on B now (10 s)
    expect((await superA.mutate('rootDomain.update', { id: 'shared-brand.example', data: { root_domain_data: { title: 'Second title' } } })).status).toBe(200);
    await soon(async () => (await brandOf(b, 'portal.shared-brand.example')).title, 'Second title');
  });

  it('a list total on B counts a row inserted on A at once', async () => {
    const total = async () => (await superB.query<{ total: number }>('rootDomain.getList', { pagination: { page: 1, perPage: 1 }, filter: {} })).data!.total;
    const before = await total(); // cached on B now (5 s)
    expect((await superA.mutate('rootDomain.create', { data: { name: 'counted.example' } })).status).toBe(200);
    await soon(total, before + 1);
  });

  it('a token revoked on A is refused by B at once; a device taken off its controller on A is refused by B at once', async () => {
    const row = { timestamp: new Date().toISOString(), entity_cuid: a.demo.battery, parameter_id: 'battery_soc', value: 55 };
    const doomed = await issueSimulatorToken(a.db.dataSource, a.demo.demoCompany, 'revoked on A');
    expect((await ingest(b.baseUrl, DEMO_CONTROLLER_ID, doomed, { rows: [row] })).status).toBe(200);
    const token_cuid = /^ppt_([a-z0-9]+)_/.exec(doomed)![1];
    expect((await superA.mutate('authToken.revoke', { token_cuid })).status).toBe(200);
    expect((await ingest(b.baseUrl, DEMO_CONTROLLER_ID, doomed, { rows: [row] })).status).toBe(401);

    // The directory (controller → devices → parameters) is cached on B for 60 s: a device taken off
    // the controller on A is refused by B at once, and accepted again once it is back.
    const accepted = async (value: number) =>
      ((await ingest(b.baseUrl, DEMO_CONTROLLER_ID, token, { rows: [{ ...row, timestamp: new Date().toISOString(), value }] })).body as { accepted: number })
        .accepted;
    expect(await accepted(56)).toBe(1);
    expect((await superA.mutate('entity.update', { id: a.demo.battery, data: { controller_id: null } })).status).toBe(200);
    await soon(() => accepted(57), 0);
    expect((await superA.mutate('entity.update', { id: a.demo.battery, data: { controller_id: DEMO_CONTROLLER_ID } })).status).toBe(200);
    await soon(() => accepted(58), 1);
  });

  const t0 = Math.floor((Date.now() - 2 * 3_600_000) / 3_600_000) * 3_600_000;
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  const sample = (s: number, value: number) => ({ rows: [{ timestamp: at(s), entity_cuid: a.demo.battery, parameter_id: 'battery_soc', value }] });
  const settle = () => Promise.all([a.engine.settle(), b.engine.settle()]);

  it("a trigger created on A is judged by B's engine at once (no periodic check runs)", async () => {
    expect(b.app.get(AlertEngine)).not.toBe(a.app.get(AlertEngine));
    const sizeBefore = b.engine.size;
    const res = await superA.mutate<{ data: { id: string } }>('notificationTrigger.create', {
      data: {
        name: 'Low (created on A)',
        message: 'm',
        system_cuid: a.demo.farm,
        args: { kind: 'threshold', entity_cuid: a.demo.battery, parameter_id: 'battery_soc', op: 'below', value: 20 },
      },
    });
    expect(res.status).toBe(200);
    const id = res.data!.data.id;
    await soon(async () => b.engine.size, sizeBefore + 1);
    expect((await ingest(b.baseUrl, DEMO_CONTROLLER_ID, token, sample(0, 10))).status).toBe(200);
    await settle();
    expect(await eventsOf(b, id)).toEqual([['TRIGGERED', at(0)]]);
    await superA.mutate('notificationTrigger.update', { id, data: { is_active: false } });
    await soon(async () => b.engine.size, sizeBefore);
  });

  it('one trigger, its samples alternating between the two engines: exactly one fire and one clear per crossing', async () => {
    const res = await superA.mutate<{ data: { id: string } }>('notificationTrigger.create', {
      data: {
        name: 'Alternating',
        message: 'm',
        system_cuid: a.demo.farm,
        args: { kind: 'threshold', entity_cuid: a.demo.battery, parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 30 },
      },
    });
    const id = res.data!.data.id;
    const size = a.engine.size;
    await soon(async () => b.engine.size, size);
    // Runs of values below 20 and above 30 of different lengths, so that each instance sees both
    // crossings and quiet stretches: its cached status is stale whenever the other one moved it.
    const runs = [[50, 45], [15], [12, 10, 8], [35], [40, 38], [5, 6], [31], [10], [33, 34, 36], [19, 18], [60]];
    const values = runs.flat();
    const expected: [string, string][] = [];
    let state = 'RELEASED';
    values.forEach((v, i) => {
      if (state === 'RELEASED' && v < 20) {
        state = 'TRIGGERED';
        expected.push(['TRIGGERED', at(100 + i)]);
      } else if (state === 'TRIGGERED' && v > 30) {
        state = 'RELEASED';
        expected.push(['RELEASED', at(100 + i)]);
      }
    });
    expect(expected.length).toBeGreaterThanOrEqual(6);
    for (let i = 0; i < values.length; i++) {
      const target = i % 2 === 0 ? a : b;
      expect((await ingest(target.baseUrl, DEMO_CONTROLLER_ID, token, sample(100 + i, values[i]))).status).toBe(200);
      await settle();
    }
    expect(await eventsOf(a, id)).toEqual(expected);
    const [status] = await a.query(`SELECT trigger_state, evaluated_until FROM notification_trigger_status WHERE trigger_cuid = $1`, [id]);
    expect(status.trigger_state).toBe('RELEASED');
    expect(new Date(status.evaluated_until).toISOString()).toBe(at(100 + values.length - 1));
  });

  it('the same with the two engines racing (samples sent to both at once): still one fire and one clear per crossing', async () => {
    const res = await superA.mutate<{ data: { id: string } }>('notificationTrigger.create', {
      data: {
        name: 'Racing',
        message: 'm',
        system_cuid: a.demo.farm,
        args: { kind: 'threshold', entity_cuid: a.demo.battery, parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 30 },
      },
    });
    const id = res.data!.data.id;
    await soon(async () => b.engine.size, a.engine.size);
    // Long runs: samples judged out of order across instances may be skipped (older than what the
    // other already judged), but a run of five cannot be skipped whole.
    const runs = [50, 10, 40, 5, 35].map((v) => [v, v, v, v, v]);
    let s = 1000;
    for (const run of runs) {
      // Two samples at a time, one to each instance, concurrently.
      for (let i = 0; i < run.length; i += 2) {
        const pair = run.slice(i, i + 2).map((v) => ({ v, ts: s++ }));
        await Promise.all(pair.map((p, k) => ingest((k === 0 ? a : b).baseUrl, DEMO_CONTROLLER_ID, token, sample(p.ts, p.v))));
      }
      await settle();
    }
    const events = (await eventsOf(a, id)).map(([state]) => state);
    expect(events).toEqual(['TRIGGERED', 'RELEASED', 'TRIGGERED', 'RELEASED']);
  });

  it('a lost LISTEN connection: every cache is dropped on reconnect, then signals work again', async () => {
    const total = async () => (await superB.query<{ total: number }>('rootDomain.getList', { pagination: { page: 1, perPage: 1 }, filter: {} })).data!.total;
    expect((await superA.mutate('rootDomain.create', { data: { name: 'lost.example', root_domain_data: { title: 'Before' } } })).status).toBe(200);
    expect((await brandOf(b, 'lost.example')).title).toBe('Before');
    // The true count (B's cached answer may still predate the create above on a busy machine).
    const [{ count }] = await a.query(`SELECT count(*)::int AS count FROM root_domain`);
    const receivedBefore = b.app.get(SharedSignals).received;
    // Both instances' listeners go (as a restarted database or a network cut would take them).
    const killed = await a.query(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN portal_signal%'`,
    );
    expect(killed.length).toBe(2);
    // Written behind the portal's back meanwhile: no notice at all.
    await a.query(`UPDATE root_domain SET root_domain_data = '{"title":"Behind"}' WHERE name = 'lost.example'`);
    await a.query(`INSERT INTO root_domain (name, root_domain_data) VALUES ('behind.example', '{}')`);
    // Reconnected after about a second: B drops everything (brand cached for 10 s, count for 5 s).
    // Seen before the brand's own 10 s lifetime ends: the dropped listener dropped the caches.
    await eventually(async () => (await brandOf(b, 'lost.example')).title === 'Behind', 9_500, 'the brand written behind the portal');
    expect(await total()).toBe(count + 1);
    // Listening again: a write on A reaches B through a notice.
    await eventually(
      async () =>
        (await a.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN portal_signal%'`))[0].n ===
        2,
      5000,
      'two listeners',
    );
    expect((await superA.mutate('rootDomain.update', { id: 'lost.example', data: { root_domain_data: { title: 'After' } } })).status).toBe(200);
    await soon(async () => (await brandOf(b, 'lost.example')).title, 'After');
    expect(b.app.get(SharedSignals).received).toBeGreaterThan(receivedBefore);
  });
});
