import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { type AlertTestApp, eventsOf, ingest, ManualClock, startAlertApp } from './support';

/**
 * State lives in the database: a pending for_seconds survives a restart (the app is stopped and a
 * new one started on the same database), the new timer fires it once, and nothing fires twice.
 */
describe('alert engine across a restart', () => {
  let first: AlertTestApp | undefined;
  let second: AlertTestApp | undefined;
  let third: AlertTestApp | undefined;
  let db: AlertTestApp['db'] | undefined;

  afterAll(async () => {
    for (const app of [first, second, third]) await app?.close(false);
    await db?.close();
  });

  it('a pending for_seconds is finished once by the timer of the next instance', async () => {
    const T = Math.floor(Date.now() / 1000) * 1000;
    const clock = new ManualClock(T);
    first = await startAlertApp({ clock });
    db = first.db;
    const [{ system_cuid }] = await first.query(`SELECT system_cuid FROM entity WHERE entity_cuid = $1`, [first.demo.battery]);
    const c = await first.client('installer@demo.local');
    const created = await c.mutate('notificationTrigger.create', {
      data: {
        name: 'Hot battery',
        message: '{device} at {value}',
        system_cuid,
        args: { kind: 'threshold', entity_cuid: first.demo.battery, parameter_id: 'battery_temperature', op: 'above', value: 45, for_seconds: 300 },
      },
    });
    expect(created.error).toBeUndefined();
    const id = created.data.data.trigger_cuid as string;
    const res = await ingest(first.baseUrl, DEMO_CONTROLLER_ID, first.demo.demoToken, {
      rows: [
        { timestamp: new Date(T - 20_000).toISOString(), entity_cuid: first.demo.battery, parameter_id: 'battery_temperature', value: 40 },
        { timestamp: new Date(T - 10_000).toISOString(), entity_cuid: first.demo.battery, parameter_id: 'battery_temperature', value: 50 },
      ],
    });
    expect(res.status).toBe(200);
    await first.engine.settle();
    const [pending] = await first.query(
      `SELECT pending_state, pending_since, next_execution, next_execution_trigger FROM notification_trigger_status WHERE trigger_cuid = $1`,
      [id],
    );
    expect(pending.pending_state).toBe('TRIGGERED');
    expect(new Date(pending.pending_since).getTime()).toBe(T - 10_000);
    expect(new Date(pending.next_execution).getTime()).toBe(T - 10_000 + 300_000);
    expect(pending.next_execution_trigger).toBe('TIMER');
    // Not due yet on the first instance.
    clock.advance(60_000);
    await first.engine.tick();
    expect(await eventsOf(first, id)).toEqual([]);
    await first.close(false);
    first = undefined;

    // Later, a new instance on the same database: its timer finds the due row.
    clock.set(T + 400_000);
    second = await startAlertApp({ db, clock });
    expect(second.engine.size).toBeGreaterThan(0);
    expect(await second.engine.tick()).toBeGreaterThanOrEqual(1);
    await second.engine.settle();
    const fired = new Date(T - 10_000 + 300_000).toISOString();
    expect(await eventsOf(second, id)).toEqual([['TRIGGERED', fired]]);
    expect(second.kicks.count).toBeGreaterThan(0);
    const [status] = await second.query(
      `SELECT trigger_state, pending_state, next_execution, processing_status FROM notification_trigger_status WHERE trigger_cuid = $1`,
      [id],
    );
    expect(status).toEqual({ trigger_state: 'TRIGGERED', pending_state: null, next_execution: null, processing_status: 'SUCCESS_NO_DATA' });
    // Again, and after one more restart: no second event.
    clock.advance(60_000);
    expect(await second.engine.tick()).toBe(0);
    await second.close(false);
    second = undefined;
    third = await startAlertApp({ db, clock });
    await third.engine.tick();
    await third.engine.settle();
    expect(await eventsOf(third, id)).toEqual([['TRIGGERED', fired]]);
  });
});
