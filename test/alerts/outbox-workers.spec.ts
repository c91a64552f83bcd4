import type { INestApplicationContext } from '@nestjs/common';
import { OutboxWorker } from '../../server/src/alerts/delivery/outbox.worker';
import { OutboxSignal } from '../../server/src/alerts/outbox-signal';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { addChannel, addEvents, addTrigger, companyByName, eventually, eventValue, systemByName } from '../factories/alert-fixtures';
import type { TestApp } from '../factories/app';
import { twoOutboxInstances } from '../factories/outbox-instances';

const SETTINGS = {
  ALERTS_DELIVERY_POLL_MS: '100',
  ALERTS_DELIVERY_BATCH: '15',
  ALERTS_GROUP_WINDOW_MS: '0',
  ALERTS_GROUP_MIN: '1000', // every alert its own message: the most claims to fight over
  ALERTS_DELIVERY_LEASE_SECONDS: '30',
};

/**
 * Several instances share one outbox. Instance A is the whole application; instance B is a second
 * outbox worker (its own Nest context, and on PostgreSQL its own connection pool and LISTEN) on
 * the same database, as a second server would run it. On the embedded database (one process) B
 * shares A's PGlite. Both send through a RecordingSender to one local peer: the worker is the unit
 * under test.
 */
describe('alert outbox: several workers', () => {
  const instances = twoOutboxInstances(SETTINGS);
  const { peer, q } = instances;
  let t: TestApp;
  let b: INestApplicationContext;
  beforeAll(() => ({ t, b } = instances));

  it('two workers on one database share 300 deliveries and never send one twice', async () => {
    const farm = await systemByName(t.db.dataSource, DEMO_SYSTEMS.farm);
    const demo = await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    const triggers: string[] = [];
    for (let i = 0; i < 10; i++) triggers.push(await addTrigger(t.db.dataSource, farm.system_cuid, { name: `T${i}` }));
    for (let c = 0; c < 3; c++) await addChannel(t.db.dataSource, demo, { triggers });
    // a little latency at the peer so the two workers' claims overlap
    peer.answer = () => ({ status: 200, delayMs: 2 + Math.floor(Math.random() * 8) });
    const ids: string[] = [];
    for (let round = 0; round < 10; round++) {
      for (const trigger of triggers) ids.push(...(await addEvents(t.db.dataSource, trigger, [eventValue(farm)])));
      t.app.get(OutboxSignal).kick();
      b.get(OutboxSignal).kick();
    }
    expect(ids).toHaveLength(100);
    await eventually(
      async () => {
        const [{ n }] = await q(`SELECT count(*)::int AS n FROM notification_trigger_event WHERE event_cuid = ANY($1::varchar[]) AND status = 'SENT'`, [ids]);
        return n === 100;
      },
      60_000,
      'all 100 events SENT',
    );
    const counts = peer.countsByEventAndChannel();
    expect(counts.size).toBe(300);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(peer.messages).toHaveLength(300);
    const [{ recorded }] = await q(
      `SELECT count(*)::int AS recorded FROM notification_channel_to_notification cn
         JOIN notification_trigger_event e ON e.notification_cuid = cn.notification_cuid WHERE e.event_cuid = ANY($1::varchar[])`,
      [ids],
    );
    expect(recorded).toBe(300);
    const [{ notifications }] = await q(
      `SELECT count(DISTINCT notification_cuid)::int AS notifications FROM notification_trigger_event WHERE event_cuid = ANY($1::varchar[])`,
      [ids],
    );
    expect(notifications).toBe(100); // one Notification per event, whichever worker claimed it
    const [sa, sb] = [await t.app.get(OutboxWorker).stats(), await b.get(OutboxWorker).stats()];
    expect(sa.duplicates).toBe(0);
    // both took part
    expect(sa.counters.messages_sent).toBeGreaterThan(0);
    expect(sb.counters.messages_sent).toBeGreaterThan(0);
    expect(sa.counters.messages_sent + sb.counters.messages_sent).toBe(300);
  });

  it('a delivery left SENDING by a dead instance is claimed again once its lease runs out, sent, and counted as a possible duplicate', async () => {
    peer.messages.length = 0;
    peer.answer = () => ({ status: 200 });
    const farm = await systemByName(t.db.dataSource, DEMO_SYSTEMS.farm);
    const demo = await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid);
    const done = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    const inFlight = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    // What an instance killed mid-send leaves behind: the event SENDING with its Notification, one
    // channel already SENT (and recorded), the other SENDING with a lease that ran out.
    // One transaction, so no worker sees a half-written state.
    const notification = newCuid();
    const id = newCuid();
    const value = eventValue(farm);
    await t.db.dataSource.transaction(async (tx) => {
      await tx.query(`INSERT INTO notification (notification_cuid, message, severity_level, trigger_cuid) VALUES ($1, 'Battery low', 'CRITICAL', $2)`, [
        notification,
        trigger,
      ]);
      await tx.query(
        `INSERT INTO notification_trigger_event (event_cuid, "timestamp", value, trigger_cuid, status, notification_cuid, next_attempt_at)
         VALUES ($1, $2, $3, $4, 'SENDING', $5, now() + interval '30 seconds')`,
        [id, value.time, JSON.stringify(value), trigger, notification],
      );
      await tx.query(
        `INSERT INTO notification_delivery (event_cuid, channel_cuid, event_timestamp, notification_cuid, company_cuid, status, sent_at, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, 'SENT', now(), now())`,
        [id, done, value.time, notification, demo],
      );
      await tx.query(`INSERT INTO notification_channel_to_notification (channel_cuid, notification_cuid) VALUES ($1, $2)`, [done, notification]);
      await tx.query(
        `INSERT INTO notification_delivery (event_cuid, channel_cuid, event_timestamp, notification_cuid, company_cuid, status, started_at, lease_until, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, 'SENDING', now() - interval '40 seconds', now() - interval '10 seconds', now() - interval '40 seconds')`,
        [id, inFlight, value.time, notification, demo],
      );
    });
    t.app.get(OutboxSignal).kick();
    const e = await eventually(
      async () => {
        const [r] = await q(`SELECT status::text AS status, last_error FROM notification_trigger_event WHERE event_cuid = $1`, [id]);
        return r.status === 'SENT' ? r : undefined;
      },
      15_000,
      'the event SENT',
    );
    expect(e.last_error).toBeNull();
    expect(peer.messages.map((m) => m.channel_cuid)).toEqual([inFlight]); // the SENT channel is not sent again
    expect(
      await q(`SELECT channel_cuid, status::text AS status, duplicates FROM notification_delivery WHERE event_cuid = $1 ORDER BY duplicates`, [id]),
    ).toEqual([
      { channel_cuid: done, status: 'SENT', duplicates: 0 },
      { channel_cuid: inFlight, status: 'SENT', duplicates: 1 },
    ]);
    expect((await t.app.get(OutboxWorker).stats()).duplicates).toBe(1);
    expect(await q(`SELECT channel_cuid FROM notification_channel_to_notification WHERE notification_cuid = $1 ORDER BY channel_cuid`, [notification])).toEqual(
      [{ channel_cuid: done }, { channel_cuid: inFlight }].sort((x, y) => x.channel_cuid.localeCompare(y.channel_cuid)),
    );
  });

  it('an event left SENDING whose deliveries all finished (its instance died before closing it) is closed when its lease runs out', async () => {
    const farm = await systemByName(t.db.dataSource, DEMO_SYSTEMS.farm);
    const demo = await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid);
    const gone = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    const notification = newCuid();
    const id = newCuid();
    const value = eventValue(farm);
    await t.db.dataSource.transaction(async (tx) => {
      await tx.query(`INSERT INTO notification (notification_cuid, message, severity_level, trigger_cuid) VALUES ($1, 'x', 'INFO', $2)`, [
        notification,
        trigger,
      ]);
      await tx.query(
        `INSERT INTO notification_trigger_event (event_cuid, "timestamp", value, trigger_cuid, status, notification_cuid, next_attempt_at)
         VALUES ($1, $2, $3, $4, 'SENDING', $5, now() - interval '1 second')`,
        [id, value.time, JSON.stringify(value), trigger, notification],
      );
      await tx.query(
        `INSERT INTO notification_delivery (event_cuid, channel_cuid, event_timestamp, notification_cuid, company_cuid, status, attempts, last_error)
         VALUES ($1, $2, $3, $4, $5, 'ARCHIVED', 6, 'Gave up after 6 attempts: HTTP 502')`,
        [id, gone, value.time, notification, demo],
      );
    });
    t.app.get(OutboxSignal).kick();
    const e = await eventually(
      async () => {
        const [r] = await q(`SELECT status::text AS status, attempts, last_error FROM notification_trigger_event WHERE event_cuid = $1`, [id]);
        return r.status !== 'SENDING' ? r : undefined;
      },
      15_000,
      'the event closed',
    );
    expect(e).toEqual({ status: 'ARCHIVED', attempts: 6, last_error: `${gone}: Gave up after 6 attempts: HTTP 502` });
  });
});
