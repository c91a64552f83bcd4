import { AppConfig } from '../../server/src/config/config';
import { ChannelSenderRegistry } from '../../server/src/alerts/delivery/sender-registry';
import { OutboxWorker } from '../../server/src/alerts/delivery/outbox.worker';
import { OutboxSignal } from '../../server/src/alerts/outbox-signal';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { addChannel, addEvents, addTrigger, companyByName, eventually, eventValue, systemByName } from '../factories/alert-fixtures';
import { startTestApp, type TestApp } from '../factories/app';
import { RecordingPeer, RecordingSender } from '../factories/recording-sender';

/**
 * The outbox worker on the real database: events written as the engine writes them (fixtures),
 * delivered through a small ChannelSender that posts to a local recording peer. The worker is the
 * unit under test; the real EMAIL / TELEGRAM / DISCORD senders are tested with the channels.
 */
describe('alert outbox: delivery', () => {
  let t: TestApp;
  const peer = new RecordingPeer();
  let farm: { system_cuid: string; company_cuid: string; timezone: string };
  let demo: string;
  let other: string;
  const q = (sql: string, params: unknown[] = []) => t.db.dataSource.query(sql, params);
  const kick = () => t.app.get(OutboxSignal).kick();
  const eventRow = async (id: string) =>
    (await q(`SELECT status::text AS status, attempts, last_error, notification_cuid FROM notification_trigger_event WHERE event_cuid = $1`, [id]))[0];
  const waitFinal = (id: string, ms = 15_000) =>
    eventually(
      async () => {
        const e = await eventRow(id);
        return e && (e.status === 'SENT' || e.status === 'ARCHIVED') ? e : undefined;
      },
      ms,
      `event ${id} SENT or ARCHIVED`,
    );

  beforeAll(async () => {
    await peer.start();
    t = await startTestApp({
      ALERTS_DELIVERY_POLL_MS: '100',
      ALERTS_DELIVERY_MAX_ATTEMPTS: '3',
      ALERTS_DELIVERY_BACKOFF_BASE_MS: '200',
      ALERTS_DELIVERY_BACKOFF_MAX_MS: '1000',
      ALERTS_GROUP_WINDOW_MS: '3000',
      ALERTS_GROUP_MIN: '3',
    });
    t.app.get(ChannelSenderRegistry).use([new RecordingSender('TELEGRAM', () => peer.url), new RecordingSender('DISCORD', () => peer.url)]);
    farm = await systemByName(t.db.dataSource, DEMO_SYSTEMS.farm);
    demo = await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    other = await companyByName(t.db.dataSource, OTHER_COMPANY_NAME);
  });
  afterAll(async () => {
    await t?.close();
    await peer.stop();
  });
  beforeEach(() => {
    peer.messages.length = 0;
    peer.answer = () => ({ status: 200 });
  });

  it('PENDING → SENT: one Notification (rendered message, trigger severity), sent to the enabled ACTIVE channels of companies that see the system, each recorded', async () => {
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid, { name: 'Battery low', severity: 'CRITICAL' });
    const telegram = await addChannel(t.db.dataSource, demo, { source: 'TELEGRAM', triggers: [trigger] });
    const discord = await addChannel(t.db.dataSource, demo, { source: 'DISCORD', triggers: [trigger] });
    // none of these may receive it: a disabled link, a channel not yet verified, a foreign company's channel
    // (the farm is not shared with the other company; a link to it must not leak the alarm).
    const disabled = await addChannel(t.db.dataSource, demo, { triggers: [trigger], enabled: false });
    const unverified = await addChannel(t.db.dataSource, demo, { status: 'PENDING', triggers: [trigger] });
    const foreign = await addChannel(t.db.dataSource, other, { triggers: [trigger] });

    const [id] = await addEvents(t.db.dataSource, trigger, [eventValue(farm, { value: 12.5 })]);
    kick();
    const e = await waitFinal(id);
    expect(e).toMatchObject({ status: 'SENT', last_error: null, attempts: 1 });
    const [n] = await q(`SELECT message, severity_level::text AS severity, trigger_cuid FROM notification WHERE notification_cuid = $1`, [e.notification_cuid]);
    expect(n).toEqual({ message: `Battery at 12.5% (below 20%) on ${DEMO_SYSTEMS.farm}`, severity: 'CRITICAL', trigger_cuid: trigger });
    const recorded = await q(`SELECT channel_cuid FROM notification_channel_to_notification WHERE notification_cuid = $1 ORDER BY channel_cuid`, [
      e.notification_cuid,
    ]);
    expect(recorded.map((r: { channel_cuid: string }) => r.channel_cuid)).toEqual([telegram, discord].sort());
    expect(peer.messages.map((m) => m.channel_cuid).sort()).toEqual([telegram, discord].sort());
    for (const bad of [disabled, unverified, foreign]) expect(peer.messages.some((m) => m.channel_cuid === bad)).toBe(false);
    const alert = peer.messages[0].alerts[0];
    expect(alert).toMatchObject({
      event_cuid: id,
      trigger_cuid: trigger,
      system_cuid: farm.system_cuid,
      system_name: DEMO_SYSTEMS.farm,
      severity: 'CRITICAL',
      state: 'TRIGGERED',
      text: `Battery at 12.5% (below 20%) on ${DEMO_SYSTEMS.farm}`,
      link: expect.stringMatching(new RegExp(`/systems/${farm.system_cuid}/alarms$`)),
    });
    const deliveries = await q(`SELECT status::text AS status, attempts, duplicates FROM notification_delivery WHERE event_cuid = $1`, [id]);
    expect(deliveries).toEqual([
      { status: 'SENT', attempts: 0, duplicates: 0 },
      { status: 'SENT', attempts: 0, duplicates: 0 },
    ]);
  });

  it('a RELEASED event uses the release message; a trigger without channels gets its Notification and is SENT at once', async () => {
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid, { release_message: 'Battery back at {value}{unit} <ok>' });
    const ch = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    const [id] = await addEvents(t.db.dataSource, trigger, [eventValue(farm, { state: 'RELEASED', value: 45 })]);
    const lonely = await addTrigger(t.db.dataSource, farm.system_cuid, { message: 'Nobody listens' });
    const [quiet] = await addEvents(t.db.dataSource, lonely, [eventValue(farm)]);
    kick();
    const e = await waitFinal(id);
    expect(e.status).toBe('SENT');
    const [n] = await q(`SELECT message FROM notification WHERE notification_cuid = $1`, [e.notification_cuid]);
    expect(n.message).toBe('Battery back at 45% <ok>');
    const sent = peer.messages.find((m) => m.channel_cuid === ch)!;
    expect(sent.alerts[0]).toMatchObject({ state: 'RELEASED', text: 'Battery back at 45% <ok>', html: 'Battery back at 45% &lt;ok&gt;' });
    const q2 = await waitFinal(quiet);
    expect(q2.status).toBe('SENT');
    expect((await q(`SELECT message FROM notification WHERE notification_cuid = $1`, [q2.notification_cuid]))[0].message).toBe('Nobody listens');
  });

  it('a failing channel is retried with exponential back-off, only that channel, then ARCHIVED with the reason', async () => {
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid);
    const broken = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    const fine = await addChannel(t.db.dataSource, demo, { source: 'DISCORD', triggers: [trigger] });
    peer.answer = (m) => (m.channel_cuid === broken ? { status: 500, body: { ok: false, description: 'Internal Server Error' } } : { status: 200 });
    const [id] = await addEvents(t.db.dataSource, trigger, [eventValue(farm)]);
    kick();
    const e = await waitFinal(id);
    expect(e.status).toBe('ARCHIVED');
    expect(e.last_error).toBe(`${broken}: Gave up after 3 attempts: HTTP 500: Internal Server Error`);
    expect(e.attempts).toBe(3);
    const tries = peer.messages.filter((m) => m.channel_cuid === broken);
    expect(tries).toHaveLength(3);
    // back-off: 200 ms, then 400 ms (doubling)
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(190);
    expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(390);
    // the working channel got it once, and is recorded
    expect(peer.messages.filter((m) => m.channel_cuid === fine)).toHaveLength(1);
    const recorded = await q(`SELECT channel_cuid FROM notification_channel_to_notification WHERE notification_cuid = $1`, [e.notification_cuid]);
    expect(recorded).toEqual([{ channel_cuid: fine }]);
    const d = await q(`SELECT channel_cuid, status::text AS status, attempts, last_error FROM notification_delivery WHERE event_cuid = $1 ORDER BY status`, [
      id,
    ]);
    expect(d).toEqual(
      expect.arrayContaining([
        { channel_cuid: broken, status: 'ARCHIVED', attempts: 3, last_error: 'Gave up after 3 attempts: HTTP 500: Internal Server Error' },
        { channel_cuid: fine, status: 'SENT', attempts: 0, last_error: null },
      ]),
    );
  });

  it('429 retry_after is honoured and is not a failed attempt; a permanent refusal archives at once', async () => {
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid);
    const limited = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    let answered429 = 0;
    // four 429s: more than MAX_ATTEMPTS (3), yet it is delivered, since waits are not failures
    peer.answer = (m) =>
      m.channel_cuid === limited && answered429 < 4
        ? (answered429++, { status: 429, body: { ok: false, description: 'Too Many Requests', retry_after: 0.5 } })
        : { status: 200 };
    const [id] = await addEvents(t.db.dataSource, trigger, [eventValue(farm)]);
    kick();
    const e = await waitFinal(id, 20_000);
    expect(e).toMatchObject({ status: 'SENT', last_error: null });
    const tries = peer.messages.filter((m) => m.channel_cuid === limited);
    expect(tries).toHaveLength(5);
    for (let i = 1; i < tries.length; i++) expect(tries[i].at - tries[i - 1].at).toBeGreaterThanOrEqual(490);
    expect(await q(`SELECT status::text AS status, attempts, deferrals FROM notification_delivery WHERE event_cuid = $1`, [id])).toEqual([
      { status: 'SENT', attempts: 0, deferrals: 4 },
    ]);

    const trigger2 = await addTrigger(t.db.dataSource, farm.system_cuid);
    const revoked = await addChannel(t.db.dataSource, demo, { source: 'DISCORD', triggers: [trigger2] });
    peer.answer = (m) => (m.channel_cuid === revoked ? { status: 403, body: { ok: false, description: 'Forbidden: bot was kicked' } } : { status: 200 });
    const [id2] = await addEvents(t.db.dataSource, trigger2, [eventValue(farm)]);
    kick();
    const e2 = await waitFinal(id2);
    expect(e2.status).toBe('ARCHIVED');
    expect(e2.last_error).toBe(`${revoked}: HTTP 403: Forbidden: bot was kicked`);
    expect(peer.messages.filter((m) => m.channel_cuid === revoked)).toHaveLength(1);
  });

  it('a 3G outage: 40 alarms of one company for one channel within the window go out as ONE message with all 40', async () => {
    const triggers: string[] = [];
    for (let i = 0; i < 40; i++)
      triggers.push(await addTrigger(t.db.dataSource, farm.system_cuid, { name: `Site ${i} offline`, message: `Site ${i} offline` }));
    const ops = await addChannel(t.db.dataSource, demo, { triggers });
    const ids: string[] = [];
    // The test holds the clock: the group window is long while the 40 events arrive (however busy
    // the machine, it cannot end in the middle), then the test ends it by moving the shared due time.
    const config = t.app.get(AppConfig);
    const window = config.ALERTS_GROUP_WINDOW_MS;
    config.ALERTS_GROUP_WINDOW_MS = 3_600_000;
    try {
      // one event per statement, as 40 separate engine transactions, each kicking the worker
      for (const trigger of triggers) {
        ids.push(...(await addEvents(t.db.dataSource, trigger, [eventValue(farm, { value: null, threshold: null })])));
        kick();
      }
      // every event got its delivery to the channel, all sharing the first one's due time, none sent yet
      const due = await eventually(
        async () => {
          const rows: { n: number; due: number }[] = await q(
            `SELECT count(*)::int AS n, count(DISTINCT next_attempt_at)::int AS due FROM notification_delivery WHERE channel_cuid = $1 AND status = 'PENDING'`,
            [ops],
          );
          return rows[0].n === 40 ? rows[0] : undefined;
        },
        30_000,
        '40 deliveries waiting in the window',
      );
      expect(due.due).toBe(1);
      expect(peer.messages.filter((m) => m.channel_cuid === ops)).toHaveLength(0);
    } finally {
      config.ALERTS_GROUP_WINDOW_MS = window;
    }
    // the window ends
    await q(`UPDATE notification_delivery SET next_attempt_at = now() WHERE channel_cuid = $1 AND status = 'PENDING'`, [ops]);
    kick();
    for (const id of ids) expect((await waitFinal(id)).status).toBe('SENT');
    const toOps = peer.messages.filter((m) => m.channel_cuid === ops);
    expect(toOps).toHaveLength(1);
    expect(toOps[0].alerts.map((a) => a.event_cuid).sort()).toEqual([...ids].sort());
    expect(toOps[0].alerts.map((a) => a.text)).toContain('Site 17 offline');
    const [{ n }] = await q(
      `SELECT count(*)::int AS n FROM notification_channel_to_notification cn
         JOIN notification_trigger_event e ON e.notification_cuid = cn.notification_cuid
        WHERE cn.channel_cuid = $1 AND e.event_cuid = ANY($2::varchar[])`,
      [ops, ids],
    );
    expect(n).toBe(40);
  });

  it('a channel whose details are gone (an EMAIL channel without its address) archives with that reason; depth and lag are readable', async () => {
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid);
    await addChannel(t.db.dataSource, demo, { source: 'EMAIL', triggers: [trigger] });
    const [id] = await addEvents(t.db.dataSource, trigger, [eventValue(farm)]);
    kick();
    const e = await waitFinal(id);
    expect(e.status).toBe('ARCHIVED');
    expect(e.last_error).toMatch(/The channel no longer exists$/);

    // An event not due yet (a retry scheduled later), written 2 minutes ago: depth 1, lag ≥ 120 s.
    const [late] = await addEvents(t.db.dataSource, trigger, [eventValue(farm)]);
    await q(
      `UPDATE notification_trigger_event SET created_at = now() - interval '120 seconds', next_attempt_at = now() + interval '1 hour' WHERE event_cuid = $1`,
      [late],
    );
    const res = await fetch(`${t.baseUrl}/api/health/outbox`);
    expect(res.status).toBe(200);
    const stats = await res.json();
    expect(stats).toMatchObject({ events_pending: 1, events_sending: 0, deliveries_pending: 0, duplicates: 0 });
    expect(stats.lag_seconds).toBeGreaterThanOrEqual(120);
    expect(stats.counters.messages_sent).toBeGreaterThan(0);
    expect(await t.app.get(OutboxWorker).stats()).toMatchObject({ events_pending: 1 });
    await q(`DELETE FROM notification_trigger_event WHERE event_cuid = $1`, [late]);
  });

  it('an event that cannot be written does not block the others: it is ARCHIVED with the error', async () => {
    // a real failure inside the event's transaction: the database refuses its Notification row
    await q(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.message = 'Poison' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await q(`CREATE TRIGGER refuse_poison BEFORE INSERT ON notification FOR EACH ROW EXECUTE FUNCTION refuse_poison()`);
    try {
      const bad = await addTrigger(t.db.dataSource, farm.system_cuid, { message: 'Poison' });
      const good = await addTrigger(t.db.dataSource, farm.system_cuid, { message: 'Fine' });
      const [badId] = await addEvents(t.db.dataSource, bad, [eventValue(farm)]);
      const [goodId] = await addEvents(t.db.dataSource, good, [eventValue(farm)]);
      kick();
      expect(await waitFinal(goodId)).toMatchObject({ status: 'SENT' });
      const e = await waitFinal(badId);
      expect(e.status).toBe('ARCHIVED');
      expect(e.last_error).toMatch(/^Could not be processed: .*refused by the test/);
    } finally {
      await q(`DROP TRIGGER refuse_poison ON notification`);
      await q(`DROP FUNCTION refuse_poison()`);
    }
  });
});
