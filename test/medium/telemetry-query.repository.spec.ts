import type { Scope } from '../../server/src/access/scope';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { SystemAccessRepository } from '../../server/src/systems/system-access.repository';
import { TelemetryQueryRepository } from '../../server/src/telemetry/telemetry-query.repository';
import { mediumWorld, type MediumWorld } from './world';

/** telemetry-query.repository.ts and system-access.repository.ts on a real database: the rows, and who sees them. */
describe('telemetry query repository (database)', () => {
  let w: MediumWorld;
  let repo: TelemetryQueryRepository;
  let access: SystemAccessRepository;
  let farm: string;
  let battery: string;
  const stranger: Scope = { user_cuid: 'stranger', superuser: false, companies: ['strangerco'], adminCompanies: [] };
  const t0 = new Date('2026-03-02T00:00:00Z');
  const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new TelemetryQueryRepository(w.ds);
    access = new SystemAccessRepository(w.ds);
    [{ system_cuid: farm }] = await w.ds.query<{ system_cuid: string }[]>(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]);
    [{ entity_cuid: battery }] = await w.ds.query<{ entity_cuid: string }[]>(
      `SELECT e.entity_cuid FROM entity e JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
        WHERE e.system_cuid = $1 AND a.parameter_id = 'battery_soc'`,
      [farm],
    );
    // Four raw readings and their 5-minute rollups; two counter readings a day apart.
    for (const [m, v] of [
      [0, 50],
      [2, 60],
      [5, 70],
      [7, 40],
    ] as const) {
      await w.ds.query(`INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value) VALUES ($1, 'battery_soc', $2, $3)`, [battery, at(m), v]);
    }
    await w.ds.query(
      `INSERT INTO parameter_rollup_5m (entity_cuid, parameter_id, bucket, min, max, sum, count, last, last_ts)
       VALUES ($1, 'battery_soc', $2, 50, 60, 110, 2, 60, $3), ($1, 'battery_soc', $4, 40, 70, 110, 2, 40, $5)`,
      [battery, at(0), at(2), at(5), at(7)],
    );
    await w.ds.query(`INSERT INTO system_standard_value_log (system_cuid, "timestamp", total_pv_kwh) VALUES ($1, $2, 100), ($1, $3, 112.5)`, [
      farm,
      new Date('2026-03-01T12:00:00Z'),
      new Date('2026-03-02T12:00:00Z'),
    ]);
  });
  afterAll(() => w?.db.close());

  const series = (caller: Parameters<TelemetryQueryRepository['series']>[0], resolution: '5m' | 'raw') =>
    repo.series(caller, {
      entity_cuid: battery,
      parameter_ids: ['battery_soc'],
      from: at(0),
      to: at(10),
      zone: 'UTC',
      plan: { resolution, grouping: 'fixed', widthMs: 300_000, days: 0 },
      resolution,
    });

  it('deviceSystem and visible: the system of a device, with its shares, for a member of the owner', async () => {
    const basic = await w.scope('basic@demo.local');
    expect(await repo.deviceSystem(basic, battery)).toEqual({
      system_cuid: farm,
      company_cuid: w.demo,
      name: DEMO_SYSTEMS.farm,
      timezone: expect.any(String),
      shares: [],
    });
    expect(await access.visible(basic, farm)).toMatchObject({ system_cuid: farm, company_cuid: w.demo });
    expect(await repo.deviceSystem(basic, 'no-such-device')).toBeUndefined();
  });

  it('series: buckets from the rollup and from raw rows agree', async () => {
    const basic = await w.scope('basic@demo.local');
    const expected = [
      { parameter_id: 'battery_soc', t: at(0).getTime(), min: 50, max: 60, avg: 55, last: 60, count: 2 },
      { parameter_id: 'battery_soc', t: at(5).getTime(), min: 40, max: 70, avg: 55, last: 40, count: 2 },
    ];
    const norm = (rows: { t: unknown }[]) => rows.map((r) => ({ ...r, t: Number(r.t) }));
    expect(norm(await series(basic, '5m'))).toEqual(expected);
    expect(norm(await series(basic, 'raw'))).toEqual(expected);
  });

  it('latest: controllers, device parameters with their latest value, device states', async () => {
    const basic = await w.scope('basic@demo.local');
    expect((await repo.controllers(basic, farm)).map((c) => [c.controller_id, c.online_state])).toEqual([[DEMO_CONTROLLER_ID, 'ONLINE']]);
    const params = await repo.deviceParameters(basic, farm);
    expect(params.find((p) => p.entity_cuid === battery && p.parameter_id === 'battery_soc')).toMatchObject({ value: 40, unit: '%' });
    expect(new Set((await repo.deviceStates(basic, farm)).map((d) => d.entity_cuid))).toEqual(new Set(params.map((p) => p.entity_cuid)));
  });

  it('energy: the counter increase in its local day', async () => {
    const basic = await w.scope('basic@demo.local');
    const rows = await repo.energy(
      basic,
      { system_cuid: farm, granularity: 'day', from: new Date('2026-03-02T00:00:00Z'), to: new Date('2026-03-03T00:00:00Z') },
      'UTC',
    );
    expect(rows.map((r) => [r.label, r.kwh])).toEqual([['2026-03-02', 12.5]]);
  });

  it("another company's caller gets none of the demo company's rows", async () => {
    for (const caller of [await w.scope('other@demo.local'), stranger]) {
      expect(await repo.deviceSystem(caller, battery)).toBeUndefined();
      expect(await access.visible(caller, farm)).toBeUndefined();
      expect(await series(caller, '5m')).toEqual([]);
      expect(await series(caller, 'raw')).toEqual([]);
      expect(await repo.controllers(caller, farm)).toEqual([]);
      expect(await repo.deviceParameters(caller, farm)).toEqual([]);
      expect(await repo.deviceStates(caller, farm)).toEqual([]);
      expect(
        await repo.energy(
          caller,
          { system_cuid: farm, granularity: 'day', from: new Date('2026-03-02T00:00:00Z'), to: new Date('2026-03-03T00:00:00Z') },
          'UTC',
        ),
      ).toEqual([]);
    }
  });
});
