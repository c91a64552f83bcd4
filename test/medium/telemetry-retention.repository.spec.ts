import { newCuid } from '../../server/src/common/ids';
import { systemJob } from '../../server/src/common/system-job';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { TelemetryRetentionRepository } from '../../server/src/telemetry/telemetry-retention.repository';
import { mediumWorld, type MediumWorld } from './world';

/** telemetry-retention.repository.ts on a real database: what goes, what stays. */
describe('telemetry retention repository (database)', () => {
  let w: MediumWorld;
  let repo: TelemetryRetentionRepository;
  let battery: string;
  let foreignBattery: string;
  const job = systemJob('test-retention');
  const day = (d: number) => new Date(Date.UTC(2026, 2, d, 12));

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new TelemetryRetentionRepository(w.ds);
    const systems = Object.fromEntries(
      (await w.ds.query<{ system_cuid: string; name: string }[]>(`SELECT system_cuid, name FROM system`)).map((s) => [s.name, s.system_cuid]),
    );
    const [b] = await w.ds.query<{ entity_cuid: string; entitytype_id: string }[]>(
      `SELECT entity_cuid, entitytype_id FROM entity WHERE system_cuid = $1 LIMIT 1`,
      [systems[DEMO_SYSTEMS.farm]],
    );
    battery = b.entity_cuid;
    foreignBattery = newCuid();
    await w.ds.query(`INSERT INTO entity (entity_cuid, name, entitytype_id, system_cuid) VALUES ($1, 'Clinic battery', $2, $3)`, [
      foreignBattery,
      b.entitytype_id,
      systems[DEMO_SYSTEMS.clinic],
    ]);
    const [p] = await w.ds.query<{ parameter_id: string }[]>(`SELECT parameter_id FROM entity_type_log_parameter_assignment WHERE entitytype_id = $1 LIMIT 1`, [
      b.entitytype_id,
    ]);
    for (const [entity, d] of [
      [battery, 1],
      [battery, 2],
      [battery, 20],
      [foreignBattery, 2],
      [foreignBattery, 21],
    ] as const) {
      await w.ds.query(`INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value) VALUES ($1, $2, $3, 1)`, [entity, p.parameter_id, day(d)]);
      await w.ds.query(
        `INSERT INTO parameter_rollup_1h (entity_cuid, parameter_id, bucket, min, max, sum, count, last, last_ts) VALUES ($1, $2, $3, 1, 1, 1, 1, 1, $3)`,
        [entity, p.parameter_id, day(d)],
      );
    }
  });
  afterAll(() => w?.db.close());

  const left = async (table: string, column: string) =>
    (await w.ds.query<{ entity_cuid: string; t: Date }[]>(`SELECT entity_cuid, ${column} AS t FROM ${table} ORDER BY ${column}`)).map((r) => [
      r.entity_cuid === battery ? 'demo' : 'other',
      new Date(r.t).getUTCDate(),
    ]);

  it('oldestRawBefore and deleteRawBefore: only rows older than the cutoff go, whichever company; newer ones of every company stay', async () => {
    expect(await repo.oldestRawBefore(job, day(10))).toEqual(day(1));
    expect(await repo.oldestRawBefore(job, day(1))).toBeNull();
    expect(await repo.deleteRawBefore(job, day(10))).toBe(3);
    expect(await left('parameter_log', '"timestamp"')).toEqual([
      ['demo', 20],
      ['other', 21],
    ]);
  });

  it('deleteRollupChunk: at most `limit` rows at a time, newer buckets of another company untouched', async () => {
    expect(await repo.deleteRollupChunk(job, '1h', day(10), 2)).toBe(2);
    expect(await repo.deleteRollupChunk(job, '1h', day(10), 2)).toBe(1);
    expect(await repo.deleteRollupChunk(job, '1h', day(10), 2)).toBe(0);
    expect(await left('parameter_rollup_1h', 'bucket')).toEqual([
      ['demo', 20],
      ['other', 21],
    ]);
  });

  it('rawPartitions and emptyPartition: monthly partitions only, by their own names', async () => {
    const parts = await repo.rawPartitions(job);
    expect(parts.every((p) => /^parameter_log_p\d{6}$/.test(p))).toBe(true);
    await expect(repo.emptyPartition(job, 'parameter_log; DROP TABLE system')).rejects.toThrow('not a monthly partition');
    // The migrations make 2024-01 … 2027-12.
    expect(parts).toContain('parameter_log_p202603');
    expect(await repo.emptyPartition(job, 'parameter_log_p202603')).toBe(2);
    expect(await left('parameter_log', '"timestamp"')).toEqual([]);
  });
});
