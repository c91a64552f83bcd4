/**
 * An idle portal stays idle: with nobody signed in, no device sending and nothing queued, the
 * background loops (outbox events and deliveries, alert timers, commands, exports, controllers'
 * online state, shared signals and leases) each ask the database at most about once per poll
 * interval, never in a tight loop. Counted at the driver (every `pg` client: the pool, LISTEN
 * connections), so it covers every loop, whichever module starts it.
 *
 * Found by it: the outbox's next-delivery query answered 0 instead of "nothing pending" on an
 * empty queue (GREATEST ignores a null), so the delivery loop woke every 5 ms for ever.
 */
import { Client } from 'pg';
import { startTestApp, type TestApp } from '../factories/app';

/**
 * The loops poll every second or slower; measured idle on this machine: about 14 queries a second
 * in all (commands' expiry 5 with BEGIN/COMMIT, alert timers 3, exports 3, outbox 1, presence…).
 * Twice that is the bound; the outbox's tight loop made 319.
 */
const MAX_IDLE_QUERIES_PER_SECOND = 30;
const WINDOW_MS = 5_000;

describe('an idle portal', () => {
  let t: TestApp;
  let queries = 0;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be applied to the instance (below), then put back
  const original = Client.prototype.query;

  beforeAll(async () => {
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      queries++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof Client.prototype.query;
    t = await startTestApp();
    // start-up work (catch-ups, first rounds of every loop) is done
    await new Promise((r) => setTimeout(r, 3_000));
  });
  afterAll(async () => {
    Client.prototype.query = original;
    await t?.close();
  });

  it('the query counter sees the application’s queries (so the idle count below can fail)', async () => {
    const before = queries;
    const res = await fetch(`${t.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'installer@demo.local', password: 'demo-password' }),
    });
    expect(res.status).toBe(200);
    expect(queries - before).toBeGreaterThan(0);
  });

  it(`asks the database at most ${MAX_IDLE_QUERIES_PER_SECOND} times a second when nothing happens`, async () => {
    await new Promise((r) => setTimeout(r, 1_000));
    const before = queries;
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const perSecond = ((queries - before) * 1000) / WINDOW_MS;
    expect(perSecond).toBeLessThanOrEqual(MAX_IDLE_QUERIES_PER_SECOND);
  });
});
