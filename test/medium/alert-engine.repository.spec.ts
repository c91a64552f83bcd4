import { ALERT_ENGINE_JOB as JOB } from '../../server/src/alerts/engine/job-identity';
import { SqlAlertEngineRepository } from '../../server/src/alerts/engine/alert-engine.repository';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { addRuleTrigger, alertWorld, type AlertWorld, lowBattery } from './alert-fixtures';
import { mediumWorld, type MediumWorld } from './world';

/** alert-engine.repository.ts on a real database: the index, quiet progress, read back and the timer's claim. */
describe('alert engine repository (database)', () => {
  let w: MediumWorld;
  let a: AlertWorld;
  let repo: SqlAlertEngineRepository;
  let farmTrigger: string;
  let privateTrigger: string;
  let paused: string;
  const T0 = new Date('2026-11-20T10:00:00Z');
  const at = (s: number) => new Date(T0.getTime() + s * 1000);

  beforeAll(async () => {
    w = await mediumWorld();
    a = await alertWorld(w);
    repo = new SqlAlertEngineRepository(w.ds);
    farmTrigger = await addRuleTrigger(w.ds, a.farm, lowBattery(a.battery));
    privateTrigger = await addRuleTrigger(w.ds, a.privateSystem, lowBattery(a.privateBattery));
    paused = await addRuleTrigger(w.ds, a.farm, lowBattery(a.battery), { is_active: false });
  });
  afterAll(() => w?.db.close());

  const statusOf = async (id: string) =>
    (await w.ds.query<Record<string, any>[]>(`SELECT * FROM notification_trigger_status WHERE trigger_cuid = $1`, [id]))[0];

  it('activeTriggers and activeStatuses: active triggers of every company, never a paused one; insertStatuses makes only what is missing', async () => {
    const active = (await repo.activeTriggers(JOB)).map((t) => t.trigger_cuid);
    expect(active).toEqual(expect.arrayContaining([farmTrigger, privateTrigger]));
    expect(active).not.toContain(paused);
    expect(active).toEqual([...active].sort());
    const made = await repo.insertStatuses(JOB, [
      { trigger_cuid: farmTrigger, next_execution: null, via: 'DATA' },
      { trigger_cuid: privateTrigger, next_execution: at(60), via: 'TIMER' },
      { trigger_cuid: paused, next_execution: null, via: 'DATA' },
    ]);
    expect(made.map((s) => s.trigger_cuid).sort()).toEqual([farmTrigger, privateTrigger, paused].sort());
    expect(await repo.insertStatuses(JOB, [{ trigger_cuid: farmTrigger, next_execution: at(5), via: 'TIMER' }])).toEqual([]);
    expect((await statusOf(farmTrigger)).next_execution).toBeNull();
    const statuses = (await repo.activeStatuses(JOB)).map((s) => s.trigger_cuid);
    expect(statuses).toEqual(expect.arrayContaining([farmTrigger, privateTrigger]));
    expect(statuses).not.toContain(paused);
  });

  it("fingerprint changes with a trigger's args or activity, not otherwise", async () => {
    const before = await repo.fingerprint(JOB);
    expect(await repo.fingerprint(JOB)).toBe(before);
    await w.ds.query(`UPDATE notification_trigger SET args = $2 WHERE trigger_cuid = $1`, [paused, JSON.stringify({ ...lowBattery(a.battery), value: 21 })]);
    const after = await repo.fingerprint(JOB);
    expect(after).not.toBe(before);
    expect(after).toMatch(/^\d+:-?\d+$/);
  });

  it("writeQuietProgress writes only rows still as the cache says, and only those named (another company's row is left alone)", async () => {
    await w.ds.query(
      `UPDATE notification_trigger_status SET trigger_state = 'RELEASED', state_since = NULL, evaluated_until = $2, pending_state = NULL WHERE trigger_cuid = ANY($1)`,
      [[farmTrigger, privateTrigger], at(0)],
    );
    const privateBefore = await statusOf(privateTrigger);
    const done = await repo.writeQuietProgress(
      JOB,
      [
        { trigger_cuid: farmTrigger, evaluated_until: at(30), last_value: 55, next_execution: null, no_data: false, state: 'RELEASED', state_since: null },
        // Stale: the row is not TRIGGERED.
        { trigger_cuid: paused, evaluated_until: at(30), last_value: 1, next_execution: null, no_data: false, state: 'TRIGGERED', state_since: at(1) },
      ],
      at(31),
    );
    expect(done).toEqual([farmTrigger]);
    expect(await statusOf(farmTrigger)).toMatchObject({ evaluated_until: at(30), last_value: 55, evaluated_at: at(31) });
    expect(await statusOf(privateTrigger)).toEqual(privateBefore);
    // Never backwards.
    expect(
      await repo.writeQuietProgress(
        JOB,
        [{ trigger_cuid: farmTrigger, evaluated_until: at(10), last_value: 1, next_execution: null, no_data: false, state: 'RELEASED', state_since: null }],
        at(40),
      ),
    ).toEqual([]);
    expect(await repo.writeQuietProgress(JOB, [], at(40))).toEqual([]);
  });

  it('storedAfter reads each series after its evaluated_until, in order, at most `limit` per trigger, and only the series named', async () => {
    await w.ds.query(
      `INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value) SELECT $1, 'battery_soc', t, v FROM unnest($2::timestamptz[], $3::float8[]) AS u(t, v)`,
      [a.battery, [at(20), at(40), at(50), at(60)], [40, 30, 20, 10]],
    );
    await w.ds.query(`INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value) VALUES ($1, 'battery_soc', $2, 99)`, [
      a.privateBattery,
      at(45),
    ]);
    const rows = await repo.storedAfter(JOB, [{ trigger_cuid: farmTrigger, entity_cuid: a.battery, parameter_id: 'battery_soc' }], 2);
    expect(rows).toEqual([
      { trigger_cuid: farmTrigger, ts: at(40), value: 30 },
      { trigger_cuid: farmTrigger, ts: at(50), value: 20 },
    ]);
    expect(await repo.storedAfter(JOB, [], 10)).toEqual([]);
  });

  it("systemOfController: the controller's own system, null for an unknown one", async () => {
    expect(await repo.systemOfController(JOB, DEMO_CONTROLLER_ID)).toBe(a.farm);
    expect(await repo.systemOfController(JOB, a.privateController)).toBe(a.privateSystem);
    expect(await repo.systemOfController(JOB, 'nope')).toBeNull();
  });

  it('claimDue claims due rows oldest first, skips rows another transaction holds; clearNextExecution takes a row off the timer', async () => {
    await w.ds.query(`UPDATE notification_trigger_status SET next_execution = NULL`);
    await w.ds.query(`UPDATE notification_trigger_status SET next_execution = $2 WHERE trigger_cuid = $1`, [farmTrigger, at(100)]);
    await w.ds.query(`UPDATE notification_trigger_status SET next_execution = $2 WHERE trigger_cuid = $1`, [privateTrigger, at(50)]);
    expect(await repo.transaction(JOB, (c) => repo.claimDue(JOB, c, at(49), 10))).toEqual([]);
    const claimed = await repo.transaction(JOB, async (c) => {
      const rows = await repo.claimDue(JOB, c, at(200), 10);
      await repo.clearNextExecution(JOB, c, rows[0].trigger_cuid);
      return rows.map((r) => r.trigger_cuid);
    });
    expect(claimed).toEqual([privateTrigger, farmTrigger]);
    expect((await statusOf(privateTrigger)).next_execution).toBeNull();
    expect((await statusOf(farmTrigger)).next_execution).toEqual(at(100));
    expect((await repo.transaction(JOB, (c) => repo.claimDue(JOB, c, at(200), 1))).map((r) => r.trigger_cuid)).toEqual([farmTrigger]);
  });
});
