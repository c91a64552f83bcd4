import { ChannelSenderRegistry } from '../../server/src/alerts/delivery/sender-registry';
import { OutboxSignal } from '../../server/src/alerts/outbox-signal';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { addChannel, addEvents, addTrigger, companyByName, eventually, eventValue, systemByName } from '../factories/alert-fixtures';
import { startTestApp, type TestApp } from '../factories/app';
import { RecordingPeer, RecordingSender } from '../factories/recording-sender';

/**
 * The class "a shared batch never fails for one bad item", for the alert outbox's delivery round:
 * one round claims the due deliveries of every company, renders them, sends them per channel and
 * records the answers. Company B's deliveries are poisoned beside company A's:
 * - one whose trigger message cannot be rendered (`{constructor}`: a renderer that reads it from a
 *   plain object fails; a fixed renderer sends it — either way it must not sink the round);
 * - one whose recorded answer the database refuses (the test adds a CHECK constraint on
 *   last_error, standing for any text only the database knows it cannot store).
 * Every delivery of company A is SENT; B's poisoned ones end alone (ARCHIVED with the reason, or
 * SENT); nothing stays SENDING, nothing is claimed twice.
 */
describe('a shared batch never fails for one bad item: the outbox delivery round', () => {
  let t: TestApp;
  const peer = new RecordingPeer();
  const q = <T = any>(sql: string, params: unknown[] = []) => t.db.dataSource.query<T[]>(sql, params);

  beforeAll(async () => {
    await peer.start();
    t = await startTestApp({
      ALERTS_DELIVERY_POLL_MS: '100',
      ALERTS_DELIVERY_MAX_ATTEMPTS: '1',
      ALERTS_GROUP_WINDOW_MS: '300',
      ALERTS_GROUP_MIN: '100',
      ALERTS_DELIVERY_LEASE_SECONDS: '2',
    });
    t.app.get(ChannelSenderRegistry).use([new RecordingSender('TELEGRAM', () => peer.url), new RecordingSender('DISCORD', () => peer.url)]);
    await q(`ALTER TABLE notification_delivery ADD CONSTRAINT test_no_poison CHECK (last_error IS NULL OR last_error NOT LIKE '%poison%') NOT VALID`);
  });
  afterAll(async () => {
    await q(`ALTER TABLE notification_delivery DROP CONSTRAINT IF EXISTS test_no_poison`).catch(() => undefined);
    await t?.close();
    await peer.stop();
  });

  it('company B’s unrenderable and unrecordable deliveries fail alone with their reason; every delivery of company A is SENT; nothing stays SENDING or is claimed twice', async () => {
    const farm = await systemByName(t.db.dataSource, DEMO_SYSTEMS.farm);
    const clinic = await systemByName(t.db.dataSource, DEMO_SYSTEMS.clinic);
    const a = await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    const b = await companyByName(t.db.dataSource, OTHER_COMPANY_NAME);
    expect(clinic.company_cuid).toBe(b);

    const triggerA = await addTrigger(t.db.dataSource, farm.system_cuid, { name: 'A battery low' });
    const channelsA = [
      await addChannel(t.db.dataSource, a, { triggers: [triggerA] }),
      await addChannel(t.db.dataSource, a, { source: 'DISCORD', triggers: [triggerA] }),
    ];
    const unrenderable = await addTrigger(t.db.dataSource, clinic.system_cuid, { name: 'B render', message: 'Battery {constructor} on {system}' });
    const renderChannel = await addChannel(t.db.dataSource, b, { triggers: [unrenderable] });
    const unrecordable = await addTrigger(t.db.dataSource, clinic.system_cuid, { name: 'B record' });
    const recordChannel = await addChannel(t.db.dataSource, b, { triggers: [unrecordable] });
    // B's second channel answers with an error whose text the database refuses to record.
    peer.answer = (m) => (m.channel_cuid === recordChannel ? { status: 500, body: { ok: false, description: 'poison pill' } } : { status: 200 });

    // One event statement per trigger, as the engine writes them; then one kick: one round claims them all.
    const eventsA = await addEvents(t.db.dataSource, triggerA, [
      eventValue(farm, { value: 10 }),
      eventValue(farm, { value: 11 }),
      eventValue(farm, { value: 12 }),
    ]);
    const [eventRender] = await addEvents(t.db.dataSource, unrenderable, [eventValue(clinic)]);
    const [eventRecord] = await addEvents(t.db.dataSource, unrecordable, [eventValue(clinic)]);
    t.app.get(OutboxSignal).kick();

    const all = [...eventsA, eventRender, eventRecord];
    const deliveries = await eventually(
      async () => {
        const rows = await q<{ event_cuid: string; channel_cuid: string; status: string; last_error: string | null; duplicates: number }>(
          `SELECT event_cuid, channel_cuid, status::text AS status, last_error, duplicates FROM notification_delivery WHERE event_cuid = ANY($1::varchar[])`,
          [all],
        );
        return rows.length === eventsA.length * 2 + 2 && rows.every((r) => r.status === 'SENT' || r.status === 'ARCHIVED') ? rows : undefined;
      },
      20_000,
      'every delivery SENT or ARCHIVED',
    );

    // Company A: every delivery SENT and received, once.
    const ofA = deliveries.filter((d) => eventsA.includes(d.event_cuid));
    expect(ofA.map((d) => [d.status, d.last_error, d.duplicates])).toEqual(ofA.map(() => ['SENT', null, 0]));
    for (const ch of channelsA)
      expect(
        peer.messages
          .filter((m) => m.channel_cuid === ch)
          .flatMap((m) => m.alerts.map((x) => x.event_cuid))
          .sort(),
      ).toEqual([...eventsA].sort());

    // Company B: each poisoned delivery ended alone, with its reason, never claimed twice.
    const render = deliveries.find((d) => d.channel_cuid === renderChannel)!;
    expect(render.duplicates).toBe(0);
    if (render.status === 'ARCHIVED') expect(render.last_error).toMatch(/^Could not be rendered: /);
    else expect(peer.messages.some((m) => m.channel_cuid === renderChannel)).toBe(true);
    const record = deliveries.find((d) => d.channel_cuid === recordChannel)!;
    expect(record).toMatchObject({ status: 'ARCHIVED', last_error: 'Could not be recorded (fail): A value is outside the allowed range', duplicates: 0 });

    // The events are closed: nothing waits for a lease.
    const events = await eventually(
      async () => {
        const rows = await q<{ event_cuid: string; status: string }>(
          `SELECT event_cuid, status::text AS status FROM notification_trigger_event WHERE event_cuid = ANY($1::varchar[])`,
          [all],
        );
        return rows.every((r) => r.status === 'SENT' || r.status === 'ARCHIVED') ? rows : undefined;
      },
      10_000,
      'every event closed',
    );
    expect(events.filter((e) => eventsA.includes(e.event_cuid)).map((e) => e.status)).toEqual(eventsA.map(() => 'SENT'));
    expect(events.find((e) => e.event_cuid === eventRecord)?.status).toBe('ARCHIVED');
  });
});
