import { DeliveryClaimsRepository } from '../../server/src/alerts/delivery/delivery-claims.repository';
import { OutboxDeliveriesRepository } from '../../server/src/alerts/delivery/outbox-deliveries.repository';
import { OutboxEventsRepository } from '../../server/src/alerts/delivery/outbox-events.repository';
import { outboxJob } from '../../server/src/alerts/delivery/outbox-job';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { addChannel, addEvents, addTrigger, eventValue, systemByName } from '../factories/alert-fixtures';
import { mediumWorld, type MediumWorld } from './world';

/**
 * The outbox's repositories on a real database (outbox-events, outbox-deliveries, delivery-claims):
 * the job works across companies, so its tenancy is in the queries: a channel or a user of a
 * company that does not see the alarm's system is never returned.
 */
describe('outbox repositories (database)', () => {
  let w: MediumWorld;
  let events: OutboxEventsRepository;
  let deliveries: OutboxDeliveriesRepository;
  let claims: DeliveryClaimsRepository;
  const job = outboxJob('medium');
  let farm: { system_cuid: string; company_cuid: string; timezone: string };
  let workshop: typeof farm;
  let farmTrigger: string;
  let workshopTrigger: string;
  const ch: Record<string, string> = {};

  beforeAll(async () => {
    w = await mediumWorld();
    events = new OutboxEventsRepository(w.ds);
    deliveries = new OutboxDeliveriesRepository(w.ds);
    claims = new DeliveryClaimsRepository(w.ds);
    farm = await systemByName(w.ds, DEMO_SYSTEMS.farm);
    workshop = await systemByName(w.ds, DEMO_SYSTEMS.workshop);
    farmTrigger = await addTrigger(w.ds, farm.system_cuid, { name: 'Farm low' });
    workshopTrigger = await addTrigger(w.ds, workshop.system_cuid, { name: 'Workshop low' });
    // The other company links its channel to a farm trigger (the farm is not shared with it) and to a workshop one (shared).
    ch.demo = await addChannel(w.ds, w.demo, { triggers: [farmTrigger, workshopTrigger] });
    ch.other = await addChannel(w.ds, w.other, { triggers: [farmTrigger, workshopTrigger] });
    ch.disabled = await addChannel(w.ds, w.demo, { status: 'DISABLED', triggers: [farmTrigger] });
    ch.unlinked = await addChannel(w.ds, w.demo, { triggers: [farmTrigger], enabled: false });
  });
  afterAll(() => w?.db.close());

  it("channelsOf: enabled ACTIVE channels of companies that see the system; another company's channel on an unshared system never", async () => {
    const byTrigger = await events.transaction(job, (tx) => events.channelsOf(job, tx, [farmTrigger, workshopTrigger]));
    expect(byTrigger.get(farmTrigger)).toEqual([{ channel_cuid: ch.demo, company_cuid: w.demo }]);
    expect(
      byTrigger
        .get(workshopTrigger)
        ?.map((c) => c.channel_cuid)
        .sort(),
    ).toEqual([ch.demo, ch.other].sort());
  });

  it('toastRecipients: active members of the companies that see the system, never those of a foreign company', async () => {
    const onFarm = await events.transaction(job, (tx) => events.toastRecipients(job, tx, farm.system_cuid, farmTrigger));
    expect(onFarm).toContain(w.users['basic@demo.local']);
    expect(onFarm).not.toContain(w.users['other@demo.local']);
    const onWorkshop = await events.transaction(job, (tx) => events.toastRecipients(job, tx, workshop.system_cuid, workshopTrigger));
    expect(onWorkshop).toContain(w.users['other@demo.local']);
  });

  it('an event from claim to close: materialised with its deliveries, claimed, answered, summarised, closed', async () => {
    const [event_cuid] = await addEvents(w.ds, farmTrigger, [eventValue(farm)]);
    expect(await events.nextDue(job)).toMatchObject({ event_cuid });
    const [claimed] = await events.transaction(job, (tx) => events.claimDue(job, tx, 10));
    expect(claimed).toMatchObject({ event_cuid, trigger_cuid: farmTrigger, status: 'PENDING', notification_cuid: null });
    const trigger = (await events.transaction(job, (tx) => events.triggers(job, tx, [farmTrigger]))).get(farmTrigger)!;
    expect(trigger).toMatchObject({ name: 'Farm low', system_cuid: farm.system_cuid, severity_level: 'CRITICAL' });
    await events.transaction(job, async (tx) => {
      await events.insertNotification(job, tx, { notification_cuid: `n-${event_cuid}`, message: 'low', severity_level: 'CRITICAL', trigger_cuid: farmTrigger });
      await events.insertDeliveries(job, tx, claimed, `n-${event_cuid}`, [{ channel_cuid: ch.demo, company_cuid: w.demo }], 0);
      await events.markMaterialised(job, tx, claimed, `n-${event_cuid}`, 'SENDING', 60);
    });
    expect(await events.stats(job)).toMatchObject({ pending: 0, sending: 1 });
    expect(await deliveries.msUntilNextDue(job)).toBeLessThanOrEqual(0);

    const held = await claims.claimDue(job, 'tok-1', 10, 60);
    expect(held.map((d) => [d.event_cuid, d.channel_cuid])).toEqual([[event_cuid, ch.demo]]);
    const [row] = await deliveries.work(job, held);
    expect(row).toMatchObject({ channel_cuid: ch.demo, source: 'TELEGRAM', channel_active: true, text: 'low', system_cuid: farm.system_cuid });

    // Another claim's answer is not written; this claim's is.
    const key = { event_cuid, channel_cuid: ch.demo };
    expect(
      await deliveries.transaction(job, (tx) =>
        deliveries.answerIfHeld(job, tx, { ...key, claim_token: 'tok-other' }, { status: 'ARCHIVED', last_error: 'x' }),
      ),
    ).toBe(false);
    expect(
      await deliveries.transaction(job, (tx) =>
        deliveries.answerIfHeld(job, tx, { ...key, claim_token: 'tok-1' }, { status: 'PENDING', attempts: 1, last_error: 'down', waitMs: 60_000 }),
      ),
    ).toBe(true);
    const [after] = await w.ds.query<{ status: string; attempts: number; last_error: string; lease_until: Date | null }[]>(
      `SELECT status::text AS status, attempts, last_error, lease_until FROM notification_delivery WHERE event_cuid = $1`,
      [event_cuid],
    );
    expect(after).toEqual({ status: 'PENDING', attempts: 1, last_error: 'down', lease_until: null });
    expect(await events.transaction(job, (tx) => events.deliverySummary(job, tx, event_cuid))).toEqual({ open: 1, archived: 0, attempts: 1, reasons: null });

    await deliveries.transaction(job, (tx) => deliveries.markSent(job, tx, { ...key, notification_cuid: `n-${event_cuid}` }));
    expect(await events.transaction(job, (tx) => events.deliverySummary(job, tx, event_cuid))).toEqual({ open: 0, archived: 0, attempts: 2, reasons: null });
    const linked = await w.ds.query<unknown[]>(`SELECT channel_cuid FROM notification_channel_to_notification WHERE notification_cuid = $1`, [
      `n-${event_cuid}`,
    ]);
    expect(linked).toHaveLength(1);
    await events.transaction(job, async (tx) => {
      expect(await events.lockStatus(job, tx, claimed)).toBe('SENDING');
      await events.close(job, tx, claimed, 'SENT', 2, null);
    });
    expect(await events.stats(job)).toMatchObject({ pending: 0, sending: 0 });
  });

  it("archiveMany, holdChannel and archiveHeld touch only the deliveries named (another company's delivery keeps its state)", async () => {
    const [e1] = await addEvents(w.ds, workshopTrigger, [eventValue(workshop)]);
    const [claimed] = await events.transaction(job, (tx) => events.claimDue(job, tx, 1, e1));
    await events.transaction(job, async (tx) => {
      await events.insertNotification(job, tx, { notification_cuid: `n-${e1}`, message: 'w', severity_level: 'CRITICAL', trigger_cuid: workshopTrigger });
      await events.insertDeliveries(
        job,
        tx,
        claimed,
        `n-${e1}`,
        [
          { channel_cuid: ch.demo, company_cuid: w.demo },
          { channel_cuid: ch.other, company_cuid: w.other },
        ],
        0,
      );
    });
    await deliveries.holdChannel(job, ch.other, 3_600_000);
    await deliveries.archiveMany(job, [{ event_cuid: e1, channel_cuid: ch.demo, reason: 'gone' }]);
    const rows = await w.ds.query<{ channel_cuid: string; status: string; last_error: string | null; held: boolean }[]>(
      `SELECT channel_cuid, status::text AS status, last_error, next_attempt_at > now() + interval '30 minutes' AS held FROM notification_delivery WHERE event_cuid = $1 ORDER BY channel_cuid`,
      [e1],
    );
    expect(Object.fromEntries(rows.map((r) => [r.channel_cuid, [r.status, r.last_error, r.held]]))).toEqual({
      [ch.demo]: ['ARCHIVED', 'gone', false],
      [ch.other]: ['PENDING', null, true],
    });
    await deliveries.archiveHeld(job, { event_cuid: e1, channel_cuid: ch.other, claim_token: 'nobody' }, 'refused');
    expect(
      (await w.ds.query(`SELECT status::text AS status FROM notification_delivery WHERE event_cuid = $1 AND channel_cuid = $2`, [e1, ch.other]))[0].status,
    ).toBe('PENDING');
    expect(await deliveries.stats(job)).toMatchObject({ pending: 1, archived: 1 });
  });
});
