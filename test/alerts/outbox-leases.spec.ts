import type { INestApplicationContext } from '@nestjs/common';
import { OutboxWorker } from '../../server/src/alerts/delivery/outbox.worker';
import { OutboxSignal } from '../../server/src/alerts/outbox-signal';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { addChannel, addEvents, addTrigger, companyByName, eventually, eventValue, systemByName } from '../factories/alert-fixtures';
import type { TestApp } from '../factories/app';
import { twoOutboxInstances } from '../factories/outbox-instances';

const LEASE_SECONDS = 2;
const SETTINGS = {
  ALERTS_DELIVERY_POLL_MS: '100',
  ALERTS_GROUP_WINDOW_MS: '0',
  ALERTS_GROUP_MIN: '1000', // every alert its own message, sent one after the other
  ALERTS_DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
};

/**
 * The delivery lease (docs/alerts.md, "Duplicates"): a claimed delivery may be claimed again by
 * another instance only when its holder stopped renewing for a whole lease, and a holder that lost
 * a delivery that way never sends it. Two outbox workers on one database (A: the application, B: a
 * second worker, as in outbox-workers.spec.ts), a short lease, and a channel whose first message is
 * held at the peer for several leases: a slow send (a busy machine, a slow mail server) is not
 * a dead instance.
 */
describe('alert outbox: leases of a live worker', () => {
  const instances = twoOutboxInstances(SETTINGS);
  const { peer, q } = instances;
  let t: TestApp;
  let b: INestApplicationContext;
  beforeAll(() => ({ t, b } = instances));
  /** Waits until every one of the events is SENT. */
  const allSent = (ids: string[]) =>
    eventually(
      async () => {
        const [{ n }] = await q(`SELECT count(*)::int AS n FROM notification_trigger_event WHERE event_cuid = ANY($1::varchar[]) AND status = 'SENT'`, [ids]);
        return n === ids.length;
      },
      30_000,
      `the ${ids.length} events SENT`,
    );

  /** Three alarms of one trigger for one new channel, written together (so one worker claims all three at once). */
  async function threeAlarms(): Promise<{ ids: string[]; channel: string }> {
    const farm = await systemByName(t.db.dataSource, DEMO_SYSTEMS.farm);
    const demo = await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid);
    const channel = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    const base = Date.now() - 60_000;
    const ids = await addEvents(
      t.db.dataSource,
      trigger,
      [0, 1, 2].map((i) => eventValue(farm, { value: 10 + i, time: new Date(base + i * 1000).toISOString() })),
    );
    t.app.get(OutboxSignal).kick();
    b.get(OutboxSignal).kick();
    return { ids, channel };
  }

  /** Holds the peer's answer to the next message until `release()`; answers the others at once. */
  function holdNextMessage(): { release: () => void } {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const from = peer.messages.length;
    peer.answer = (_m, index) => (index === from ? { status: 200, hold: held } : { status: 200 });
    return { release };
  }

  it('a worker whose send outlasts several leases keeps its claim: no other worker sends its alarms, each goes out once', async () => {
    const before = peer.messages.length;
    const { release } = holdNextMessage();
    const { ids, channel } = await threeAlarms();
    await eventually(async () => peer.messages.length > before, 15_000, 'the first message at the peer');
    // The first send is still unanswered; wait (on the database's clock) until three leases have
    // passed since the claim: long enough for any other worker to have taken a lease that ran out.
    await eventually(
      async () => {
        const [r] = await q(
          `SELECT bool_and(now() > started_at + make_interval(secs => $2 * 3)) AS past FROM notification_delivery WHERE event_cuid = ANY($1::varchar[])`,
          [ids, LEASE_SECONDS],
        );
        return r.past === true;
      },
      30_000,
      'three leases since the claim',
    );
    release();
    await allSent(ids);
    const counts = peer.countsByEventAndChannel();
    expect(ids.map((id) => counts.get(`${id}/${channel}`))).toEqual([1, 1, 1]);
    expect(peer.messages.slice(before)).toHaveLength(3);
    expect(await q(`SELECT status::text AS status, duplicates FROM notification_delivery WHERE event_cuid = ANY($1::varchar[])`, [ids])).toEqual(
      Array(3).fill({ status: 'SENT', duplicates: 0 }),
    );
  });

  it('a worker that lost its claim (another took it after its lease ran out) sends none of those deliveries and leaves them to their new holder', async () => {
    const before = peer.messages.length;
    const { release } = holdNextMessage();
    const { ids, channel } = await threeAlarms();
    const first = await eventually(async () => peer.messages[before], 15_000, 'the first message at the peer');
    const sentFirst = first.alerts[0].event_cuid;
    const others = ids.filter((id) => id !== sentFirst);
    // What another instance does once this worker's lease ran out (a frozen process): it claims the
    // two deliveries not yet sent, under its own token and lease.
    const other = newCuid();
    await q(
      `UPDATE notification_delivery SET claim_token = $2, lease_until = now() + interval '1 hour', started_at = now(), duplicates = duplicates + 1
        WHERE event_cuid = ANY($1::varchar[]) AND channel_cuid = $3 AND status = 'SENDING'`,
      [others, other, channel],
    );
    const lost = async () => (await t.app.get(OutboxWorker).stats()).counters.claims_lost + (await b.get(OutboxWorker).stats()).counters.claims_lost;
    const lostBefore = await lost();
    release();
    // The holder reaches the two others, finds them no longer its own and skips them.
    await eventually(async () => (await lost()) === lostBefore + 2, 15_000, 'the two lost deliveries skipped');
    const [{ status }] = await q(`SELECT status::text AS status FROM notification_delivery WHERE event_cuid = $1`, [sentFirst]);
    expect(status).toBe('SENT');
    expect(peer.messages.slice(before).map((m) => m.alerts[0].event_cuid)).toEqual([sentFirst]);
    expect(
      await q(`SELECT status::text AS status, claim_token FROM notification_delivery WHERE event_cuid = ANY($1::varchar[]) ORDER BY event_cuid`, [others]),
    ).toEqual(others.map(() => ({ status: 'SENDING', claim_token: other })));
    // The new holder "dies" too: its lease runs out and a worker sends them, once each.
    await q(`UPDATE notification_delivery SET lease_until = now() - interval '1 second' WHERE claim_token = $1`, [other]);
    t.app.get(OutboxSignal).kick();
    await allSent(ids);
    const counts = peer.countsByEventAndChannel();
    expect(ids.map((id) => counts.get(`${id}/${channel}`))).toEqual([1, 1, 1]);
  });
});
