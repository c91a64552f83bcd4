import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { ZTriggerEventValue } from '../../shared/alerts/rules';
import { type AlertTestApp, eventsOf, ingest, startAlertApp } from './support';

/**
 * The engine on data: values sent over HTTP ingest cross a threshold and come back; the events
 * carry the device times. A day of backfill sent in order gives its history and never flaps.
 * Runs on PostgreSQL when TEST_DATABASE_URL is set.
 */
describe('alert engine on ingested data', () => {
  let t: AlertTestApp;
  const MIN = 60_000;
  const base = Math.floor((Date.now() - 2 * 3_600_000) / 3_600_000) * 3_600_000;
  const at = (minutes: number) => new Date(base + minutes * MIN).toISOString();
  let farm: string;

  beforeAll(async () => {
    t = await startAlertApp();
    [{ system_cuid: farm }] = await t.query(`SELECT system_cuid FROM entity WHERE entity_cuid = $1`, [t.demo.battery]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const createTrigger = async (args: unknown, name = 'Battery low') => {
    const c = await t.client('installer@demo.local');
    const res = await c.mutate('notificationTrigger.create', { data: { name, message: '{device}: {value}', release_message: 'ok', system_cuid: farm, args } });
    expect(res.error).toBeUndefined();
    return res.data.data.trigger_cuid as string;
  };

  it('fires when the state of charge drops below 20 and releases only above 30, with the device times, in one transaction with its log', async () => {
    const id = await createTrigger({ kind: 'threshold', entity_cuid: t.demo.battery, parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 30 });
    const kicksBefore = t.kicks.count;
    const values = [50, 25, 20, 19, 25, 29.5, 30, 31, 25];
    const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: values.map((value, m) => ({ timestamp: at(m), entity_cuid: t.demo.battery, parameter_id: 'battery_soc', value })),
    });
    expect(res.status).toBe(200);
    await t.engine.settle();
    expect(await eventsOf(t, id)).toEqual([
      ['TRIGGERED', at(3)],
      ['RELEASED', at(7)],
    ]);
    expect(t.kicks.count).toBeGreaterThan(kicksBefore);
    const events = await t.query(`SELECT value, status, log_cuid FROM notification_trigger_event WHERE trigger_cuid = $1 ORDER BY "timestamp"`, [id]);
    expect(events.map((e) => e.status)).toEqual(['PENDING', 'PENDING']);
    const first = ZTriggerEventValue.parse(events[0].value);
    expect(first).toEqual({
      state: 'TRIGGERED',
      value: 19,
      threshold: 20,
      parameter: 'Battery state of charge',
      unit: '%',
      device: 'Battery bank',
      system: expect.any(String),
      system_cuid: farm,
      timezone: expect.any(String),
      time: at(3),
    });
    expect(ZTriggerEventValue.parse(events[1].value)).toMatchObject({ state: 'RELEASED', value: 31, threshold: 30 });
    // Each event has its log row (same transaction); the status is a copy of the latest one.
    const logs = await t.query(
      `SELECT log_cuid, "timestamp", trigger_state, processing_status, next_execution_trigger FROM notification_trigger_log WHERE trigger_cuid = $1 ORDER BY "timestamp"`,
      [id],
    );
    expect(logs.map((l) => l.log_cuid)).toEqual(events.map((e) => e.log_cuid));
    expect(logs.map((l) => [l.trigger_state, l.processing_status, l.next_execution_trigger])).toEqual([
      ['TRIGGERED', 'SUCCESS', 'DATA'],
      ['RELEASED', 'SUCCESS', 'DATA'],
    ]);
    const [status] = await t.query(`SELECT * FROM notification_trigger_status WHERE trigger_cuid = $1`, [id]);
    expect(status).toMatchObject({
      trigger_state: 'RELEASED',
      processing_status: 'SUCCESS',
      log_cuid: logs[1].log_cuid,
      pending_state: null,
      next_execution: null,
    });
    expect(new Date(status.state_since).toISOString()).toBe(at(7));

    // A retransmit of the same batch changes nothing.
    await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: values.map((value, m) => ({ timestamp: at(m), entity_cuid: t.demo.battery, parameter_id: 'battery_soc', value })),
    });
    await t.engine.settle();
    expect(await eventsOf(t, id)).toHaveLength(2);
  });

  it('a day of backfill after an outage, sent in order in four batches with the timer running between them: the right history, no flapping', async () => {
    const id = await createTrigger(
      { kind: 'threshold', entity_cuid: t.demo.battery, parameter_id: 'battery_voltage', op: 'above', value: 55, release_value: 52, for_seconds: 600 },
      'Battery voltage high',
    );
    const day0 = base - 24 * 3_600_000;
    const v = (m: number): number => {
      if (m >= 180 && m < 210) return 60; // 3:00–3:30 high
      if (m >= 355 && m < 385) return 60; // 5:55–6:25, across the first batch boundary (6:00)
      if (m >= 717 && m < 722) return 60; // a 5-minute spike across the second boundary: shorter than for_seconds
      if (m >= 840 && m < 960) return 53.5; // two hours inside the band: neither side
      if (m >= 1200 && m < 1240) return 60; // 20:00–20:40 high …
      if (m >= 1240 && m < 1260) return 53; // … then in the band (stays TRIGGERED) …
      return 50; // … released at 21:00
    };
    const day = Array.from({ length: 1440 }, (_, m) => ({
      timestamp: new Date(day0 + m * MIN).toISOString(),
      entity_cuid: t.demo.battery,
      parameter_id: 'battery_voltage',
      value: v(m),
    }));
    for (let b = 0; b < 4; b++) {
      const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { rows: day.slice(b * 360, (b + 1) * 360) });
      expect(res.body).toMatchObject({ accepted: 360 });
      await t.engine.settle();
      // The timer runs between batches (wall clock a day after the data): a pending duration is not finished while data keeps coming.
      await t.engine.tick();
    }
    const d = (m: number) => new Date(day0 + m * MIN).toISOString();
    const expected = [
      ['TRIGGERED', d(190)],
      ['RELEASED', d(210)],
      ['TRIGGERED', d(365)],
      ['RELEASED', d(385)],
      ['TRIGGERED', d(1210)],
      ['RELEASED', d(1260)],
    ];
    expect(await eventsOf(t, id)).toEqual(expected);
    // The whole day again (a controller resending its buffer): nothing new.
    for (let b = 0; b < 4; b++) await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { rows: day.slice(b * 360, (b + 1) * 360) });
    await t.engine.settle();
    await t.engine.tick();
    expect(await eventsOf(t, id)).toEqual(expected);
  });

  it('DeviceState rules fire and release on the bundle', async () => {
    const id = await createTrigger({ kind: 'state', entity_cuid: t.demo.battery, key: 'alarm', op: 'equals', value: 'overtemp' }, 'Battery alarm');
    const res = await ingest(
      t.baseUrl,
      DEMO_CONTROLLER_ID,
      t.demo.demoToken,
      {
        states: [
          { timestamp: at(30), entity_cuid: t.demo.battery, state_bundle: { alarm: 'none' } },
          { timestamp: at(31), entity_cuid: t.demo.battery, state_bundle: { alarm: 'overtemp' } },
          { timestamp: at(33), entity_cuid: t.demo.battery, state_bundle: { alarm: 'none' } },
        ],
      },
      'states',
    );
    expect(res.status).toBe(200);
    await t.engine.settle();
    expect(await eventsOf(t, id)).toEqual([
      ['TRIGGERED', at(31)],
      ['RELEASED', at(33)],
    ]);
  });
});
