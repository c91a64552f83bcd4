import type { PoolClient } from 'pg';
import { SqlAlertEngineRepository } from '../../server/src/alerts/engine/alert-engine.repository';
import { ALERT_ENGINE_JOB as JOB } from '../../server/src/alerts/engine/job-identity';
import { SqlTriggerEvaluationRepository } from '../../server/src/alerts/engine/trigger-evaluation.repository';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { addRuleTrigger, alertWorld, type AlertWorld, lowBattery } from './alert-fixtures';
import { mediumWorld, type MediumWorld } from './world';

/** trigger-evaluation.repository.ts on a real database: one evaluation's reads and writes under the status row's lock. */
describe('trigger evaluation repository (database)', () => {
  let w: MediumWorld;
  let a: AlertWorld;
  let tx: SqlAlertEngineRepository;
  let repo: SqlTriggerEvaluationRepository;
  let farmTrigger: string;
  let privateTrigger: string;
  const T0 = new Date('2026-11-20T10:00:00Z');
  const at = (s: number) => new Date(T0.getTime() + s * 1000);
  const inTx = <T>(work: (c: PoolClient) => Promise<T>): Promise<T> => tx.transaction(JOB, work);

  beforeAll(async () => {
    w = await mediumWorld();
    a = await alertWorld(w);
    tx = new SqlAlertEngineRepository(w.ds);
    repo = new SqlTriggerEvaluationRepository();
    farmTrigger = await addRuleTrigger(w.ds, a.farm, lowBattery(a.battery));
    privateTrigger = await addRuleTrigger(w.ds, a.privateSystem, lowBattery(a.privateBattery));
  });
  afterAll(() => w?.db.close());

  const statusOf = async (id: string) =>
    (await w.ds.query<Record<string, any>[]>(`SELECT * FROM notification_trigger_status WHERE trigger_cuid = $1`, [id]))[0];

  it('lockActiveTrigger answers only for an active trigger; lockStatus makes the row once and answers it', async () => {
    const paused = await addRuleTrigger(w.ds, a.farm, lowBattery(a.battery), { is_active: false });
    expect(await inTx((c) => repo.lockActiveTrigger(JOB, c, farmTrigger))).toBe(true);
    expect(await inTx((c) => repo.lockActiveTrigger(JOB, c, paused))).toBe(false);
    expect(await inTx((c) => repo.lockActiveTrigger(JOB, c, 'nope'))).toBe(false);
    const row = await inTx((c) => repo.lockStatus(JOB, c, farmTrigger));
    expect(row).toMatchObject({ trigger_cuid: farmTrigger, trigger_state: 'RELEASED', pending_state: null, next_execution: null });
    expect(await inTx((c) => repo.lockStatus(JOB, c, farmTrigger))).toEqual(row);
    expect(await inTx((c) => repo.stateOf(JOB, c, farmTrigger))).toBe('RELEASED');
    expect(await inTx((c) => repo.stateOf(JOB, c, privateTrigger))).toBeUndefined();
  });

  it("insertLog, insertEvent and writeStatus write the trigger named, nothing of another company's trigger", async () => {
    await inTx((c) => repo.lockStatus(JOB, c, privateTrigger));
    const privateBefore = await statusOf(privateTrigger);
    const log_cuid = newCuid();
    const event_cuid = newCuid();
    await inTx(async (c) => {
      await repo.insertLog(JOB, c, {
        log_cuid,
        ts: at(10),
        trigger_cuid: farmTrigger,
        processing_status: 'SUCCESS',
        trigger_state: 'TRIGGERED',
        query: { samples: 1 },
        next_execution: null,
        via: 'DATA',
      });
      await repo.insertEvent(JOB, c, {
        event_cuid,
        ts: at(10),
        log_cuid,
        trigger_cuid: farmTrigger,
        value: {
          state: 'TRIGGERED',
          value: 12,
          threshold: 20,
          parameter: 'SoC',
          unit: '%',
          device: 'Battery bank',
          system: 'Farm',
          system_cuid: a.farm,
          timezone: 'UTC',
          time: at(10).toISOString(),
        },
      });
      await repo.writeStatus(JOB, c, {
        trigger_cuid: farmTrigger,
        state: 'TRIGGERED',
        state_since: at(10),
        processing_status: 'SUCCESS',
        log_cuid,
        log_timestamp: at(10),
        evaluated_at: at(11),
        evaluated_until: at(10),
        pending_state: null,
        pending_since: null,
        last_value: 12,
        next_execution: null,
        via: 'DATA',
      });
    });
    expect(await statusOf(farmTrigger)).toMatchObject({
      trigger_state: 'TRIGGERED',
      state_since: at(10),
      processing_status: 'SUCCESS',
      log_cuid,
      last_value: 12,
      next_execution_trigger: 'DATA',
    });
    expect(
      await w.ds.query(`SELECT trigger_cuid, processing_status::text, trigger_state::text, query FROM notification_trigger_log WHERE log_cuid = $1`, [
        log_cuid,
      ]),
    ).toEqual([{ trigger_cuid: farmTrigger, processing_status: 'SUCCESS', trigger_state: 'TRIGGERED', query: { samples: 1 } }]);
    expect(
      await w.ds.query(`SELECT trigger_cuid, status::text, value->>'state' AS state FROM notification_trigger_event WHERE event_cuid = $1`, [event_cuid]),
    ).toEqual([{ trigger_cuid: farmTrigger, status: 'PENDING', state: 'TRIGGERED' }]);
    // A null processing status or log keeps the stored ones.
    await inTx((c) =>
      repo.writeStatus(JOB, c, {
        trigger_cuid: farmTrigger,
        state: 'TRIGGERED',
        state_since: at(10),
        processing_status: null,
        log_cuid: null,
        log_timestamp: null,
        evaluated_at: at(11),
        evaluated_until: at(20),
        pending_state: null,
        pending_since: null,
        last_value: 15,
        next_execution: null,
        via: 'DATA',
      }),
    );
    expect(await statusOf(farmTrigger)).toMatchObject({ processing_status: 'SUCCESS', log_cuid, evaluated_until: at(20), last_value: 15 });
    expect(await statusOf(privateTrigger)).toEqual(privateBefore);
  });

  it('markFailed points the status at an error log row, state unchanged', async () => {
    const log_cuid = newCuid();
    await inTx(async (c) => {
      await repo.insertLog(JOB, c, {
        log_cuid,
        ts: at(30),
        trigger_cuid: farmTrigger,
        processing_status: 'PROCESSING_ERROR',
        trigger_state: 'TRIGGERED',
        query: { error: 'x' },
        next_execution: null,
        via: 'DATA',
      });
      await repo.markFailed(JOB, c, farmTrigger, log_cuid, at(30));
    });
    expect(await statusOf(farmTrigger)).toMatchObject({ processing_status: 'PROCESSING_ERROR', log_cuid, log_timestamp: at(30), trigger_state: 'TRIGGERED' });
  });

  it('lastStoredAt: the newest value of the series only', async () => {
    await w.ds.query(
      `INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value) VALUES ($1, 'battery_soc', $2, 50), ($1, 'battery_voltage', $3, 51), ($4, 'battery_soc', $3, 9)`,
      [a.battery, at(40), at(90), a.privateBattery],
    );
    expect(await inTx((c) => repo.lastStoredAt(JOB, c, a.battery, 'battery_soc'))).toEqual(at(40));
    expect(await inTx((c) => repo.lastStoredAt(JOB, c, a.battery, 'pv_power'))).toBeNull();
  });

  it('deviceMuted: a running mute of that device only (not ended, not past its end)', async () => {
    expect(await inTx((c) => repo.deviceMuted(JOB, c, a.battery))).toBe(false);
    await w.ds.query(`INSERT INTO device_mute (mute_cuid, entity_cuid, system_cuid, until) VALUES ($1, $2, $3, now() + interval '1 hour')`, [
      newCuid(),
      a.privateBattery,
      a.privateSystem,
    ]);
    expect(await inTx((c) => repo.deviceMuted(JOB, c, a.battery))).toBe(false);
    expect(await inTx((c) => repo.deviceMuted(JOB, c, a.privateBattery))).toBe(true);
    await w.ds.query(`UPDATE device_mute SET ended_at = now() WHERE entity_cuid = $1`, [a.privateBattery]);
    expect(await inTx((c) => repo.deviceMuted(JOB, c, a.privateBattery))).toBe(false);
  });

  it('namesOf: the system, device and parameter named; missing ones are null', async () => {
    const names = await inTx((c) => repo.namesOf(JOB, c, a.farm, a.battery, 'battery_soc'));
    expect(names).toMatchObject({ system: DEMO_SYSTEMS.farm, timezone: 'Africa/Nairobi', device: 'Battery bank' });
    expect(await inTx((c) => repo.namesOf(JOB, c, a.privateSystem, null, null))).toEqual({
      system: 'Other private',
      timezone: 'Europe/Paris',
      device: null,
      description: null,
      unit: null,
    });
    expect(await inTx((c) => repo.namesOf(JOB, c, 'nope', null, null))).toBeUndefined();
  });

  it("controllersOf: the system's controllers only (another company's never), or the one named if it is of the system", async () => {
    const farm = await inTx((c) => repo.controllersOf(JOB, c, a.farm, null));
    expect(farm.map((c) => c.controller_id)).toEqual([DEMO_CONTROLLER_ID]);
    expect(farm[0]).toMatchObject({ online_state: 'ONLINE', offline_since: null });
    expect(await inTx((c) => repo.controllersOf(JOB, c, a.farm, a.privateController))).toEqual([]);
    const mine = await inTx((c) => repo.controllersOf(JOB, c, a.privateSystem, null));
    expect(mine.map((c) => c.controller_id)).toEqual([a.privateController]);
    expect(mine[0].online_state).toBeNull();
  });
});
