import { newCuid } from '../../server/src/common/ids';
import { systemJob } from '../../server/src/common/system-job';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import type { ValidParameterRow } from '../../server/src/telemetry/ingest-validator';
import { TelemetryWriterRepository } from '../../server/src/telemetry/telemetry-writer.repository';
import { mediumWorld, type MediumWorld } from './world';

/** telemetry-writer.repository.ts on a real database: rows, rollups, repeats, and nobody else's rows. */
describe('telemetry writer repository (database)', () => {
  let w: MediumWorld;
  let repo: TelemetryWriterRepository;
  let farm: string;
  let battery: string;
  let foreignBattery: string;
  const job = systemJob('test-ingest');
  const t0 = Date.UTC(2026, 2, 2, 10, 0, 0);
  const row = (entity_cuid: string, minutes: number, value: number): ValidParameterRow => ({
    index: 0,
    entity_cuid,
    parameter_id: 'battery_soc',
    ts: new Date(t0 + minutes * 60_000),
    min: null,
    max: null,
    value,
    tz: 'Africa/Nairobi',
  });
  const rollup = async (table: string, entity_cuid: string) =>
    await w.ds.query<{ min: number; max: number; sum: number; count: number; last: number }[]>(
      `SELECT min::float8, max::float8, sum::float8, count::int, last::float8 FROM ${table} WHERE entity_cuid = $1 ORDER BY bucket`,
      [entity_cuid],
    );

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new TelemetryWriterRepository(w.ds);
    const systems = Object.fromEntries(
      (await w.ds.query<{ system_cuid: string; name: string }[]>(`SELECT system_cuid, name FROM system`)).map((s) => [s.name, s.system_cuid]),
    );
    farm = systems[DEMO_SYSTEMS.farm];
    const [b] = await w.ds.query<{ entity_cuid: string; entitytype_id: string }[]>(
      `SELECT e.entity_cuid, e.entitytype_id FROM entity e JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
        WHERE e.system_cuid = $1 AND a.parameter_id = 'battery_soc'`,
      [farm],
    );
    battery = b.entity_cuid;
    // The other company's clinic gets a battery of the same type.
    foreignBattery = newCuid();
    await w.ds.query(`INSERT INTO entity (entity_cuid, name, entitytype_id, system_cuid) VALUES ($1, 'Clinic battery', $2, $3)`, [
      foreignBattery,
      b.entitytype_id,
      systems[DEMO_SYSTEMS.clinic],
    ]);
  });
  afterAll(() => w?.db.close());

  it('insertParameters: stores new rows, merges them into the three rollups, and ignores repeats', async () => {
    const first = await repo.transaction(job, (tx) => repo.insertParameters(job, tx, [row(battery, 0, 50), row(battery, 1, 70), row(battery, 6, 40)]));
    expect(first).toEqual([{ entity_cuid: battery, n: 3 }]);
    expect(await rollup('parameter_rollup_5m', battery)).toEqual([
      { min: 50, max: 70, sum: 120, count: 2, last: 70 },
      { min: 40, max: 40, sum: 40, count: 1, last: 40 },
    ]);
    // A repeat and a late row of the first bucket: only the new row counts, `last` stays the latest.
    const again = await repo.transaction(job, (tx) => repo.insertParameters(job, tx, [row(battery, 0, 50), row(battery, 0.5, 10)]));
    expect(again).toEqual([{ entity_cuid: battery, n: 1 }]);
    expect((await rollup('parameter_rollup_5m', battery))[0]).toEqual({ min: 10, max: 70, sum: 130, count: 3, last: 70 });
    expect(await rollup('parameter_rollup_1h', battery)).toEqual([{ min: 10, max: 70, sum: 170, count: 4, last: 40 }]);
    expect(await rollup('parameter_rollup_1d', battery)).toEqual([{ min: 10, max: 70, sum: 170, count: 4, last: 40 }]);
  });

  it('insertStandard and insertStates: counts per segment, repeats ignored', async () => {
    const ts = new Date(t0);
    const standard = [{ seg: 1, row: { index: 0, system_cuid: farm, ts, total_pv_kwh: 12.5 } }];
    expect(await repo.transaction(job, (tx) => repo.insertStandard(job, tx, standard))).toEqual([{ seg: 1, n: 1 }]);
    expect(await repo.transaction(job, (tx) => repo.insertStandard(job, tx, standard))).toEqual([]);
    const states = [{ seg: 2, row: { index: 0, entity_cuid: battery, ts, bundle: '{"state":1}' } }];
    expect(await repo.transaction(job, (tx) => repo.insertStates(job, tx, states))).toEqual([{ seg: 2, n: 1 }]);
    expect(await repo.transaction(job, (tx) => repo.insertStates(job, tx, states))).toEqual([]);
  });

  it("a batch of one company's device never changes another company's rows, and a rolled back batch leaves nothing", async () => {
    await repo.transaction(job, (tx) => repo.insertParameters(job, tx, [row(foreignBattery, 0, 99)]));
    const before = await rollup('parameter_rollup_5m', foreignBattery);
    await repo.transaction(job, (tx) => repo.insertParameters(job, tx, [row(battery, 2, 1), row(battery, 3, 2)]));
    expect(await rollup('parameter_rollup_5m', foreignBattery)).toEqual(before);
    expect(before).toEqual([{ min: 99, max: 99, sum: 99, count: 1, last: 99 }]);
    await expect(
      repo.transaction(job, async (tx) => {
        await repo.insertParameters(job, tx, [row(foreignBattery, 30, 5)]);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await rollup('parameter_rollup_5m', foreignBattery)).toEqual(before);
  });
});
