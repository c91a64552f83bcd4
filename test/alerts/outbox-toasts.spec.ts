import type { EntityManager } from 'typeorm';
import { OutboxEventsRepository } from '../../server/src/alerts/delivery/outbox-events.repository';
import { outboxJob } from '../../server/src/alerts/delivery/outbox-job';
import { ChannelSenderRegistry } from '../../server/src/alerts/delivery/sender-registry';
import { OutboxSignal } from '../../server/src/alerts/outbox-signal';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { addChannel, addEvents, addTrigger, companyByName, eventually, eventValue, systemByName } from '../factories/alert-fixtures';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { RecordingPeer, RecordingSender } from '../factories/recording-sender';
import { openStream } from '../factories/sse';
import { addMember } from '../factories/users';

type Stream = Awaited<ReturnType<typeof openStream>>;

/**
 * Alarm toasts from the outbox worker on the users' live streams (SSE, through LISTEN/NOTIFY on
 * PostgreSQL). Events are fixtures written as the engine writes them.
 */
describe('alert outbox: portal toasts', () => {
  let t: TestApp;
  const peer = new RecordingPeer();
  const as: Record<string, HttpClient> = {};
  let farm: { system_cuid: string; company_cuid: string; timezone: string };
  let workshop: typeof farm;
  let clinic: typeof farm;
  const q = (sql: string, params: unknown[] = []) => t.db.dataSource.query(sql, params);
  const kick = () => t.app.get(OutboxSignal).kick();
  /** The worker's recipients query (OutboxEventsRepository.toastRecipients), in a transaction of the test's. */
  const alarmToastRecipients = (tx: EntityManager, system_cuid: string, trigger_cuid: string) =>
    t.app.get(OutboxEventsRepository).toastRecipients(outboxJob(), tx, system_cuid, trigger_cuid);
  const streams: Record<string, Stream> = {};
  const users: Record<string, string> = {};

  beforeAll(async () => {
    await peer.start();
    t = await startTestApp({ ALERTS_DELIVERY_POLL_MS: '200', ALERTS_GROUP_WINDOW_MS: '0' }, { liveOverPostgres: true });
    t.app.get(ChannelSenderRegistry).use([new RecordingSender('TELEGRAM', () => peer.url)]);
    farm = await systemByName(t.db.dataSource, DEMO_SYSTEMS.farm);
    workshop = await systemByName(t.db.dataSource, DEMO_SYSTEMS.workshop);
    clinic = await systemByName(t.db.dataSource, DEMO_SYSTEMS.clinic);
    for (const row of (await q(`SELECT user_cuid, email FROM "user"`)) as { user_cuid: string; email: string }[]) users[row.email] = row.user_cuid;
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(streams).map((s) => s.close()));
    await t?.close();
    await peer.stop();
  });

  async function openAll(): Promise<void> {
    for (const who of Object.keys(as)) {
      await streams[who]?.close();
      streams[who] = await openStream(as[who], 'portalNotification.onEvent');
      expect(streams[who].res.status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const quiet = () => new Promise((r) => setTimeout(r, 600));

  it('a farm alarm reaches the demo company members as a NOTIFICATION toast, never the other company; its Notification row exists first', async () => {
    await openAll();
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid, { name: 'Battery low', severity: 'ERROR', message: 'Battery at {value}{unit}' });
    const time = new Date(Date.now() - 5000).toISOString();
    const [id] = await addEvents(t.db.dataSource, trigger, [eventValue(farm, { value: 11, time })]);
    kick();
    const [event] = await streams.basic.waitFor(1);
    const [row] = await q(`SELECT notification_cuid FROM notification_trigger_event WHERE event_cuid = $1`, [id]);
    expect(row.notification_cuid).toEqual(expect.any(String));
    expect(event).toEqual({
      kind: 'toast',
      toast: {
        id: row.notification_cuid,
        type: 'NOTIFICATION',
        title: `${DEMO_SYSTEMS.farm}: Battery low`,
        message: 'Battery at 11%',
        severity: 'ERROR',
        triggeredAt: { timestamp: new Date(time), timezone: farm.timezone },
        onClickTarget: `/systems/${farm.system_cuid}/alarms`,
        alarm: { notification_cuid: row.notification_cuid, trigger_cuid: trigger, system_cuid: farm.system_cuid, state: 'TRIGGERED' },
      },
    });
    for (const who of ['superuser', 'installer', 'expert']) expect((await streams[who].waitFor(1))[0].toast.id).toBe(row.notification_cuid);
    await quiet();
    expect(streams.other.events).toEqual([]); // the farm is not shared with the other company

    // RELEASED: "ended" in the title, the release message
    const [released] = await addEvents(t.db.dataSource, trigger, [eventValue(farm, { state: 'RELEASED', value: 40 })]);
    kick();
    const [, second] = await streams.basic.waitFor(2);
    expect(second.toast).toMatchObject({ title: `${DEMO_SYSTEMS.farm}: Battery low ended`, message: 'Battery back at 40%', alarm: { state: 'RELEASED' } });
    expect(released).toEqual(expect.any(String));
  });

  it('a shared system: the workshop (shared with the other company) reaches its member; the clinic (shared with the demo company) reaches demo members', async () => {
    await openAll();
    const onWorkshop = await addTrigger(t.db.dataSource, workshop.system_cuid, { name: 'Inverter fault' });
    await addEvents(t.db.dataSource, onWorkshop, [eventValue(workshop)]);
    kick();
    expect((await streams.other.waitFor(1))[0].toast.title).toBe(`${DEMO_SYSTEMS.workshop}: Inverter fault`);
    expect((await streams.basic.waitFor(1))[0].toast.title).toBe(`${DEMO_SYSTEMS.workshop}: Inverter fault`);
    const onClinic = await addTrigger(t.db.dataSource, clinic.system_cuid, { name: 'Fridge power lost' });
    await addEvents(t.db.dataSource, onClinic, [eventValue(clinic)]);
    kick();
    expect((await streams.basic.waitFor(2))[1].toast.title).toBe(`${DEMO_SYSTEMS.clinic}: Fridge power lost`);
    expect((await streams.other.waitFor(2))[1].toast.title).toBe(`${DEMO_SYSTEMS.clinic}: Fridge power lost`);
  });

  it('no toast for who muted the trigger (until NULL or ahead) or turned toasts off; an expired mute no longer silences', async () => {
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid, { name: 'Generator running' });
    await q(`INSERT INTO notification_user_blacklist (blacklist_cuid, user_cuid, trigger_cuid, until) VALUES ('mute-expert', $1, $2, NULL)`, [
      users['expert@demo.local'],
      trigger,
    ]);
    await q(
      `INSERT INTO notification_user_blacklist (blacklist_cuid, user_cuid, trigger_cuid, until) VALUES ('mute-basic', $1, $2, now() + interval '1 hour')`,
      [users['basic@demo.local'], trigger],
    );
    await q(
      `INSERT INTO notification_user_blacklist (blacklist_cuid, user_cuid, trigger_cuid, until) VALUES ('mute-installer', $1, $2, now() - interval '1 minute')`,
      [users['installer@demo.local'], trigger],
    );
    // the superuser turns toasts off through the portal (user.meta.preferences.toast_notifications)
    expect((await as.superuser.mutate('user.updatePreferences', { toast_notifications_disabled: true })).status).toBe(200);
    await openAll();
    await addEvents(t.db.dataSource, trigger, [eventValue(farm)]);
    kick();
    expect((await streams.installer.waitFor(1))[0].toast.title).toBe(`${DEMO_SYSTEMS.farm}: Generator running`);
    await quiet();
    expect(streams.expert.events).toEqual([]);
    expect(streams.basic.events).toEqual([]);
    expect(streams.superuser.events).toEqual([]);
    expect(streams.other.events).toEqual([]);
    // the same muted users still get other triggers' toasts
    const loud = await addTrigger(t.db.dataSource, farm.system_cuid, { name: 'Door open' });
    await addEvents(t.db.dataSource, loud, [eventValue(farm)]);
    kick();
    expect((await streams.expert.waitFor(1))[0].toast.title).toBe(`${DEMO_SYSTEMS.farm}: Door open`);
    expect((await streams.basic.waitFor(1))[0].toast.title).toBe(`${DEMO_SYSTEMS.farm}: Door open`);
    await quiet();
    expect(streams.superuser.events).toEqual([]);
    expect((await as.superuser.mutate('user.updatePreferences', { toast_notifications_disabled: false })).status).toBe(200);
  });

  it('inactive users are no recipients (read from the database, as the worker does)', async () => {
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid);
    const gone = await addMember(t.db.dataSource, 'gone@demo.local', DEMO_COMPANY_NAME, 3);
    const before = await t.db.dataSource.transaction((tx) => alarmToastRecipients(tx, farm.system_cuid, trigger));
    expect(before).toContain(gone);
    expect(before).not.toContain(users['other@demo.local']);
    await q(`UPDATE "user" SET inactive = true WHERE user_cuid = $1`, [gone]);
    const after = await t.db.dataSource.transaction((tx) => alarmToastRecipients(tx, farm.system_cuid, trigger));
    expect(after).not.toContain(gone);
    expect(after).toContain(users['basic@demo.local']);
  });

  it('an event older than the live window (backfill) raises no toast, yet gets its Notification and its channel message', async () => {
    await openAll();
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid, { name: 'Old news' });
    const demo = await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    const channel = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    const old = new Date(Date.now() - 901_000).toISOString();
    const [id] = await addEvents(t.db.dataSource, trigger, [eventValue(farm, { time: old })]);
    kick();
    const e = await eventually(async () => {
      const [r] = await q(`SELECT status::text AS status, notification_cuid FROM notification_trigger_event WHERE event_cuid = $1`, [id]);
      return r.status === 'SENT' ? r : undefined;
    });
    expect(e.notification_cuid).toEqual(expect.any(String));
    expect(peer.messages.filter((m) => m.channel_cuid === channel)).toHaveLength(1);
    await quiet();
    expect(streams.basic.events).toEqual([]);
    // … and one just inside the window does raise one
    const [fresh] = await addEvents(t.db.dataSource, trigger, [eventValue(farm, { time: new Date(Date.now() - 880_000).toISOString() })]);
    kick();
    expect((await streams.basic.waitFor(1))[0].toast.title).toBe(`${DEMO_SYSTEMS.farm}: Old news`);
    expect(fresh).toEqual(expect.any(String));
  });

  it('a slow channel does not hold the toasts back: 30 toasts arrive while its first message is still unanswered', async () => {
    await openAll();
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid, { name: 'Latency probe' });
    const demo = await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    // The slow channel's peer answers nothing until the test releases it (an order, not a time:
    // the latency itself is `npm run bench -- alert_latency`).
    const slow = await addChannel(t.db.dataSource, demo, { triggers: [trigger] });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    peer.answer = (m) => (m.channel_cuid === slow ? { status: 200, hold: held } : { status: 200 });
    try {
      for (let i = 0; i < 30; i++) {
        await addEvents(t.db.dataSource, trigger, [eventValue(farm)]);
        kick();
        await streams.basic.waitFor(i + 1, 30_000);
        expect(streams.basic.events).toHaveLength(i + 1);
      }
      // the slow channel was reached and is still waiting for its answer
      expect(peer.messages.filter((m) => m.channel_cuid === slow).length).toBeGreaterThanOrEqual(1);
    } finally {
      release();
      peer.answer = () => ({ status: 200 });
    }
  });
});
