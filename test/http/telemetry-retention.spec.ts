import { TelemetryRetentionService } from '../../server/src/telemetry/telemetry-retention.service';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { ManualClock, startTelemetryTestApp, type TelemetryTestApp } from '../mqtt/support/telemetry-app';

const DAY = 86_400_000;

/** Retention per resolution: raw rows and each rollup are kept for their own number of days. */
describe('telemetry retention', () => {
  let t: TelemetryTestApp;
  const clock = new ManualClock(Date.UTC(2026, 2, 15, 12, 0, 0));

  beforeAll(async () => {
    t = await startTelemetryTestApp({
      clock,
      env: {
        TELEMETRY_RETENTION_RAW_DAYS: '10',
        TELEMETRY_RETENTION_5M_DAYS: '20',
        TELEMETRY_RETENTION_1H_DAYS: '30',
        TELEMETRY_RETENTION_1D_DAYS: '40',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deletes what is older than each resolution keeps, whole raw months included, and nothing newer', async () => {
    const ages = [5, 15, 25, 35, 45, 70];
    await t.app.get(TelemetryWriter).write({
      rows: ages.map((age, index) => ({
        seg: 0,
        row: {
          index,
          entity_cuid: t.demo.battery,
          parameter_id: 'battery_soc',
          ts: new Date(clock.now().getTime() - age * DAY),
          min: null,
          max: null,
          value: age,
          tz: 'UTC',
        },
      })),
      standard: [],
      states: [],
    });
    const report = await t.app.get(TelemetryRetentionService).run(clock.now());
    expect(report).toEqual({ raw: 5, '5m': 4, '1h': 3, '1d': 2 });
    const values = async (table: string, column: string) =>
      (await t.query(`SELECT ${column} AS v FROM ${table} WHERE entity_cuid = $1 ORDER BY 1`, [t.demo.battery])).map((r) => r.v);
    expect(await values('parameter_log', 'value')).toEqual([5]);
    expect(await values('parameter_rollup_5m', 'last')).toEqual([5, 15]);
    expect(await values('parameter_rollup_1h', 'last')).toEqual([5, 15, 25]);
    expect(await values('parameter_rollup_1d', 'last')).toEqual([5, 15, 25, 35]);
    // Run again: nothing left to do.
    expect(await t.app.get(TelemetryRetentionService).run(clock.now())).toEqual({ raw: 0, '5m': 0, '1h': 0, '1d': 0 });
  });
});
