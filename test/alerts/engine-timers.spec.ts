import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { ZTriggerEventValue } from '../../shared/alerts/rules';
import { type AlertTestApp, eventsOf, ingest, ManualClock, startAlertApp } from './support';

/** Timer rules with a controlled clock: no_data and offline fire and release. */
describe('alert engine timer rules', () => {
  let t: AlertTestApp;
  const T = Math.floor(Date.now() / 1000) * 1000;
  const clock = new ManualClock(T);
  let farm: string;

  beforeAll(async () => {
    t = await startAlertApp({ clock });
    [{ system_cuid: farm }] = await t.query(`SELECT system_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const createTrigger = async (args: unknown, name: string) => {
    const c = await t.client('installer@demo.local');
    const res = await c.mutate('notificationTrigger.create', { data: { name, message: name, system_cuid: farm, args } });
    expect(res.error).toBeUndefined();
    return res.data.data.trigger_cuid as string;
  };
  const send = (ts: number, value: number) =>
    ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [{ timestamp: new Date(ts).toISOString(), entity_cuid: t.demo.battery, parameter_id: 'battery_current', value }],
    });

  it('no_data fires after_seconds after the last value (claimed by the timer) and the next value releases it', async () => {
    const id = await createTrigger({ kind: 'no_data', entity_cuid: t.demo.battery, parameter_id: 'battery_current', after_seconds: 120 }, 'Battery silent');
    clock.set(T + 1000);
    expect((await send(T + 1000, 5)).status).toBe(200);
    await t.engine.settle();
    const [s] = await t.query(`SELECT next_execution_trigger FROM notification_trigger_status WHERE trigger_cuid = $1`, [id]);
    expect(s.next_execution_trigger).toBe('TIMER');

    clock.set(T + 100_000);
    await t.engine.tick();
    expect(await eventsOf(t, id)).toEqual([]);
    clock.set(T + 125_000);
    await t.engine.tick();
    expect(await eventsOf(t, id)).toEqual([['TRIGGERED', new Date(T + 121_000).toISOString()]]);
    const [log] = await t.query(`SELECT processing_status, next_execution_trigger FROM notification_trigger_log WHERE trigger_cuid = $1`, [id]);
    expect(log).toEqual({ processing_status: 'SUCCESS_NO_DATA', next_execution_trigger: 'DATA' });
    // The timer does not fire it twice.
    clock.set(T + 300_000);
    await t.engine.tick();
    expect(await eventsOf(t, id)).toHaveLength(1);

    expect((await send(T + 300_000, 6)).status).toBe(200);
    await t.engine.settle();
    expect(await eventsOf(t, id)).toEqual([
      ['TRIGGERED', new Date(T + 121_000).toISOString()],
      ['RELEASED', new Date(T + 300_000).toISOString()],
    ]);
    // Counting again from the new value.
    const [again] = await t.query(`SELECT trigger_state, next_execution FROM notification_trigger_status WHERE trigger_cuid = $1`, [id]);
    expect(again.trigger_state).toBe('RELEASED');
    expect(new Date(again.next_execution).getTime()).toBe(T + 420_000);
  });

  it('offline fires once the controller has been OFFLINE for after_seconds and releases when it is back ONLINE', async () => {
    const rules = t.online as unknown as { rules: { offlineAfterMs: number } };
    const grace = rules.rules.offlineAfterMs;
    const start = T + 1_000_000;
    clock.set(start);
    await t.online.contact(DEMO_CONTROLLER_ID, new Date(start), 'test');
    const id = await createTrigger({ kind: 'offline', controller_id: DEMO_CONTROLLER_ID, after_seconds: 600 }, 'Controller offline');
    await t.engine.tick(); // a new offline rule is judged at once: the controller is ONLINE
    await t.engine.settle();
    expect(await eventsOf(t, id)).toEqual([]);

    // Silent past the grace period: OFFLINE from start + grace.
    clock.set(start + grace + 1000);
    const transitions = await t.online.sweep(clock.now());
    expect(transitions).toEqual([{ controller_id: DEMO_CONTROLLER_ID, state: 'OFFLINE', at: new Date(start + grace) }]);
    await t.engine.settle();
    expect(await eventsOf(t, id)).toEqual([]);
    const [pending] = await t.query(`SELECT pending_state, next_execution FROM notification_trigger_status WHERE trigger_cuid = $1`, [id]);
    expect(pending.pending_state).toBe('TRIGGERED');
    expect(new Date(pending.next_execution).getTime()).toBe(start + grace + 600_000);

    clock.set(start + grace + 599_000);
    await t.engine.tick();
    expect(await eventsOf(t, id)).toEqual([]);
    clock.set(start + grace + 601_000);
    await t.engine.tick();
    expect(await eventsOf(t, id)).toEqual([['TRIGGERED', new Date(start + grace + 600_000).toISOString()]]);
    const [event] = await t.query(`SELECT value FROM notification_trigger_event WHERE trigger_cuid = $1`, [id]);
    expect(ZTriggerEventValue.parse(event.value)).toMatchObject({ state: 'TRIGGERED', threshold: 600, system_cuid: farm });

    // Back: ONLINE → released at that time.
    const back = start + grace + 900_000;
    clock.set(back);
    await t.online.contact(DEMO_CONTROLLER_ID, new Date(back), 'test');
    await t.engine.settle();
    expect(await eventsOf(t, id)).toEqual([
      ['TRIGGERED', new Date(start + grace + 600_000).toISOString()],
      ['RELEASED', new Date(back).toISOString()],
    ]);
    const [name] = await t.query(`SELECT name FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    const values = await t.query(`SELECT value FROM notification_trigger_event WHERE trigger_cuid = $1 ORDER BY "timestamp"`, [id]);
    expect(values.map((v) => ZTriggerEventValue.parse(v.value).device)).toEqual([name.name, name.name]);
  });

  it('no_data stays quiet while values keep coming (their progress is written only once a minute) and fires once they stop', async () => {
    const id = await createTrigger(
      { kind: 'no_data', entity_cuid: t.demo.battery, parameter_id: 'battery_temperature', after_seconds: 60 },
      'Temperature silent',
    );
    const start = T + 5_000_000;
    for (let s = 0; s <= 600; s += 30) {
      clock.set(start + s * 1000);
      const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
        rows: [{ timestamp: new Date(start + s * 1000).toISOString(), entity_cuid: t.demo.battery, parameter_id: 'battery_temperature', value: 25 }],
      });
      expect(res.status).toBe(200);
      await t.engine.settle();
      await t.engine.tick();
    }
    expect(await eventsOf(t, id)).toEqual([]);
    clock.set(start + 600_000 + 59_000);
    await t.engine.tick();
    expect(await eventsOf(t, id)).toEqual([]);
    clock.set(start + 600_000 + 61_000);
    await t.engine.tick();
    expect(await eventsOf(t, id)).toEqual([['TRIGGERED', new Date(start + 660_000).toISOString()]]);
  });
});
